// oracle: node10 node11 node
// At the normal end of the process, what an 'exit' listener queues: its
// promise jobs (and queueMicrotask callbacks) run as the emit returns, and
// the microtasks they queue; its nextTicks, immediates, timers and file
// operations never do. (Found by tools/fuzz-oracle.)
process.on('exit', (code) => {
  console.log('exit', code);
  process.nextTick(() => console.log('tick queued in exit'));
  Promise.resolve().then(() => {
    console.log('promise job queued in exit');
    process.nextTick(() => console.log('tick queued by that job'));
    Promise.resolve().then(() => console.log('promise job queued by that job'));
  });
  if (typeof queueMicrotask === 'function') queueMicrotask(() => console.log('queueMicrotask in exit'));
  setImmediate(() => console.log('immediate set in exit'));
  setTimeout(() => console.log('timer set in exit'), 0);
  require('fs').stat('.', () => console.log('fs callback set in exit'));
  (async () => {
    await null;
    console.log('async function resumed after exit');
  })();
});
process.on('exit', () => console.log('second exit listener'));
setTimeout(() => console.log('last timer'), 5);
// SPDX-License-Identifier: MIT
