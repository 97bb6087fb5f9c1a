// oracle: node10 node11 node
// Timers created from ticks and promise jobs of the main module keep their
// creation order inside one list; due timers come before immediates. The
// busy-wait is the last promise job, so every timer is due when it ends.
process.nextTick(() => setTimeout(() => console.log('timer from tick'), 2));
Promise.resolve().then(() => setTimeout(() => console.log('timer from promise'), 2));
setTimeout(() => console.log('timer from main'), 2);
process.nextTick(() => setImmediate(() => console.log('immediate from tick')));
Promise.resolve().then(() => {
  const s = Date.now(); while (Date.now() - s < 10) {}
});
// SPDX-License-Identifier: MIT
