// oracle: browser
// Extra setTimeout arguments reach the callback; clearTimeout of a timer
// that is already due (its task may even be queued) stops it from running;
// clearing an unknown or already-run id is harmless (HTML timers:
// clearTimeout removes the entry from the map of active timers, and the
// queued task checks the map before running the callback).
setTimeout((a, b) => console.log('args', a, b), 0, 'x', 42);
let b;
setTimeout(() => { console.log('a clears b'); clearTimeout(b); clearTimeout(b); clearTimeout(12345); }, 0);
b = setTimeout(() => console.log('b (cleared)'), 0);
const c = setTimeout(() => console.log('c (cleared before running)'), 0);
clearTimeout(c);
const s = performance.now(); while (performance.now() - s < 5) {}
setTimeout(() => console.log('END'), 1);
// SPDX-License-Identifier: MIT
