// Rejections handled before the microtask checkpoint ends are not reported.
const p = Promise.reject(new Error('x'));
p.catch((e) => console.log('caught sync', e.message));
const q = Promise.reject(new Error('y'));
queueMicrotask(() => q.catch((e) => console.log('caught in a microtask', e.message)));
setTimeout(() => {
  const r = Promise.reject(42);
  Promise.resolve().then(() => r.catch((v) => console.log('caught in a timer checkpoint', v)));
}, 1);
// SPDX-License-Identifier: MIT
