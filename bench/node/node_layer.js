// The Node-layer benchmark's workloads, for real Node (and for
// `phaseloop run`): the same work bench/node_layer.cpp gives phaseloop's C++
// Node layer. Prints "RESULT <name> <rate> <unit>" lines, rates in
// operations per second (higher is better).
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
  (next) => {
    let left = N_TICKS;
    const t0 = clock();
    const f = () => { if (--left === 0) { report('ticks', N_TICKS, t0); setImmediate(next); } };
    for (let i = 0; i < N_TICKS; i++) process.nextTick(f);
  },
  // 1M microtasks queued from one callback, then drained.
  (next) => {
    let left = N_MICRO;
    const t0 = clock();
    const f = () => { if (--left === 0) { report('microtasks', N_MICRO, t0); setImmediate(next); } };
    for (let i = 0; i < N_MICRO; i++) queueMicrotask(f);
  },
  // 1M promise reactions, each queued by the one before.
  (next) => {
    let left = N_CHAIN;
    const t0 = clock();
    const f = () => {
      if (--left === 0) { report('promises_chain', N_CHAIN, t0); setImmediate(next); return; }
      Promise.resolve().then(f);
    };
    Promise.resolve().then(f);
  },
  // 1M immediates queued at once: one check pass runs them all.
  (next) => {
    let left = N_IMM;
    const t0 = clock();
    const f = () => { if (--left === 0) { report('immediates_batch', N_IMM, t0); setImmediate(next); } };
    for (let i = 0; i < N_IMM; i++) setImmediate(f);
  },
  // 1M immediates, each queueing the next: one loop iteration apiece.
  (next) => {
    let left = N_IMM;
    const t0 = clock();
    const f = () => {
      if (--left === 0) { report('immediates_chain', N_IMM, t0); setImmediate(next); return; }
      setImmediate(f);
    };
    setImmediate(f);
  },
  // 1M timers over 100 distinct delays (1..100 ms). Starting them is
  // timed on its own; then the script waits until all are due, so that
  // running them is timed without the waiting.
  (next) => {
    let left = N_TIMERS;
    let t0 = clock();
    const f = () => { if (--left === 0) { report('timers_fire', N_TIMERS, t0); setImmediate(next); } };
    for (let i = 0; i < N_TIMERS; i++) setTimeout(f, 1 + (i % 100));
    report('timers_start', N_TIMERS, t0);
    while (clock() - t0 < 120) {}
    t0 = clock();
  },
];

let stage = 0;
function next() {
  if (stage === stages.length && !warm) {
    warm = true;
    stage = 0;
  }
  if (stage < stages.length) stages[stage++](next);
}
next();
