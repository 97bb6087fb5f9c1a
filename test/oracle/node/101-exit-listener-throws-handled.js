// oracle: node10 node11 node
// At the normal end, an 'exit' listener throws and an 'uncaughtException'
// listener takes the error: the emit failed, so no drain follows -- the
// promise jobs the listeners queued never run. (Found by
// tools/fuzz-oracle, node11 seed 1353.)
process.on('exit', (code) => {
  console.log('exit', code);
  Promise.resolve().then(() => console.log('never: a job of the exit listener'));
  throw new Error('from the exit listener');
});
process.on('uncaughtException', (e) => {
  console.log('uncaughtException:', e.message);
  Promise.resolve().then(() => console.log('never: a job of the uncaughtException listener'));
});
console.log('main');
// SPDX-License-Identifier: MIT
