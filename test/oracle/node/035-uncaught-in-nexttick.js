// oracle: node10 node11 node
// An exception in a nextTick callback is fatal before any promise job or
// timer runs.
process.nextTick(() => console.log('tick 1'));
process.nextTick(() => {
  console.log('tick 2 throws');
  throw new RangeError('boom in tick');
});
process.nextTick(() => console.log('tick 3 (must not run)'));
Promise.resolve().then(() => console.log('promise (must not run)'));
setTimeout(() => console.log('timer (must not run)'), 1);
console.log('main');
// SPDX-License-Identifier: MIT
