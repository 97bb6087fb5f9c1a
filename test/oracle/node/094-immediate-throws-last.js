// oracle: node10 node11 node
// The last immediate of a check pass throws, and an 'uncaughtException'
// listener takes the error. Node 10's native callback for the pass failed
// and does not drain: the nextTick and the promise job the immediate
// queued wait for the next callback, the timeout. Node 11 and later drain
// after the pass all the same. (Found by tools/fuzz-oracle, seed 1050 of
// node10.)
process.on('uncaughtException', (e) => console.log('uncaughtException:', e.message));
setTimeout(() => {
  setImmediate(() => {
    console.log('immediate A');
    process.nextTick(() => console.log('tick from A'));
    Promise.resolve().then(() => console.log('promise job from A'));
    const t = Date.now() + 3;
    while (Date.now() < t);
    throw new Error('from A');
  });
  setTimeout(() => console.log('timeout'), 0);
}, 5);
// SPDX-License-Identifier: MIT
