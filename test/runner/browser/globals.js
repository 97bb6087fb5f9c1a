// window, self, queueMicrotask and performance.now(); no Node globals.
console.log('window', window === globalThis, self === window);
console.log('node', typeof process, typeof setImmediate, typeof require);
console.log('queueMicrotask', typeof queueMicrotask);
const a = performance.now();
let x = 0;
for (let i = 0; i < 2e6; i++) x += i;
const b = performance.now();
console.log('now', typeof a, a >= 0, b > a);
// SPDX-License-Identifier: MIT
