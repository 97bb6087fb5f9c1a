// Two immediates; the first queues a nextTick and a promise job.
// Node 10 runs every immediate of a check pass in one native callback, so the
// tick and the promise wait for the whole pass; Node 11+ drains after each.
setImmediate(() => {
  console.log('immediate1');
  process.nextTick(() => console.log('tick1'));
  Promise.resolve().then(() => console.log('promise1'));
});
setImmediate(() => {
  console.log('immediate2');
});
// SPDX-License-Identifier: MIT
