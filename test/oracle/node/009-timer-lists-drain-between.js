// oracle: node10 node11 node
// Expired timers with different durations belong to different lists; even
// Node 10 drains ticks and promises between lists, so all versions agree.
setTimeout(() => {
  console.log('timer 2 ms');
  Promise.resolve().then(() => console.log('promise from 2 ms'));
}, 2);
setTimeout(() => {
  console.log('timer 4 ms');
  process.nextTick(() => console.log('tick from 4 ms'));
}, 4);
setTimeout(() => {
  console.log('timer 6 ms');
  Promise.resolve().then(() => console.log('promise from 6 ms'));
}, 6);
const s = Date.now(); while (Date.now() - s < 25) {}
// SPDX-License-Identifier: MIT
