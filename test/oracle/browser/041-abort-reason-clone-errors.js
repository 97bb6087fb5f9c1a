// oracle: browser
// An abort without a reason: Chromium's reason is a DOMException
// "AbortError", "signal is aborted without reason" (Node says "This
// operation was aborted"). structuredClone of Error objects: the name (a
// standard one, else "Error"), the message and a stack are kept, other
// properties are not, and shared or circular references stay so.
const ac = new AbortController();
ac.abort();
const r = ac.signal.reason;
console.log(r instanceof DOMException, r.name, r.message, r.code);
const s = AbortSignal.abort();
console.log(s.reason.name, s.reason.message);
console.log(AbortSignal.abort('mine').reason);
class MyError extends Error {}
const named = new Error('renamed');
named.name = 'RangeError';
const odd = new Error('odd');
odd.name = 'NotStandard';
for (const e of [new Error('plain'), new TypeError('typed'), new SyntaxError('syn'), new MyError('sub'), named, odd,
  Object.assign(new Error('with props'), { extra: 1 })]) {
  const c = structuredClone(e);
  console.log(Object.prototype.toString.call(c), c instanceof Error, c.constructor.name, c.name, c.message,
    'extra' in c, typeof c.stack, c === e);
}
const err = new Error('shared');
const graph = { a: err, b: [err], m: new Map([['k', err]]) };
graph.self = graph;
const g = structuredClone(graph);
console.log(g.a === g.b[0], g.a === g.m.get('k'), g.self === g, g.a !== err, g.a.message);
try {
  structuredClone({ e: new Error('x'), f() {} });
} catch (x) {
  console.log(x.name);
}
setTimeout(() => console.log('END'), 30);
// SPDX-License-Identifier: MIT
