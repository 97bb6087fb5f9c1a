// oracle: node10 node11 node
// An 'exit' listener that throws while the process ends normally, with
// process.exitCode set: the error is reported, the listeners after it do
// not run, and the status is process.exitCode (1 when it is not set).
// (Found by tools/fuzz-oracle.)
process.on('exit', (code) => {
  console.log('exit', code);
  throw new Error('thrown by an exit listener');
});
process.on('exit', () => console.log('never: the listener before threw'));
setTimeout(() => {
  console.log('timer');
  process.exitCode = 3;
}, 1);
// SPDX-License-Identifier: MIT
