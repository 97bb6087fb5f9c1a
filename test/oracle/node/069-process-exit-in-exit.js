// oracle: node10 node11 node
// process.exit(code) emits 'exit' with that code; process.exit() called
// again by an 'exit' listener ends the process at once with its own code:
// the later 'exit' listeners never run.
process.on('exit', (code) => {
  console.log('exit', code);
  process.exit(9);
});
process.on('exit', (code) => console.log('never: second listener', code));
setTimeout(() => console.log('never: timer'), 0);
console.log('main');
process.exit(2);
// SPDX-License-Identifier: MIT
