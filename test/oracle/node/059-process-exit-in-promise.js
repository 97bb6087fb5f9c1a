// oracle: node10 node11 node
// process.exit() from a promise job: pending jobs, ticks and timers are
// dropped; process.exitCode set before is the status.
process.exitCode = 4;
Promise.resolve().then(() => {
  console.log('job 1 exits');
  process.nextTick(() => console.log('tick (must not run)'));
  process.exit();
});
Promise.resolve().then(() => console.log('job 2 (must not run)'));
setImmediate(() => console.log('immediate (must not run)'));
console.log('main');
// SPDX-License-Identifier: MIT
