// A nextTick queued by one timer clears the next timer of the same list.
// Node 11+ runs the tick before the next timer, so that timer never fires;
// Node 10 runs both timers first, and the clear comes too late.
let second;
setTimeout(() => {
  console.log('first');
  process.nextTick(() => {
    console.log('tick: clearing second');
    clearTimeout(second);
  });
}, 1);
second = setTimeout(() => console.log('second'), 1);
const start = Date.now();
while (Date.now() - start < 3) {}
// SPDX-License-Identifier: MIT
