// oracle: node10 node11 node
// A nextTick throws during the drain after a timer, and the
// 'uncaughtException' listener queues a promise job; an immediate waits.
// The exception left the drain, so the rest waits: Node 20 drains in the
// check phase before the immediate (its native immediates' scope); Node 11
// runs the immediate first and drains after it; Node 10 drains the rest at
// once, its timer wrap calling its processing again. (Found by
// tools/fuzz-oracle, node seeds 4185 and 4313.)
const EventEmitter = require('events');
const e = new EventEmitter();
process.on('uncaughtException', (err) => {
  console.log('uncaughtException:', err.message);
  Promise.resolve().then(() => console.log('promise job of the listener'));
});
setTimeout(() => {
  console.log('timeout');
  Promise.resolve().then(() => {
    console.log('promise job of the timeout');
    process.nextTick(() => {
      console.log('tick');
      e.emit('error', new Error('emitted without a listener'));
    });
    setImmediate(() => console.log('immediate'));
  });
}, 5);
// SPDX-License-Identifier: MIT
