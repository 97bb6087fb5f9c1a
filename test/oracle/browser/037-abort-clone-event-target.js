// oracle: browser
// AbortController and AbortSignal.timeout (Chromium's 'signal timed out'
// TimeoutError), structuredClone and its DataCloneError messages, and an
// EventTarget whose listener throws: the error is reported (onerror) and
// the next listener still runs.
const ac = new AbortController();
ac.signal.addEventListener('abort', (e) => console.log('abort', e.type, e.isTrusted, String(ac.signal.reason.name)));
ac.abort();
const s = AbortSignal.timeout(5);
s.onabort = () => console.log('timeout abort', s.reason.name, s.reason.message, s.reason.code);
const c = structuredClone({ d: new Date(0), m: new Map([[1, 2]]) });
console.log(c.d.getTime(), c.m.get(1));
try { structuredClone(Symbol('x')); } catch (e) { console.log(e.name, e.message); }
try { structuredClone({ f() {} }); } catch (e) { console.log(e.name, e.message); }
const et = new EventTarget();
et.addEventListener('x', () => { throw new Error('from listener'); });
et.addEventListener('x', () => console.log('second listener runs'));
window.onerror = (m) => { console.log('onerror', m); return true; };
console.log('dispatch returns', et.dispatchEvent(new Event('x')));
setTimeout(() => console.log('END'), 30);
// SPDX-License-Identifier: MIT
