// oracle: node10 node11 node
// Seed 004's example: two expired 0 ms timers, each resolving a promise.
// Node 10 runs both timers before the microtasks; Node 11+ drains after each.
setTimeout(() => {
  console.log('timer1');
  Promise.resolve().then(() => console.log('promise1'));
}, 0);
setTimeout(() => {
  console.log('timer2');
  Promise.resolve().then(() => console.log('promise2'));
}, 0);
const s = Date.now(); while (Date.now() - s < 10) {}
// SPDX-License-Identifier: MIT
