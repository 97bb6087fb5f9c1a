// oracle: node10 node11 node
// An 'unhandledRejection' listener throws during the drain after an
// interval's callback (a rejection made by a catch handler that throws),
// and an 'uncaughtException' listener handles it: the next native callback
// (fs.promises.rename's completion, in the poll phase) drains as usual, so
// its reactions print before the listener's immediate. Node 10 mode kept
// the exception's mark and skipped that drain. (tools/fuzz-oracle: node10
// seed 35235, reduced.)
'use strict';
const L = (s) => console.log(s);
const W = new Int32Array(new SharedArrayBuffer(4));
const S = () => { Atomics.wait(W, 0, 0, 3); };
// done(p): wait until the rename's thread has made p, then a little more,
// so its completion is waiting when the poll phase comes on a loaded
// machine too (a 3 ms wait alone was not enough with both cores busy).
const done = (p) => {
  for (let i = 0; i < 10000; i++) {
    try { fs.accessSync(p); break; } catch (e) { Atomics.wait(W, 0, 0, 1); }
  }
  Atomics.wait(W, 0, 0, 20);
};
const H = {}, C = {}, F = {};

const fs = require('fs');
const R = (e, r) => e ? e.code : r === undefined ? 'ok' : typeof r === 'string' ? JSON.stringify(r) : Array.isArray(r) ? '[' + r.sort().join(',') + ']' : r.isFile ? (r.isFile() ? 'file ' + r.size : 'dir') : String(r);
process.on('uncaughtException', (e) => {
  L('uncaughtException 1 ' + (e && e.message));
  if (F[1]) return;
  F[1] = 1;
  H[2] = setImmediate(() => {
    L('immediate 2');
    S();
  });
});
process.on('unhandledRejection', (e) => {
  L('unhandledRejection 4 ' + (e && e.message));
  if (F[4]) return;
  F[4] = 1;
  throw new Error('x5');
});
process.nextTick(() => {
  L('tick 7');
  fs.unlink('f0', (e, r) => {
    L('fs 8 unlink ' + R(e, r));
    C[13] = 0;
    H[13] = setInterval(() => {
      const k = ++C[13];
      L('interval 13 #' + k);
      if (k >= 1) { clearInterval(H[13]); }
      if (k === 1) {
        Promise.reject(new Error('c14')).catch((e) => {
          L('catch 14 ' + e.message);
          fs.writeFileSync('f0', '');
          fs.promises.rename('f0', 'f1').then((r) => R(null, r), (e) => R(e)).then((v) => {
            L('fs_promise 15 rename ' + v);
          }); done('f1');
          throw new Error('x19');
        });
      }
      S();
    }, 50);
    S();
  }); S();
});
S();
// SPDX-License-Identifier: MIT
