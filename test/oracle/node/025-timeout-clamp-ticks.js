// oracle: node10 node11 node
// The same clamped timers queue a nextTick each. Node 10 runs them all (one
// list, one native callback) before the ticks; Node 11+ interleaves.
const delays = [1, 0, -5, NaN, undefined];
for (const d of delays) {
  setTimeout(() => {
    console.log('timer', String(d));
    process.nextTick(() => console.log('  tick', String(d)));
  }, d);
}
const s = Date.now(); while (Date.now() - s < 15) {}
// SPDX-License-Identifier: MIT
