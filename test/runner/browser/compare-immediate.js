// setImmediate is Node's; a browser window has none.
console.log('start');
setImmediate(() => console.log('immediate'));
// SPDX-License-Identifier: MIT
