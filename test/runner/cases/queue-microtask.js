// queueMicrotask exists from Node 11 on; its jobs share the promise queue.
console.log(typeof queueMicrotask);
queueMicrotask(() => console.log('microtask'));
Promise.resolve().then(() => console.log('promise'));
// SPDX-License-Identifier: MIT
