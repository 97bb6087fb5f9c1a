// oracle: node10 node11 node
// When a setInterval comes again after a callback that ran long: Node 12+
// counts the interval from the callback's start (a callback longer than
// the interval is followed by the next run at once); Node 11 from its end;
// Node 10 from the start for a referenced interval, from the end for an
// unreferenced one (it has a core timer of its own). Each gap between two
// runs is classified with a wide margin (the machine may be loaded).
function spin(ms) {
  const end = Date.now() + ms;
  while (Date.now() < end);
}
// interval 40 ms; a callback of `cb` ms: from the start the gap is about
// max(40, cb), from the end about 40 + cb.
function probe(name, unref, cb, done) {
  const starts = [];
  const t = setInterval(() => {
    starts.push(Date.now());
    spin(cb);
    if (starts.length === 3) {
      clearInterval(t);
      const fromStart = Math.max(40, cb);
      const fromEnd = 40 + cb;
      const kinds = starts.slice(1).map((s, i) => {
        const gap = s - starts[i];
        return gap < (fromStart + fromEnd) / 2 ? 'from the start' : 'from the end';
      });
      console.log(name + ':', kinds.join(', '));
      done();
    }
  }, 40);
  if (unref) t.unref();
}
const keepAlive = setTimeout(() => {}, 60000);
const probes = [['unref, long callback', true, 60], ['ref, long callback', false, 60],
  ['unref, short callback', true, 25], ['ref, short callback', false, 25]];
(function next() {
  const p = probes.shift();
  if (!p) return clearTimeout(keepAlive);
  probe(p[0], p[1], p[2], next);
})();
