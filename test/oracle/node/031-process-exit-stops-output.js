// oracle: node10 node11 node
// process.exit() inside a timer ends the process at once: queued ticks,
// promises, immediates and later timers never run.
setTimeout(() => {
  console.log('first timer exits');
  process.nextTick(() => console.log('tick (must not run)'));
  Promise.resolve().then(() => console.log('promise (must not run)'));
  setImmediate(() => console.log('immediate (must not run)'));
  process.exit();
  console.log('after exit (must not run)');
}, 5);
setTimeout(() => console.log('second timer (must not run)'), 5);
setTimeout(() => console.log('later timer (must not run)'), 50);
const s = Date.now(); while (Date.now() - s < 15) {}
// SPDX-License-Identifier: MIT
