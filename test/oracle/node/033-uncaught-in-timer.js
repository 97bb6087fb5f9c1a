// oracle: node10 node11 node
// An exception thrown by a timer callback is fatal: stdout stops there and
// the exit status is 1. Both timers are due before the loop starts.
setTimeout(() => console.log('timer 1'), 2);
setTimeout(() => {
  console.log('timer 2 throws');
  throw new Error('boom in timer');
}, 4);
setTimeout(() => console.log('timer 3 (must not run)'), 30);
setImmediate(() => console.log('immediate (must not run)'));
const s = Date.now(); while (Date.now() - s < 10) {}
// SPDX-License-Identifier: MIT
