// oracle: node10 node11 node
// An exception nobody handles: 'exit' is emitted with 1 (process.exitCode
// becomes 1 too) and the status is 1, whatever exitCode was before.
process.on('exit', (code) => console.log('exit', code, process.exitCode));
process.exitCode = 4;
setTimeout(() => {
  console.log('timer');
  throw new Error('boom');
}, 1);
setTimeout(() => console.log('never: later timer'), 20);
// SPDX-License-Identifier: MIT
