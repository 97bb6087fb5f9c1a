// oracle: node10 node11 node
// process is an EventEmitter. 'beforeExit' comes each time the loop runs
// out of work, with process.exitCode (or 0); work its listeners schedule
// runs, and 'beforeExit' comes again. Then 'exit', once, with the code;
// timers and ticks scheduled in 'exit' never run, and the status is
// process.exitCode as the 'exit' listeners left it.
const EventEmitter = require('events');
console.log('process is an EventEmitter:', process instanceof EventEmitter,
  typeof process.on, typeof process.emit);
let rounds = 0;
process.on('beforeExit', (code) => {
  console.log('beforeExit', code, process.exitCode);
  if (rounds++ < 2) {
    setTimeout(() => console.log('timer from beforeExit', rounds), 1);
    process.nextTick(() => console.log('tick from beforeExit', rounds));
  } else {
    process.exitCode = 3;
  }
});
process.on('exit', (code) => {
  console.log('exit', code, process.exitCode);
  setTimeout(() => console.log('never: timer from exit'), 0);
  process.nextTick(() => console.log('never: tick from exit'));
  process.exitCode = 5;
});
process.once('exit', function (code) {
  console.log('second exit listener', code, this === process);
});
setTimeout(() => console.log('timer'), 1);
console.log('listeners:', process.listenerCount('exit'), process.listeners('beforeExit').length);
// SPDX-License-Identifier: MIT
