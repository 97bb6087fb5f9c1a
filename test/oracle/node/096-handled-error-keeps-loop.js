// oracle: node10 node11 node
// After an error an 'uncaughtException' listener took, Node queues an
// immediate that does nothing, so that the ticks left waiting get
// processed: the loop goes round once more, and a 'beforeExit' listener
// that threw is called again. (Found by tools/fuzz-oracle, node10 seed
// 1689.)
let n = 0;
process.on('beforeExit', (code) => {
  console.log('beforeExit', code, ++n);
  if (n > 1) return;
  process.nextTick(() => console.log('tick queued by beforeExit'));
  throw new Error('thrown by beforeExit');
});
process.on('uncaughtException', (e) => console.log('uncaughtException:', e.message));
process.on('exit', (code) => console.log('exit', code));
console.log('main');
// SPDX-License-Identifier: MIT
