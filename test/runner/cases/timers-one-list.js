// Four timers of one list, all expired when the loop starts (the main
// script busy-waits past their deadline). A clears B; C queues a tick.
setTimeout(() => {
  console.log('A');
  clearTimeout(b);
  Promise.resolve().then(() => console.log('promise from A'));
}, 1);
const b = setTimeout(() => console.log('B'), 1);
setTimeout(() => {
  console.log('C');
  process.nextTick(() => console.log('tick from C'));
}, 1);
setTimeout(() => console.log('D'), 1);
// The wait starts after the timers are set: a pause between a start
// taken before them and the setTimeout calls would use it up.
const start = Date.now();
while (Date.now() - start < 5) {}
// SPDX-License-Identifier: MIT
