// oracle: node10 node11 node
// nextTick inside immediates, with a nested tick: Node 10 batches the ticks
// after the pass, Node 11+ runs them (and the nested one) after each immediate.
setImmediate(() => {
  console.log('immediate A');
  process.nextTick(() => {
    console.log('tick A');
    process.nextTick(() => console.log('tick A nested'));
  });
});
setImmediate(() => {
  console.log('immediate B');
  process.nextTick(() => console.log('tick B'));
});
// SPDX-License-Identifier: MIT
