// oracle: node10 node11 node
// A file callback throws and an 'uncaughtException' listener takes the
// error: the native callback failed, so no drain follows it; the tick
// left waiting by an earlier exception runs only after the next file
// callback of the same poll phase. (Found by tools/fuzz-oracle, node10
// seed 1095.)
const fs = require('fs');
const settle = () => { const t = Date.now() + 40; while (Date.now() < t); };  // long enough on a loaded machine
process.on('uncaughtException', (e) => console.log('uncaughtException:', e.message));
fs.stat('missing-1', (err) => {
  console.log('first callback:', err.code);
  process.nextTick(() => console.log('tick queued by the first callback'));
  throw new Error('from the first callback');
});
settle();
fs.stat('missing-2', (err) => console.log('second callback:', err.code));
settle();
process.nextTick(() => {
  console.log('tick 1');
  throw new Error('from tick 1');
});
process.nextTick(() => console.log('tick 2'));
// SPDX-License-Identifier: MIT
