// oracle: node10 node11 node
// refresh() restarts a timer's countdown from now: of two 30 ms timers, the
// first one, refreshed 10 ms later, now fires after the second.
const first = setTimeout(() => console.log('first timer (refreshed)'), 30);
setTimeout(() => console.log('second timer'), 30);
const s = Date.now(); while (Date.now() - s < 10) {}
console.log('refresh returns the timer:', first.refresh() === first);
// SPDX-License-Identifier: MIT
