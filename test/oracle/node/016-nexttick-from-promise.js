// oracle: node10 node11 node
// A nextTick queued by a promise job waits until the microtask queue is empty,
// including jobs queued after it; then ticks run again, then microtasks.
Promise.resolve().then(() => {
  console.log('p1 queues a tick and p3');
  process.nextTick(() => {
    console.log('tick from p1');
    Promise.resolve().then(() => console.log('p4 from tick'));
  });
  Promise.resolve().then(() => console.log('p3'));
});
Promise.resolve().then(() => console.log('p2'));
// SPDX-License-Identifier: MIT
