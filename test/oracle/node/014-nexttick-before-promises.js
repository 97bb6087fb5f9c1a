// oracle: node10 node11 node
// After the main module, every nextTick runs before any promise job, whatever
// the order in which they were queued.
Promise.resolve().then(() => console.log('promise 1'));
process.nextTick(() => console.log('tick 1'));
Promise.resolve().then(() => console.log('promise 2'));
process.nextTick(() => console.log('tick 2'));
console.log('main');
// SPDX-License-Identifier: MIT
