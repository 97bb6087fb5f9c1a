// oracle: node10 node11 node
// How many turns of the microtask queue an fs.promises function takes
// between its request's completion and the caller's reaction (each real
// Node wraps the request in an async function; src/js/lib/fs_promises.js).
// The main script throws (a listener takes it): Node 10 and 11 leave the
// promise jobs it queued for the first callback, the request's
// completion, so a chain of counting jobs queued before the call runs
// beside the reaction, which logs the count it sees (Node 20 drains them
// after the main script: the count is the chain's end). Found by the
// generator (node10 seed 20015). Here an awaited request
// (stat; readdir is shaped alike) that succeeds; 109 a returned one that
// fails.

'use strict';
const fs = require('fs');
const W = new Int32Array(new SharedArrayBuffer(4));
process.on('uncaughtException', (e) => {
  console.log('caught', e.message);
});
const [name, args] = ['stat', ['.']];  // an awaited request (readdir too)
let turn = 0;
const count = () => {
  turn++;
  if (turn < 12) Promise.resolve().then(count);
};
Promise.resolve().then(count);
fs.promises[name](...args).then(() => console.log(name, args[0], 'fulfilled at turn', turn),
  (e) => console.log(name, args[0], e.code, 'at turn', turn));
Atomics.wait(W, 0, 0, 30);
throw new Error('main');
// SPDX-License-Identifier: MIT
