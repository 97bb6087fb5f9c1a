// oracle: node10 node11 node
// The last immediate of a check pass throws; the 'uncaughtException'
// listener queues another immediate, a nextTick and promise jobs. Node 11
// and later call the pass again, since it did not end normally: it takes
// the immediates queued since, in the same check phase, and drains after
// them -- all before the due timeout. Node 10 leaves the new immediate for
// the next check phase, and its ticks for the timeout. (Found by
// tools/fuzz-oracle, node seed 3514.)
process.on('uncaughtException', (e) => {
  console.log('uncaughtException:', e.message);
  setImmediate(() => console.log('immediate queued by the listener'));
  Promise.resolve().then(() => console.log('job 1')).then(() => console.log('job 2'));
  process.nextTick(() => console.log('tick of the listener'));
});
setTimeout(() => {
  setImmediate(() => {
    console.log('immediate A');
    const t = Date.now() + 3;
    while (Date.now() < t);
    throw new Error('from A');
  });
  setTimeout(() => console.log('timeout'), 0);
}, 5);
// SPDX-License-Identifier: MIT
