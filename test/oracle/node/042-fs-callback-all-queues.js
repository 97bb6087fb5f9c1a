// oracle: node10 node11 node
// Everything queued from an fs callback: ticks, then promise jobs, then the
// immediate, then the timer (even after a busy-wait makes it due).
const fs = require('fs');
fs.stat(__filename, () => {
  console.log('stat callback');
  setTimeout(() => console.log('timeout 0'), 0);
  setImmediate(() => {
    console.log('immediate');
    process.nextTick(() => console.log('tick from immediate'));
  });
  Promise.resolve().then(() => console.log('promise'));
  process.nextTick(() => console.log('tick'));
  const s = Date.now(); while (Date.now() - s < 5) {}
});
// SPDX-License-Identifier: MIT
