// oracle: node10 node11 node
// Once 'exit' has been emitted, process.nextTick does nothing; the drain
// after the emit still runs the promise jobs and reports a rejection left
// unhandled to the 'unhandledRejection' listener, whose own promise jobs
// run too. (Found by tools/fuzz-oracle.)
process.on('exit', (code) => {
  console.log('exit', code, 'process._exiting:', process._exiting);
  process.nextTick(() => console.log('never: a tick queued in exit'));
  Promise.resolve().then(() => {
    console.log('promise job queued in exit');
    Promise.reject(new Error('rejected in exit'));
  });
});
process.on('unhandledRejection', (e) => {
  console.log('unhandledRejection:', e.message);
  process.nextTick(() => console.log('never: a tick queued by the listener'));
  Promise.resolve().then(() => console.log('promise job of the listener'));
});
process.nextTick(() => console.log('tick before the end'));
// SPDX-License-Identifier: MIT
