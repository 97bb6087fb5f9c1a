// oracle: node10 node11 node
// A file callback throws and an 'uncaughtException' listener takes the
// error; an immediate waits. Node 10 and 11 leave the ticks and promise
// jobs for the next callback (the immediate's pass drains them after it);
// Node 20 drains them in the check phase before any immediate (its native
// immediates run first, in a scope that drains). (Found by
// tools/fuzz-oracle, node10 seed 2074 and node11 seed 1221, in node mode.)
const fs = require('fs');
process.on('uncaughtException', (e) => {
  console.log('uncaughtException:', e.message);
  Promise.resolve().then(() => console.log('promise job of the listener'));
  process.nextTick(() => console.log('tick of the listener'));
});
setTimeout(() => {
  setImmediate(() => console.log('immediate'));
  fs.stat('missing', () => {
    console.log('file callback');
    process.nextTick(() => console.log('tick of the file callback'));
    Promise.resolve().then(() => console.log('promise job of the file callback'));
    throw new Error('from the file callback');
  });
  const t = Date.now() + 40;  // time for the stat on a loaded machine too
  while (Date.now() < t);
}, 5);
// SPDX-License-Identifier: MIT
