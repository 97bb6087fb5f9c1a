// oracle: node10 node11 node
// require('timers') in every version; Node 15+'s require('timers/promises')
// (setTimeout/setImmediate as promises, setInterval as an async iterator,
// scheduler) with AbortController: an aborted wait rejects with an
// AbortError whose cause is the signal's reason; AbortSignal.abort() and
// AbortSignal.timeout() with their DOMExceptions; EventTarget with `once`;
// structuredClone and its DataCloneError. The globals each version has.
const timers = require('timers');
console.log(Object.keys(timers).sort().join(','), timers.setTimeout === setTimeout);
console.log(['AbortController', 'AbortSignal', 'EventTarget', 'Event', 'structuredClone',
  'DOMException', 'TextEncoder', 'TextDecoder'].map((n) => n + ':' + typeof globalThis_()[n]).join(' '));
function globalThis_() {
  return Function('return this')();
}
let threw = false;
try {
  require('timers/promises');
} catch (e) {
  threw = e.code;
}
console.log('timers/promises', threw || 'loaded');
if (typeof AbortController === 'function') {
  const tp = require('timers/promises');
  console.log(Object.keys(tp).sort().join(','), Object.keys(tp.scheduler), typeof tp.scheduler.wait,
    timers.promises === tp);
  const ac = new AbortController();
  tp.setTimeout(50, 'never', { signal: ac.signal }).then(console.log, (e) =>
    console.log('aborted wait:', e.name, e.code, e.message, e.cause && e.cause.name));
  setTimeout(() => ac.abort(), 1);
  // Which of these two comes first depends on how long the script runs
  // (20 ms may be gone before the first check phase), and on a stalled
  // machine the 30 ms wait may end before either: both are awaited, and
  // shown sorted.
  const early = [];
  const twenty = tp.setTimeout(20, 'twenty').then((v) => early.push('timeout value ' + v));
  const imm = tp.setImmediate('imm').then((v) => early.push('immediate value ' + v));
  (async () => {
    await tp.setTimeout(30);
    await Promise.all([twenty, imm]);
    console.log(early.sort().join('\n'));
    let n = 0;
    for await (const v of tp.setInterval(2, 'iv')) {
      console.log('interval', v, ++n);
      if (n === 3) break;
    }
    console.log('interval done');
    const s = AbortSignal.timeout(2);
    await new Promise((resolve) => s.addEventListener('abort', resolve));
    console.log('timeout signal', s.aborted, s.reason.name, s.reason.message, s.reason.code,
      s.reason instanceof DOMException);
    await tp.setTimeout(1, 'x', { signal: s }).catch((e) => console.log('already aborted:', e.name,
      e.cause === s.reason));
  })();
  const a2 = new AbortController();
  a2.signal.onabort = (ev) => console.log('onabort', ev.type, ev.isTrusted, ev.target === a2.signal);
  a2.signal.addEventListener('abort', () => console.log('abort listener'), { once: true });
  a2.abort('why');
  a2.abort('again');
  console.log(a2.signal.reason, a2.signal.aborted);
  try {
    a2.signal.throwIfAborted();
  } catch (e) {
    console.log('throwIfAborted', e);
  }
  const a3 = AbortSignal.abort();
  console.log(a3.aborted, a3.reason.name, a3.reason.message, String(a3.reason), a3.reason.code);
  console.log(structuredClone({ a: [1, new Map([[1, { b: 2 }]])], d: new Date(0), s: new Set(['x']) }));
  try {
    structuredClone({ f: () => {} });
  } catch (e) {
    console.log(e.name, e.message, e.code, e instanceof DOMException, e instanceof Error);
  }
  const et = new EventTarget();
  et.addEventListener('x', (e) => console.log('x once', e.type, e instanceof Event, e.isTrusted), { once: true });
  et.addEventListener('x', { handleEvent: (e) => console.log('handleEvent', e.type) });
  console.log(et.dispatchEvent(new Event('x')), et.dispatchEvent(new Event('x')));
  const cancelable = new Event('c', { cancelable: true });
  et.addEventListener('c', (e) => e.preventDefault());
  console.log('not prevented:', et.dispatchEvent(cancelable), cancelable.defaultPrevented);
  console.log(new DOMException('m', 'AbortError').code, String(new DOMException('m')),
    new DOMException('m', 'NotFoundError').code, DOMException.ABORT_ERR);
  const enc = new TextEncoder().encode('hé€😀');
  console.log(Array.from(enc).join(','), new TextDecoder().decode(enc));
}
// The 1 ms timer that aborts is due before the loop starts (immediates
// come after it).
const end = Date.now() + 5;
while (Date.now() < end);
// SPDX-License-Identifier: MIT
