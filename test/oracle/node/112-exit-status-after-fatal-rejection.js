// oracle: node10 node11 node
// The exit status after an unhandled rejection: Node 20 treats it as an
// uncaught exception, which sets process.exitCode to 1 and emits 'exit';
// the process then ends with process.exitCode as the 'exit' listeners left
// it (Node 10 and 11 only warn, and end with it too). A rejection in an
// 'exit' listener is still reported, but the status stays the listener's.
// (Found by tools/fuzz-oracle: node seeds 20718, 21791.)
process.on('exit', (code) => {
  console.log('exit', code, process.exitCode);
  process.exitCode = 5;
  Promise.reject(new Error('in the exit listener'));
});
Promise.resolve().then(() => {
  console.log('a promise job');
  Promise.reject(new Error('unhandled'));
});
// SPDX-License-Identifier: MIT
