// oracle: node10 node11 node
// Node 10's timeouts that are not in a list. (Found by tools/fuzz-oracle:
// node10 seeds 22179, 23780.)
const W = new Int32Array(new SharedArrayBuffer(4));
const busy = (ms) => Atomics.wait(W, 0, 0, ms);

// 1. A timeout unreferenced before it fires has a core timer of its own
// in Node 10, closed once it has run: refresh() does nothing after that.
// Node 11 and later start it again.
const t = setTimeout(() => console.log('unreferenced timeout runs'), 1);
t.unref();
setTimeout(() => {
  t.refresh();
  console.log('refreshed it');
  setTimeout(second, 300);
}, 100);

// 2. unref() of a timeout that has run reads the clock in Node 10
// (TimerWrap.now() updates the loop's time) before it finds nothing to
// do: a timeout that came due meanwhile runs in the same timers pass,
// before the waiting immediate.
function second() {
  const a = setTimeout(() => {
    console.log('timeout a');
    process.nextTick(() => {
      console.log('tick');
      a.unref();
    });
    setTimeout(() => console.log('timeout b'), 0);
    setImmediate(() => console.log('immediate'));
    busy(3);
  }, 150);
}
// SPDX-License-Identifier: MIT
