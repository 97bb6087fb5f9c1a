// oracle: node10 node11 node
// A nextTick queued by immediate A clears immediate B of the same pass.
// Node 10: B already ran when the tick comes. Node 11+: B is cancelled.
let b = null;
setImmediate(() => {
  console.log('A');
  process.nextTick(() => {
    console.log('tick clears B');
    clearImmediate(b);
  });
});
b = setImmediate(() => console.log('B (Node 10 only)'));
setImmediate(() => console.log('C'));
// SPDX-License-Identifier: MIT
