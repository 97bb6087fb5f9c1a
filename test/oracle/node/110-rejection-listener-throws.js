// oracle: node10 node11 node
// An 'unhandledRejection' listener that throws (an 'uncaughtException'
// listener takes the error): the exception leaves Node's report of
// rejections. Node 10 and 11 report the rejections after it at the next
// drain (after the immediate the listener queued); Node 20 had taken the
// whole batch first and never reports the rest of it. Found by the
// generator (node seed 5348).
'use strict';
const L = (s) => console.log(s);
process.on('uncaughtException', (e) => L('uncaughtException ' + e.message));
process.on('unhandledRejection', (e) => {
  L('unhandledRejection ' + e.message);
  if (e.message === 'r1') {
    setImmediate(() => L('immediate from the listener'));
    throw new Error('from the listener');
  }
});
setTimeout(() => {
  process.nextTick(() => {
    L('tick');
    Promise.reject(new Error('r1'));
    Promise.reject(new Error('r2'));
    Promise.reject(new Error('r3'));
  });
}, 1);
setTimeout(() => {
  L('later');
  Promise.reject(new Error('r4'));
}, 100);
// SPDX-License-Identifier: MIT
