// oracle: node10 node11 node
// The main script throws, and an 'uncaughtException' listener takes the
// exception. Node 12+ drains the ticks and microtasks the script queued
// right after it; Node 10 and 11 drain after the main module at the end of
// Module.runMain, which the exception left before, so the queue waits for
// the first callback from the loop: after the whole first pass of
// immediates in Node 10, after the first immediate in Node 11.
process.on('uncaughtException', (e) => console.log('caught', e.message));
setImmediate(() => console.log('immediate1'));
setImmediate(() => console.log('immediate2'));
process.nextTick(() => console.log('tick1'));
Promise.resolve().then(() => console.log('promise1'));
console.log('main');
throw new Error('main throws');
// SPDX-License-Identifier: MIT
