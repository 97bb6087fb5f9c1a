// oracle: node10 node11 node
// An immediate queued from an immediate waits for the next check phase, so
// the immediates already queued run first.
setImmediate(() => {
  console.log('I1');
  setImmediate(() => {
    console.log('I1 -> I3');
    setImmediate(() => console.log('I3 -> I5'));
  });
});
setImmediate(() => {
  console.log('I2');
  setImmediate(() => console.log('I2 -> I4'));
});
console.log('main');
// SPDX-License-Identifier: MIT
