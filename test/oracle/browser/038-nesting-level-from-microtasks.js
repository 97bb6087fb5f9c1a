// oracle: browser
// A timer created by a microtask that runs after a timer's callback has
// that timer's nesting level + 1, as one created by the callback itself:
// the 4 ms clamp starts at the same depth (the sixth nested timer) when
// each timer is armed directly, from a promise reaction, or from a
// reaction queued by a queueMicrotask callback. Each chain starts from a
// MessageChannel task (level 0). 'C': a gap of 3.5 ms or more in each of
// three runs of the chain (a clamped timer always waits 4 ms; an unclamped
// one can be late once on a loaded machine, not three times in a row).
function once(mode, done) {
  let level = 0;
  const gaps = [];
  let last;
  function step() {
    const now = performance.now();
    gaps.push(now - last >= 3.5 ? 'C' : '.');
    level++;
    if (level === 9) { done(gaps); return; }
    const arm = () => { last = performance.now(); setTimeout(step, 0); };
    if (mode === 0) arm();
    else if (mode === 1) Promise.resolve().then(arm);
    else if (mode === 2) queueMicrotask(() => Promise.resolve().then(arm));
  }
  const ch = new MessageChannel();
  ch.port1.onmessage = () => { last = performance.now(); setTimeout(step, 0); };
  ch.port2.postMessage(0);
}
function chain(label, mode, done) {
  const runs = [];
  const next = (gaps) => {
    runs.push(gaps);
    if (runs.length < 3) { once(mode, next); return; }
    console.log(label, runs[0].map((g, i) => (runs.every((r) => r[i] === 'C') ? 'C' : '.')).join(''));
    done();
  };
  once(mode, next);
}
chain('direct', 0, () => chain('microtask', 1, () => chain('nested microtask', 2, () => console.log('END'))));
// SPDX-License-Identifier: MIT
