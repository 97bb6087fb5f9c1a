// oracle: node10 node11 node
// Promises resolved inside immediates: Node 10 runs the whole immediate queue
// before the microtasks, Node 11+ drains after each immediate.
for (const id of [1, 2, 3]) {
  setImmediate(() => {
    console.log('immediate', id);
    Promise.resolve(id).then((v) => console.log('promise', v));
  });
}
// SPDX-License-Identifier: MIT
