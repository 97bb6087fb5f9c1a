// oracle: node11 node
// queueMicrotask inside expired timers of one list: Node 11+ runs each
// timer's microtasks before the next timer.
setTimeout(() => {
  console.log('timer1');
  queueMicrotask(() => console.log('microtask1'));
}, 3);
setTimeout(() => {
  console.log('timer2');
  queueMicrotask(() => console.log('microtask2'));
}, 3);
const s = Date.now(); while (Date.now() - s < 15) {}
// SPDX-License-Identifier: MIT
