// oracle: node10 node11 node
// clearImmediate on an immediate of the same pass stops it; clearing one that
// already ran, or clearing null, does nothing.
let second = null;
const first = setImmediate(() => {
  console.log('first clears second');
  clearImmediate(second);
  clearImmediate(first);
  clearImmediate(null);
});
second = setImmediate(() => console.log('second (must not run)'));
setImmediate(() => console.log('third'));
// SPDX-License-Identifier: MIT
