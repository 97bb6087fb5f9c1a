// oracle: browser
// dispatchEvent as Chromium does it: the stop-immediate-propagation flag
// stays set after a dispatch, so dispatching the same event again reaches
// no listener; an event that is being dispatched cannot be dispatched again
// (InvalidStateError); anything but an Event is a TypeError. (Listed in
// issue 34: phaseloop recursed, and threw "internal.argTypeError is not a
// function".)
const t = new EventTarget();
const e = new Event('x');
t.addEventListener('x', () => { console.log('first listener'); e.stopImmediatePropagation(); });
t.addEventListener('x', () => console.log('second listener'));
console.log('dispatch 1', t.dispatchEvent(e));
console.log('dispatch 2 (same event)', t.dispatchEvent(e));
const f = new Event('y');
t.addEventListener('y', () => {
  try { t.dispatchEvent(f); } catch (err) { console.log('nested', err.name, err.message, err instanceof DOMException, err.code); }
});
t.dispatchEvent(f);
for (const v of [null, undefined, {}, 'x', 1]) {
  try { t.dispatchEvent(v); } catch (err) { console.log(String(v), err.name + ': ' + err.message); }
}
try { t.dispatchEvent(); } catch (err) { console.log('none', err.name + ': ' + err.message); }
const g = new Event('z', { cancelable: true });
t.addEventListener('z', (ev) => ev.preventDefault());
console.log('cancelled', t.dispatchEvent(g), g.defaultPrevented, g.eventPhase, g.target === t, g.currentTarget);
console.log('END');
// SPDX-License-Identifier: MIT
