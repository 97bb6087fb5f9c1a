// A rejection nobody handles is reported, and the run goes on.
console.log('before');
Promise.reject(new Error('nobody catches this'));
setTimeout(() => console.log('after'), 1);
// SPDX-License-Identifier: MIT
