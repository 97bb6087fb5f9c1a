// A chain of promise reactions, each queued by the one before, timed on
// its own: for comparing JavaScript engines (bench/engine-promises.sh),
// so it runs in Node, in `phaseloop run` and in SpiderMonkey's own shell
// (js102), which has no console. Prints "RESULT promises_chain <rate> ops/s"
// for the second of two passes (the first warms the engine up).
// This file must not contain the keyword of awaiting functions, not even
// inside a longer word: node mode turns SpiderMonkey's stack capture on
// for scripts whose text has it (src/js/node/engine.cpp), and this script
// measures the mode without it.
'use strict';

const N = 1000000;
const out = typeof console !== 'undefined' ? (s) => console.log(s) : (s) => print(s);
// Node 10 and 11 (and phaseloop's node10/node11 modes) have no global
// performance.
const clock = typeof performance !== 'undefined' ? () => performance.now() : () => Date.now();

function pass(report, done) {
  let left = N;
  const t0 = clock();
  const f = () => {
    if (--left === 0) {
      if (report) out(`RESULT promises_chain ${Math.round(N / ((clock() - t0) / 1000))} ops/s`);
      if (done) done();
      return;
    }
    Promise.resolve().then(f);
  };
  Promise.resolve().then(f);
}

pass(false, () => pass(true, null));
// SPDX-License-Identifier: MIT
