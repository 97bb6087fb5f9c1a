// oracle: node10 node11 node
// An exception thrown by a nextTick queued from a timeout, and handled by an
// 'uncaughtException' listener: Node 10's timer wrap calls its list's
// processing again, with a fresh now, so the timeout that refreshed itself
// runs again before the poll and check phases (an immediate, a file
// callback). (Found by tools/fuzz-oracle: node10 seed 34530.)
const W = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms) => Atomics.wait(W, 0, 0, ms);
const fs = require('fs');
let runs = 0;
process.on('uncaughtException', (e) => console.log('uncaughtException ' + e.message));
setImmediate(() => {
  console.log('immediate');
  const t = setTimeout(() => {
    runs++;
    console.log('timeout run ' + runs);
    process.nextTick(() => {
      console.log('tick of run ' + runs);
      throw new Error('from the tick of run ' + runs);
    });
    fs.stat(__filename, (e) => console.log('stat callback ' + (e ? e.code : 'ok')));
    setImmediate(() => console.log('immediate of run ' + runs));
    sleep(5);
    if (runs === 1) t.refresh();
    sleep(40);  // time for the stat on a loaded machine too
  }, 1);
});
// SPDX-License-Identifier: MIT
