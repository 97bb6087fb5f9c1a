// oracle: node10 node11 node
// A tick queued by an immediate queues another immediate. Node 10 runs the
// tick only after the whole pass; the new immediate always waits a pass.
setImmediate(() => {
  console.log('A');
  process.nextTick(() => {
    console.log('tick from A');
    setImmediate(() => console.log('C from the tick'));
  });
});
setImmediate(() => {
  console.log('B');
  setImmediate(() => console.log('D from B'));
});
// SPDX-License-Identifier: MIT
