// oracle: node11 node
// queueMicrotask and nextTick inside immediates: drained after each immediate,
// ticks first.
for (const id of ['x', 'y']) {
  setImmediate(() => {
    console.log('immediate', id);
    queueMicrotask(() => console.log('microtask', id));
    process.nextTick(() => console.log('tick', id));
  });
}
// SPDX-License-Identifier: MIT
