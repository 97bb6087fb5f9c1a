// oracle: node10 node11 node
// An exception in an immediate is fatal; the following immediates, ticks and
// promises never run, and the exit status is 1.
setImmediate(() => console.log('immediate 1'));
setImmediate(() => {
  console.log('immediate 2 throws');
  process.nextTick(() => console.log('tick (must not run)'));
  throw new TypeError('boom in immediate');
});
setImmediate(() => console.log('immediate 3 (must not run)'));
// SPDX-License-Identifier: MIT
