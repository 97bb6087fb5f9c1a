// oracle: node10 node11 node
// process.on('unhandledRejection') gets each rejection without a handler
// (reason, promise) after the ticks and microtasks of the callback that
// rejected it; 'rejectionHandled' comes when one of those gets a handler
// later, at the next processing of rejections. With a listener, no
// warning is emitted (no 'warning' event), in every version.
const names = new Map();
process.on('unhandledRejection', (reason, promise) => {
  console.log('unhandledRejection', reason instanceof Error ? reason.message : reason, names.get(promise));
});
process.on('rejectionHandled', (promise) => console.log('rejectionHandled', names.get(promise)));
process.on('warning', (w) => console.log('warning', w.name));
const a = Promise.reject(new Error('a'));
names.set(a, 'a');
const b = Promise.reject('b');
names.set(b, 'b');
const c = Promise.reject(3);
names.set(c, 'c');
c.catch(() => console.log('c handled in time'));
process.nextTick(() => console.log('tick'));
Promise.resolve().then(() => console.log('microtask'));
setTimeout(() => {
  console.log('timer');
  a.catch(() => console.log('a handled late'));
  process.nextTick(() => console.log('tick after the late handler'));
}, 5);
setTimeout(() => {
  const d = Promise.reject(new Error('d'));
  names.set(d, 'd');
  console.log('timer 2');
}, 10);
// SPDX-License-Identifier: MIT
