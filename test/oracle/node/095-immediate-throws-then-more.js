// oracle: node10 node11 node
// An immediate throws (an 'uncaughtException' listener takes the error)
// and another of the same pass follows: Node runs the rest of the pass
// anew, the next immediate without a drain before it, and drains when
// that pass ends -- also in Node 10, whose pass no longer failed.
process.on('uncaughtException', (e) => console.log('uncaughtException:', e.message));
setTimeout(() => {
  setImmediate(() => {
    console.log('immediate A');
    process.nextTick(() => console.log('tick from A'));
    Promise.resolve().then(() => console.log('promise job from A'));
    setImmediate(() => console.log('immediate C, of the next pass'));
    throw new Error('from A');
  });
  setImmediate(() => {
    console.log('immediate B');
    process.nextTick(() => console.log('tick from B'));
    const t = Date.now() + 3;
    while (Date.now() < t);
  });
  setTimeout(() => console.log('timeout'), 0);
}, 5);
// SPDX-License-Identifier: MIT
