// oracle: node10 node11 node
// An unhandled rejection: Node 10 and 11 only warn (stderr) and go on, exit 0;
// Node 15+ make it fatal once ticks and microtasks are drained, exit 1.
Promise.reject(new Error('nobody catches this'));
process.nextTick(() => console.log('tick'));
Promise.resolve().then(() => console.log('promise'));
setTimeout(() => console.log('timer (Node 10/11 only)'), 5);
console.log('main');
// SPDX-License-Identifier: MIT
