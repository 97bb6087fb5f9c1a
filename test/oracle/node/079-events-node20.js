// oracle: node
// Node 20's EventEmitter extras: errorMonitor sees an error before its
// listeners; captureRejections turns a rejected async listener into an
// error event, or a call of [captureRejectionSymbol](err, name, ...args);
// getEventListeners of an EventEmitter and an EventTarget; EventEmitter.on
// as an async iterator; EventEmitter.once rejected by an AbortSignal.
const EventEmitter = require('events');
const { errorMonitor, captureRejectionSymbol, getEventListeners } = EventEmitter;
const e = new EventEmitter();
e.on(errorMonitor, (err) => console.log('monitor saw', err.message));
e.on('error', (err) => console.log('error listener', err.message));
e.emit('error', new Error('one'));
const c = new EventEmitter({ captureRejections: true });
c.on('thing', async () => { throw new Error('async failure'); });
c.on('error', (err) => console.log('captured', err.message));
c.emit('thing');
const d = new EventEmitter({ captureRejections: true });
d[captureRejectionSymbol] = (err, name, ...args) => console.log('custom capture', err.message, name, args.join(','));
d.on('evt', async () => { throw new Error('x'); });
d.emit('evt', 1, 2);
const et = new EventTarget();
const l = () => {};
et.addEventListener('foo', l);
console.log(getEventListeners(et, 'foo').length, getEventListeners(e, 'error').length);
(async () => {
  const it = EventEmitter.on(e, 'data');
  setTimeout(() => { e.emit('data', 1); e.emit('data', 2); e.emit('data', 3); }, 1);
  let n = 0;
  for await (const [v] of it) { console.log('iterated', v); if (++n === 3) break; }
  const ac = new AbortController();
  const p = EventEmitter.once(e, 'never', { signal: ac.signal });
  ac.abort();
  await p.catch((err) => console.log('once aborted', err.name, err.code));
  console.log('listeners left', e.listenerCount('data'), e.listenerCount('never'));
})();
// SPDX-License-Identifier: MIT
