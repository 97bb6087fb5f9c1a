// oracle: node10 node11 node
// require('events'): EventEmitter's shape and rules -- 'newListener'
// before a listener is added, once() wrappers (which listener
// 'removeListener' names changed in Node 12+), prepend, emit's arguments
// and `this`, the error event with and without listeners, argument
// errors, removeAllListeners' order, the static helpers per version.
const EE = require('events');
const e = new EE();
console.log(Object.keys(e), typeof EE.once, typeof EE.on, typeof EE.errorMonitor,
  typeof EE.captureRejections, typeof EE.getEventListeners, EE.defaultMaxListeners,
  EE.EventEmitter === EE, typeof EE.listenerCount);
console.log(Object.getOwnPropertyNames(EE.prototype).sort().join(','));
for (const v of ['x', { a: 1 }, undefined]) {
  try {
    e.emit('error', v);
  } catch (err) {
    console.log(err.name, err.code, JSON.stringify(err.message), err.context);
  }
}
try {
  e.emit('error', new RangeError('as it is'));
} catch (err) {
  console.log(err.name, err.message);
}
try {
  e.on('x', 5);
} catch (err) {
  console.log(err.name, err.code, JSON.stringify(err.message));
}
try {
  e.setMaxListeners(-1);
} catch (err) {
  console.log(err.name, err.code, JSON.stringify(err.message));
}
e.on('newListener', (n, l) => console.log('newListener', n, typeof l, l.name));
function f() {
  console.log('f', this === e, [...arguments]);
}
e.once('a', f);
e.prependListener('a', function g() {
  console.log('g');
});
e.on('removeListener', (n, l) => console.log('removeListener', n, l.name));
console.log(e.listeners('a').map((x) => x.name), e.rawListeners('a').map((x) => x.name),
  e.listenerCount('a'), e.eventNames());
console.log(e.emit('a', 1, 2), e.emit('zz'));
console.log(e.listenerCount('a'), e.eventNames());
e.on('error', (err) => console.log('error listener', err));
console.log(e.emit('error', 'handled'));
e.off('a', e.listeners('a')[0]);
e.removeAllListeners();
console.log(e.eventNames(), e.getMaxListeners());
console.log(e);
// A listener added during emit runs from the next emit; one removed
// during emit still runs this time.
const h = new EE();
function second() {
  console.log('second');
}
h.on('x', () => {
  console.log('first');
  h.on('x', () => console.log('added during emit'));
  h.removeListener('x', second);
});
h.on('x', second);
h.emit('x');
h.emit('x');
// Subclasses and util-less inheritance.
class Sub extends EE {}
const s = new Sub();
s.on('ping', (v) => console.log('pong', v, s instanceof EE));
s.emit('ping', 1);
// EventEmitter.once (Node 11.13+)
EE.once(s, 'ready').then((args) => console.log('once resolved', args));
EE.once(s, 'ready').then(() => {}, () => {});
s.emit('ready', 'a', 'b');
// SPDX-License-Identifier: MIT
