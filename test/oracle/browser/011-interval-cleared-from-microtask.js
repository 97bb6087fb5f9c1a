// oracle: browser
// An interval cleared from a microtask of its own third tick never ticks
// again: the microtask checkpoint after the tick's task runs before the next
// repetition is queued or run (HTML 8.1.7.3 microtask checkpoint; HTML timers:
// clearInterval removes the active timer, so a repeat that is already
// scheduled does nothing). A 0 ms timer created after the interval runs after
// its first tick: same delay, creation order.
let n = 0;
const id = setInterval(() => {
  n++;
  console.log('tick', n);
  if (n === 3) queueMicrotask(() => { console.log('microtask clears the interval'); clearInterval(id); });
}, 0);
setTimeout(() => console.log('timeout created after the interval'), 0);
setTimeout(() => console.log('END'), 30);
// SPDX-License-Identifier: MIT
