// The seed example: two expired timers, each queueing a promise reaction.
// node10 prints timer1 timer2 promise1 promise2 (both timers run in one
// native callback, so the microtasks wait); node11 and later print
// timer1 promise1 timer2 promise2 (Node PR #22842 drains after each timer).
setTimeout(() => {
  console.log('timer1');
  Promise.resolve().then(() => console.log('promise1'));
}, 0);
setTimeout(() => {
  console.log('timer2');
  Promise.resolve().then(() => console.log('promise2'));
}, 0);

// Both timers must be due when the loop first runs them. Without this wait,
// a millisecond boundary between the two setTimeout calls sometimes leaves
// the second one not yet due on real Node 10, which then runs it in a later
// callback and prints the Node 11 order.
const start = Date.now();
while (Date.now() - start < 5) {}
// SPDX-License-Identifier: MIT
