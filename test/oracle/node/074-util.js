// oracle: node10 node11 node
// require('util'): format's specifiers, inspect with depth and
// util.inspect.custom, inherits, promisify (also of setTimeout and
// setImmediate, which carry util.promisify.custom), callbackify (its
// callback on a later tick), types, isDeepStrictEqual, deprecate (one
// warning per code, as a 'warning' event).
const util = require('util');
console.log(util.format('%s:%d:%i:%f:%j:%o:%O:%%', 'a', 42.5, 42.5, '1.5', { a: 1 }, [1],
  { b: { c: { d: {} } } }));
console.log(util.format('x', 1, { a: 1 }), util.format('%s', 'only'), util.format(1, 2));
console.log(util.inspect({ a: [1, 2, { b: new Map([[1, 2]]) }], s: 'str' }), util.inspect('x'));
console.log(util.inspect({ a: { b: { c: { d: 1 } } } }, { depth: 0 }));
console.log(util.inspect({ a: { b: { c: {} } } }, { depth: null }));
class Custom {
  [util.inspect.custom](depth) {
    return 'Custom<' + typeof depth + '>';
  }
}
console.log(new Custom(), [new Custom()], util.inspect(new Custom()));
console.log(typeof util.inspect.custom, util.inspect.custom === Symbol.for('nodejs.util.inspect.custom'));

function Base() {}
Base.prototype.hi = function () {
  return 'hi';
};
function Old() {
  Base.call(this);
}
util.inherits(Old, Base);
console.log(new Old().hi(), Old.super_ === Base, new Old() instanceof Base);
try {
  util.inherits(Old, null);
} catch (e) {
  console.log(e.name, e.code);
}

const double = util.promisify((a, cb) => setTimeout(() => cb(null, a * 2), 1));
const fails = util.promisify((cb) => cb(new Error('bad')));
const sleep = util.promisify(setTimeout);
const immediate = util.promisify(setImmediate);
console.log(typeof util.promisify.custom, sleep === setTimeout[util.promisify.custom]);
const cbf = util.callbackify(async (x) => x + 1);
let sync = true;
cbf(1, (err, v) => console.log('callbackify', err, v, sync ? 'synchronously' : 'later'));
sync = false;

console.log(util.types.isPromise(Promise.resolve()), util.types.isPromise({ then() {} }),
  util.types.isDate(new Date()), util.types.isRegExp(/x/), util.types.isMap(new Map()),
  util.types.isSet(new Set()), util.types.isAsyncFunction(async () => {}),
  util.types.isGeneratorFunction(function* () {}), util.types.isTypedArray(new Uint8Array(1)),
  util.types.isNativeError(new TypeError()), util.types.isProxy(new Proxy({}, {})));
console.log(util.isDeepStrictEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }),
  util.isDeepStrictEqual([1], ['1']), util.isDeepStrictEqual(new Set([1]), new Set([1])),
  util.isDeepStrictEqual({ a: 1 }, { a: 1, b: undefined }));

process.on('warning', (w) => console.log('warning', w.name, w.code, w.message));
const old = util.deprecate(() => 'old result', 'old() is deprecated', 'DEP_TEST');
console.log(old(), old());

(async () => {
  console.log('promisified', await double(21));
  await fails().catch((e) => console.log('promisify rejects', e.message));
  console.log('sleep', await sleep(2, 'value'));
  console.log('immediate', await immediate('w'));
})();
// SPDX-License-Identifier: MIT
