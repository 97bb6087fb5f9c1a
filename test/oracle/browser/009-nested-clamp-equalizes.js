// oracle: browser
// The clamp seen through order only: a callback at timer nesting level k
// schedules a 3 ms timer and then a 0 ms timer. Unclamped, the 0 ms timer is
// due first. From nesting level 6 both are raised to 4 ms (HTML timer
// initialization steps, nesting level > 5 and timeout < 4), become due at the
// same time and run in creation order: 3 ms first.
let level = 0;
function step() {
  level++;
  const k = level;
  setTimeout(() => console.log('level', k, 'delay 3'), 3);
  setTimeout(() => console.log('level', k, 'delay 0'), 0);
  if (level < 8) setTimeout(step, 10);
  else setTimeout(() => console.log('END'), 20);
}
setTimeout(step, 0);
// SPDX-License-Identifier: MIT
