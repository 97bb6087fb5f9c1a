// oracle: browser
// A timer created by a microtask that runs after a timer's callback has
// that timer's nesting level + 1, as one created by the callback itself:
// the 4 ms clamp starts at the same depth (the sixth nested timer) when
// each timer is armed directly, from a promise reaction, or from a
// reaction queued by a queueMicrotask callback. Each chain starts from a
// MessageChannel task (level 0). 'C': a gap of 3.5 ms or more.
function chain(label, mode, done) {
  let level = 0;
  const gaps = [];
  let last;
  function step() {
    const now = performance.now();
    gaps.push(now - last >= 3.5 ? 'C' : '.');
    level++;
    if (level === 9) { console.log(label, gaps.join('')); done(); return; }
    const arm = () => { last = performance.now(); setTimeout(step, 0); };
    if (mode === 0) arm();
    else if (mode === 1) Promise.resolve().then(arm);
    else if (mode === 2) queueMicrotask(() => Promise.resolve().then(arm));
  }
  const ch = new MessageChannel();
  ch.port1.onmessage = () => { last = performance.now(); setTimeout(step, 0); };
  ch.port2.postMessage(0);
}
chain('direct', 0, () => chain('microtask', 1, () => chain('nested microtask', 2, () => console.log('END'))));
