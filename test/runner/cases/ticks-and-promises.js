// nextTicks run before promise jobs; each queue drains completely, and
// work queued by the other queue waits for the next round.
process.nextTick(() => {
  console.log('tick 1');
  process.nextTick(() => console.log('tick 1.1'));
  Promise.resolve().then(() => console.log('promise from tick 1'));
});
Promise.resolve().then(() => {
  console.log('promise 1');
  process.nextTick(() => console.log('tick from promise 1'));
  Promise.resolve().then(() => console.log('promise 1.1'));
});
process.nextTick((a, b) => console.log('tick 2', a, b), 'x', 2);
console.log('main');
// SPDX-License-Identifier: MIT
