// The Node-layer benchmark's workloads, for real Node (and for
// `phaseloop run`): the same work bench/node_layer.cpp gives phaseloop's C++
// Node layer. Prints "RESULT <name> <rate> <unit>" lines, rates in
// operations per second (higher is better). Names on the command line
// (`node node_layer.js immediates_batch`) run only those stages.
'use strict';

const N_TICKS = 1000000;
const N_MICRO = 1000000;
const N_IMM = 1000000;
const N_CHAIN = 1000000;
const N_TIMERS = 1000000;

const clock = typeof performance !== 'undefined' ? () => performance.now()
                                                 : () => Date.now();
// Every workload runs twice; only the second (warm) pass is reported, so
// that neither side is timed paging its memory in or compiling.
let warm = false;
function report(name, n, t0) {
  const s = (clock() - t0) / 1000;
  if (warm) console.log(`RESULT ${name} ${Math.round(n / s)} ops/s`);
}

const stages = [
  // 1M nextTicks queued from one callback, then drained.
  ['ticks', (next) => {
    let left = N_TICKS;
    const t0 = clock();
    const f = () => { if (--left === 0) { report('ticks', N_TICKS, t0); setImmediate(next); } };
    for (let i = 0; i < N_TICKS; i++) process.nextTick(f);
  }],
  // 1M microtasks queued from one callback, then drained.
  ['microtasks', (next) => {
    let left = N_MICRO;
    const t0 = clock();
    const f = () => { if (--left === 0) { report('microtasks', N_MICRO, t0); setImmediate(next); } };
    for (let i = 0; i < N_MICRO; i++) queueMicrotask(f);
  }],
  // 1M promise reactions, each queued by the one before.
  ['promises_chain', (next) => {
    let left = N_CHAIN;
    const t0 = clock();
    const f = () => {
      if (--left === 0) { report('promises_chain', N_CHAIN, t0); setImmediate(next); return; }
      Promise.resolve().then(f);
    };
    Promise.resolve().then(f);
  }],
  // 1M immediates queued at once: one check pass runs them all.
  ['immediates_batch', (next) => {
    let left = N_IMM;
    const t0 = clock();
    const f = () => { if (--left === 0) { report('immediates_batch', N_IMM, t0); setImmediate(next); } };
    for (let i = 0; i < N_IMM; i++) setImmediate(f);
  }],
  // 1M immediates, each queueing the next: one loop iteration apiece.
  ['immediates_chain', (next) => {
    let left = N_IMM;
    const t0 = clock();
    const f = () => {
      if (--left === 0) { report('immediates_chain', N_IMM, t0); setImmediate(next); return; }
      setImmediate(f);
    };
    setImmediate(f);
  }],
  // 1M timers over 100 distinct delays (1..100 ms). Starting them is
  // timed on its own; then the script waits until all are due, so that
  // running them is timed without the waiting.
  ['timers', (next) => {
    let left = N_TIMERS;
    let t0 = clock();
    const f = () => { if (--left === 0) { report('timers_fire', N_TIMERS, t0); setImmediate(next); } };
    for (let i = 0; i < N_TIMERS; i++) setTimeout(f, 1 + (i % 100));
    report('timers_start', N_TIMERS, t0);
    while (clock() - t0 < 120) {}
    t0 = clock();
  }],
];

// The stages named on the command line (all when none is named); a
// name no stage has is an error. Node puts the script at argv[1],
// `phaseloop run` too.
const wanted = process.argv.slice(2);
for (const w of wanted) {
  if (!stages.some(([name]) => name === w)) {
    console.error(`node_layer.js: no stage ${w} (stages: ${stages.map(([n]) => n).join(', ')})`);
    process.exit(2);
  }
}
const chosen = stages.filter(([name]) => wanted.length === 0 || wanted.includes(name));

let stage = 0;
function next() {
  if (stage === chosen.length && !warm) {
    warm = true;
    stage = 0;
  }
  if (stage < chosen.length) chosen[stage++][1](next);
}
next();
// SPDX-License-Identifier: MIT
