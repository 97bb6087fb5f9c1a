// oracle: node10 node11 node
// The messages of the errors the engine raises, as each Node's V8 words
// them (Node 10 and 11: "Cannot read property 'x' of null"; Node 20:
// "Cannot read properties of null (reading 'x')"), where SpiderMonkey's
// own wording ("o is null") used to show: property reads and writes on
// null and undefined, iteration and destructuring of them, stack
// exhaustion (a RangeError), JSON.parse's errors, and the common TypeErrors
// and RangeErrors of the built-ins. An error the script makes itself keeps
// its message, however it reads. Issue 34; docs/node-modes.md, "Error
// messages".
'use strict';
const L = (s) => console.log(s);
const show = (e) => L(e.name + ': ' + JSON.stringify(e.message));
const tries = [
  () => { const o = null; return o.x; },
  () => { let u; return u.foo; },
  () => { const o = undefined; o.x = 1; },
  () => { const o = {}; o.a.b; },
  () => { const o = {}; o.a.b = 1; },
  () => { const o = null; o[0] = 1; },
  () => { const o = null; return o['k y']; },
  () => { const o = undefined; return o[Symbol('s')]; },
  () => { const o = undefined; o.x += 1; },
  () => { const o = null; o.f(); },
  () => { const c = 1; c = 2; },
  () => { [].reduce((a, b) => a); },
  () => { [].reduceRight((a, b) => a); },
  () => BigInt(1) + 1,
  () => +1n,
  () => 1n / 0n,
  () => BigInt(1.5),
  () => { new Array(-1); },
  () => { const a = []; a.length = 2 ** 32; },
  () => { new Uint8Array(-1); },
  () => null[Symbol.iterator],
  () => { const [a] = null; return a; },
  () => { const x = undefined; for (const y of x) L(y); },
  () => [...null],
  () => { const [a] = {}; return a; },
  () => { const {a} = undefined; return a; },
  () => { const {a, b} = null; return a + b; },
  () => { const o = {}; const {q} = o.p; return q; },
  () => { function f({a}) { return a; } return f(); },
  () => { const {} = undefined; },
  () => { x; let x = 1; },
  () => { 'abc'.repeat(-1); },
  () => { 'abc'.repeat(Infinity); },
  () => { 'ab'.repeat(2 ** 30); },
  () => String(Symbol('q')) + Symbol('r'),
  () => Symbol() + 1,
  () => Object.keys(null),
  () => Object.create(5),
  () => Object.defineProperty(1, 'x', {}),
  () => Reflect.ownKeys(1),
  () => new Promise(5),
  () => (1).toFixed(101),
  () => (1).toPrecision(0),
  () => (255).toString(37),
  () => decodeURIComponent('%'),
  () => new Date(NaN).toISOString(),
  () => { class A {} return A(); },
  () => { class B extends Object { constructor() { super(); super(); } } return new B(); },
  () => { class C extends Object { constructor() { this.x = 1; super(); } } return new C(); },
  () => { class D extends Object { constructor() { super(); return 1; } } return new D(); },
  () => 'a' in 'b',
  () => ({}) instanceof 5,
  () => new WeakMap().set(1, 1),
  () => new WeakSet().add(1),
  () => { const o = Object.freeze({a: 1}); o.a = 2; },
  () => { const o = Object.freeze([1]); o[0] = 2; },
  () => { const o = {get a() { return 1; }}; o.a = 2; },
  () => { Object.freeze({}).x = 1; },
  () => { const o = Object.defineProperty({}, 'x', {value: 1}); Object.defineProperty(o, 'x', {value: 2}); },
  () => { const s = 'abc'; s.x = 1; },
  () => { undeclared = 1; },
  () => { NaN = 1; },
  () => [1].forEach(),
  () => { throw new TypeError('o is null'); },
];
for (const t of tries) {
  try {
    t();
    L('no error');
  } catch (e) {
    show(e);
  }
}

// Stack exhaustion is a RangeError.
function r() { r(); }
try {
  r();
} catch (e) {
  show(e);
  L([e instanceof RangeError, e.constructor === RangeError, Object.prototype.toString.call(e)].join(' '));
}

// JSON.parse names what it found in the text.
const texts = ['{', '', 'undefined', '[1,]', '{"a":1,}', '{"a" 1}', '{"a":1 "b":2}', '[1 2]', '1 2', '"abc',
  '{"a":1', '[1', 'tru', 'trux', '-', '-a', '1.', '1e', '"\\x"', '"a\tb"', '01', '{a:1}', "{'a':1}",
  '{"a":1,"b":2,"c":x,"d":4,"e":5}', '[1,2,3,4,5,6,7,8,9,10,11,12,]', 'xbcdefghijklmnopqrstuvwxyz', '{\n"a" 1\n}'];
for (const s of texts) {
  try {
    JSON.parse(s);
    L('parsed');
  } catch (e) {
    show(e);
  }
}

// Through an async function and a promise's rejection handler, and in a
// timer's callback.
async function later() {
  await null;
  const o = undefined;
  return o.deep;
}
later().catch(show).then(() => {
  Promise.reject(new Error('made by the script')).then(null, show);
  setTimeout(() => {
    try {
      const m = new Map();
      m.get('k').size;
    } catch (e) {
      show(e);
    }
  }, 1);
});
// SPDX-License-Identifier: MIT
