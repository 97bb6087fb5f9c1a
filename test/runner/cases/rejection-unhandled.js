// node10/node11 warn and carry on; node exits with status 1.
console.log('before');
Promise.reject(new Error('nobody catches this'));
setTimeout(() => console.log('after (node10, node11 only)'), 1);
// SPDX-License-Identifier: MIT
