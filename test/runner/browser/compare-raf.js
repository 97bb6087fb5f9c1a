// requestAnimationFrame is the browser's; Node has none.
console.log('start');
requestAnimationFrame(() => console.log('frame'));
// SPDX-License-Identifier: MIT
