// oracle: node10 node11 node
// process.exit(4) from a timer, an 'exit' listener that throws, and an
// 'uncaughtException' listener that takes the error: process.exit() does
// not end the process (the exception left it), the loop goes on, and at
// its end 'exit' is emitted again -- the listener throws again, is caught
// again -- and the status is 4. (Found by tools/fuzz-oracle.)
let n = 0;
process.on('uncaughtException', (e) => console.log('caught:', e.message));
process.on('exit', (code) => {
  console.log('exit', code, 'emitted', ++n);
  throw new Error('exit listener ' + n);
});
setTimeout(() => {
  console.log('timer 1');
  process.exit(4);
  console.log('never: the exception left process.exit');
}, 1);
setTimeout(() => console.log('timer 2: the loop went on'), 20);
// SPDX-License-Identifier: MIT
