// oracle: node11 node
// queueMicrotask shares the FIFO microtask queue with promise jobs; nextTick
// still goes first. (Node 10 has no queueMicrotask.)
queueMicrotask(() => console.log('microtask 1'));
Promise.resolve().then(() => console.log('promise 1'));
queueMicrotask(() => {
  console.log('microtask 2');
  queueMicrotask(() => console.log('microtask 2 nested'));
  process.nextTick(() => console.log('tick from microtask 2'));
});
Promise.resolve().then(() => console.log('promise 2'));
process.nextTick(() => console.log('tick'));
// SPDX-License-Identifier: MIT
