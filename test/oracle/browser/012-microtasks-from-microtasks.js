// oracle: browser
// Microtasks queued by microtasks run in the same checkpoint, before the next
// task: the checkpoint loops "while the event loop's microtask queue is not
// empty" (HTML 8.1.7.3 perform a microtask checkpoint). Promise reactions and
// queueMicrotask share the one FIFO microtask queue.
setTimeout(() => console.log('timeout'), 0);
queueMicrotask(() => {
  console.log('qm 1');
  queueMicrotask(() => {
    console.log('qm 1.1');
    Promise.resolve().then(() => console.log('promise 1.1.1'));
  });
  Promise.resolve().then(() => console.log('promise 1.2'));
});
Promise.resolve().then(() => {
  console.log('promise 2');
  queueMicrotask(() => console.log('qm 2.1'));
});
queueMicrotask(() => console.log('qm 3'));
console.log('script end');
setTimeout(() => console.log('END'), 0);
// SPDX-License-Identifier: MIT
