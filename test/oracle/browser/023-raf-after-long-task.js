// oracle: browser
// After a script task that runs longer than a frame, the rendering
// opportunity is already due when the task's microtask checkpoint ends, so
// "update the rendering" runs the frame callback before the expired 0 ms
// timer task (HTML 8.1.7.3: update the rendering comes right after the
// checkpoint of the task that just ran). Without the busy loop the order would
// race (with 40 ms it still raced on an idle machine: README, Stability).
setTimeout(() => {
  console.log('timeout');
  setTimeout(() => console.log('END'), 0);
}, 0);
requestAnimationFrame(() => console.log('raf'));
Promise.resolve().then(() => console.log('microtask'));
const s = performance.now(); while (performance.now() - s < 100) {}
// SPDX-License-Identifier: MIT
