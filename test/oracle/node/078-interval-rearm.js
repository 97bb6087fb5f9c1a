// oracle: node10 node11 node
// When a setInterval comes again after a callback that ran long: Node 12+
// counts the interval from the callback's start (a callback longer than
// the interval is followed by the next run at once); Node 11 from its end;
// Node 10 from the start for a referenced interval, from the end for an
// unreferenced one (it has a core timer of its own). Gaps are classified
// with wide margins and by majority (the machine may be loaded).
function spin(ms) {
  const end = Date.now() + ms;
  while (Date.now() < end);
}
// An interval of 300 ms and a callback of `cb` ms: counted from the start
// the gap is about max(300, cb), from the end about 300 + cb. The line
// between them is 100 ms or more from either (a loaded machine that held
// the process for 50 ms twice made a 100 ms interval's answer flip). Each
// probe reports what most of its three gaps show.
function probe(name, unref, cb, done) {
  const starts = [];
  const t = setInterval(() => {
    starts.push(Date.now());
    spin(cb);
    if (starts.length === 4) {
      clearInterval(t);
      const fromStart = Math.max(300, cb);
      const fromEnd = 300 + cb;
      const ends = starts.slice(1).filter((s, i) => s - starts[i] >= (fromStart + fromEnd) / 2).length;
      console.log(name + ':', ends >= 2 ? 'from the end' : 'from the start');
      done();
    }
  }, 300);
  if (unref) t.unref();
}
const keepAlive = setTimeout(() => {}, 60000);
const probes = [['unref, long callback', true, 500], ['ref, long callback', false, 500],
  ['unref, short callback', true, 200], ['ref, short callback', false, 200]];
(function next() {
  const p = probes.shift();
  if (!p) return clearTimeout(keepAlive);
  probe(p[0], p[1], p[2], next);
})();
// SPDX-License-Identifier: MIT
