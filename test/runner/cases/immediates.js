// Immediates of one check pass; one queued during the pass waits for the
// next pass.
setImmediate(() => {
  console.log('i1');
  Promise.resolve().then(() => console.log('p1'));
  process.nextTick(() => console.log('n1'));
});
setImmediate(() => { console.log('i2'); Promise.resolve().then(() => console.log('p2')); });
setImmediate(() => { console.log('i3'); setImmediate(() => console.log('i4 (next pass)')); });
// SPDX-License-Identifier: MIT
