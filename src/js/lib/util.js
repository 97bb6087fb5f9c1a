// require('util'): the parts scripts use -- format, inspect, promisify,
// callbackify, inherits, deprecate, types, isDeepStrictEqual and the old
// is* predicates -- as each Node version has them. Written for phaseloop;
// checked against real Node (test/oracle/node/074-util.js).
'use strict';

const current = internal.mode === 'node';
const customInspect = Symbol.for('nodejs.util.inspect.custom');
const customPromisify = Symbol.for('nodejs.util.promisify.custom');

function format(...args) {
  return internal.format(...args);
}

function formatWithOptions(options, ...args) {
  if (options === null || typeof options !== 'object') {
    throw internal.argTypeError('inspectOptions', 'Object', options);
  }
  return internal.format(...args);
}

function inspect(value, opts) {
  // inspect(value, showHidden, depth) is the old signature.
  let options = opts;
  if (opts === undefined || typeof opts !== 'object' || opts === null) {
    options = {};
    if (typeof opts === 'boolean') options.showHidden = opts;
    if (arguments.length > 2) options.depth = arguments[2];
  }
  const depth = 'depth' in options ? options.depth : inspect.defaultOptions.depth;
  return internal.inspect(value, { depth, showHidden: !!options.showHidden });
}
inspect.custom = customInspect;
inspect.defaultOptions = {
  showHidden: false, depth: 2, colors: false, customInspect: true, showProxy: false,
  maxArrayLength: 100, breakLength: current ? 128 : 60, compact: current ? 3 : true,
  sorted: false, getters: false,
};
if (current) {
  inspect.defaultOptions.maxStringLength = 10000;
  inspect.defaultOptions.numericSeparator = false;
}

function promisify(original) {
  if (typeof original !== 'function') throw internal.argTypeError('original', 'Function', original);
  if (original[customPromisify]) {
    const fn = original[customPromisify];
    if (typeof fn !== 'function') {
      throw internal.argTypeError('util.promisify.custom', 'Function', fn);
    }
    return Object.defineProperty(fn, customPromisify, { value: fn, enumerable: false, writable: false, configurable: true });
  }
  function fn(...args) {
    return new Promise((resolve, reject) => {
      Reflect.apply(original, this, [...args, (err, ...values) => {
        if (err) reject(err);
        else resolve(values[0]);
      }]);
    });
  }
  Object.setPrototypeOf(fn, Object.getPrototypeOf(original));
  Object.defineProperty(fn, customPromisify, { value: fn, enumerable: false, writable: false, configurable: true });
  return Object.defineProperties(fn, Object.getOwnPropertyDescriptors(original));
}
promisify.custom = customPromisify;

// The promisified timers, as Node defines them on setTimeout and
// setImmediate.
Object.defineProperty(setTimeout, customPromisify, {
  enumerable: true, configurable: true, writable: true,
  value: function setTimeoutPromise(after, value) {
    return new Promise((resolve) => setTimeout(resolve, after, value));
  },
});
Object.defineProperty(setImmediate, customPromisify, {
  enumerable: true, configurable: true, writable: true,
  value: function setImmediatePromise(value) {
    return new Promise((resolve) => setImmediate(resolve, value));
  },
});

function callbackify(original) {
  if (typeof original !== 'function') throw internal.argTypeError('original', 'Function', original);
  function callbackified(...args) {
    const cb = args.pop();
    if (typeof cb !== 'function') throw internal.argTypeError('last argument', 'Function', cb);
    const onFulfilled = (value) => process.nextTick(cb, null, value);
    const onRejected = (reason) => {
      if (!reason) {
        const err = internal.codedError('Error', 'Promise was rejected with a falsy value',
          'ERR_FALSY_VALUE_REJECTION');
        err.reason = reason;
        reason = err;
      }
      process.nextTick(cb, reason);
    };
    Reflect.apply(original, this, args).then(onFulfilled, onRejected);
  }
  Object.setPrototypeOf(callbackified, Object.getPrototypeOf(original));
  Object.defineProperties(callbackified, Object.getOwnPropertyDescriptors(original));
  return callbackified;
}

function inherits(ctor, superCtor) {
  if (ctor === undefined || ctor === null) throw internal.argTypeError('ctor', 'Function', ctor);
  if (superCtor === undefined || superCtor === null) {
    throw internal.argTypeError('superCtor', 'Function', superCtor);
  }
  if (superCtor.prototype === undefined) {
    throw internal.argTypeError('superCtor.prototype', current ? 'object' : 'Object', superCtor.prototype);
  }
  Object.defineProperty(ctor, 'super_', { value: superCtor, writable: true, configurable: true });
  Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
}

const deprecated = new Set();
function deprecate(fn, msg, code) {
  if (typeof fn !== 'function') throw internal.argTypeError('fn', 'Function', fn);
  if (process.noDeprecation === true) return fn;
  let warned = false;
  function deprecated_(...args) {
    if (!warned && !(code !== undefined && deprecated.has(code))) {
      warned = true;
      if (code !== undefined) deprecated.add(code);
      process.emitWarning(msg, 'DeprecationWarning', code);
    }
    if (new.target) return Reflect.construct(fn, args, new.target);
    return Reflect.apply(fn, this, args);
  }
  Object.setPrototypeOf(deprecated_, fn);
  if (fn.prototype) deprecated_.prototype = fn.prototype;
  return deprecated_;
}

// ---- util.types ---------------------------------------------------------------

const tag = (v) => Object.prototype.toString.call(v).slice(8, -1);
const isObjectLike = (v) => v !== null && (typeof v === 'object' || typeof v === 'function');
const TypedArray = Object.getPrototypeOf(Uint8Array);
const typedArrayTag = Object.getOwnPropertyDescriptor(TypedArray.prototype, Symbol.toStringTag).get;
const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
const GeneratorFunction = Object.getPrototypeOf(function* () {}).constructor;
const AsyncGeneratorFunction = Object.getPrototypeOf(async function* () {}).constructor;
function brand(v, proto, method) {
  if (!isObjectLike(v)) return false;
  try {
    method.call(v);
    return true;
  } catch (e) {
    return false;
  }
}
const types = {
  isPromise: (v) => internal.isPromise(v),
  isDate: (v) => brand(v, Date, Date.prototype.getTime),
  isRegExp: (v) => isObjectLike(v) && tag(v) === 'RegExp' &&
    brand(v, RegExp, Object.getOwnPropertyDescriptor(RegExp.prototype, 'source').get),
  isMap: (v) => brand(v, Map, Object.getOwnPropertyDescriptor(Map.prototype, 'size').get),
  isSet: (v) => brand(v, Set, Object.getOwnPropertyDescriptor(Set.prototype, 'size').get),
  isWeakMap: (v) => brand(v, WeakMap, function () { WeakMap.prototype.has.call(this, {}); }),
  isWeakSet: (v) => brand(v, WeakSet, function () { WeakSet.prototype.has.call(this, {}); }),
  isNativeError: (v) => isObjectLike(v) && tag(v) === 'Error',
  isTypedArray: (v) => isObjectLike(v) && typedArrayTag.call(v) !== undefined,
  isUint8Array: (v) => isObjectLike(v) && typedArrayTag.call(v) === 'Uint8Array',
  isArrayBuffer: (v) => brand(v, ArrayBuffer,
    Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get),
  isArrayBufferView: (v) => ArrayBuffer.isView(v),
  isDataView: (v) => brand(v, DataView, Object.getOwnPropertyDescriptor(DataView.prototype, 'byteLength').get),
  isAsyncFunction: (v) => v instanceof AsyncFunction || v instanceof AsyncGeneratorFunction,
  isGeneratorFunction: (v) => v instanceof GeneratorFunction || v instanceof AsyncGeneratorFunction,
  isGeneratorObject: (v) => isObjectLike(v) && tag(v) === 'Generator',
  isBoxedPrimitive: (v) => isObjectLike(v) && ['Number', 'String', 'Boolean', 'BigInt', 'Symbol'].some(
    (t) => tag(v) === t && typeof v === 'object' && !Array.isArray(v)),
  isProxy: (v) => internal.isProxy(v),
};
// ---- isDeepStrictEqual ---------------------------------------------------------------

function deepEqual(a, b, memo) {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (tag(a) !== tag(b)) return false;
  if (memo.get(a) === b) return true;
  memo.set(a, b);
  if (a instanceof Date) return a.getTime() === b.getTime();
  if (a instanceof RegExp) return String(a) === String(b) && a.lastIndex === b.lastIndex;
  if (a instanceof Error && (a.message !== b.message || a.name !== b.name)) return false;
  if (ArrayBuffer.isView(a)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  }
  if (a instanceof Set) {
    if (a.size !== b.size) return false;
    for (const v of a) {
      if (!b.has(v) && ![...b].some((w) => deepEqual(v, w, memo))) return false;
    }
  }
  if (a instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) {
      if (!b.has(k) || !deepEqual(v, b.get(k), memo)) return false;
    }
  }
  const ka = Reflect.ownKeys(a).filter((k) => Object.prototype.propertyIsEnumerable.call(a, k));
  const kb = Reflect.ownKeys(b).filter((k) => Object.prototype.propertyIsEnumerable.call(b, k));
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.propertyIsEnumerable.call(b, k)) return false;
    if (!deepEqual(a[k], b[k], memo)) return false;
  }
  return true;
}

function isDeepStrictEqual(a, b) {
  return deepEqual(a, b, new Map());
}

// ---- the module ---------------------------------------------------------------------

// util.debuglog(section): prints only when NODE_DEBUG names the section.
function debuglog(section) {
  const wanted = String(process.env.NODE_DEBUG || '').toUpperCase().split(/[\s,]+/);
  const name = String(section).toUpperCase();
  if (!wanted.includes(name)) {
    const off = () => {};
    off.enabled = false;
    return off;
  }
  const on = (...args) => process.stderr.write(name + ' ' + process.pid + ': ' + format(...args) + '\n');
  on.enabled = true;
  return on;
}

function log(...args) {
  const d = new Date();
  const pad = (n) => String(n).padStart(2, '0');
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const time = pad(d.getHours()) + ':' + pad(d.getMinutes()) + ':' + pad(d.getSeconds());
  console.log('%s - %s', d.getDate() + ' ' + months[d.getMonth()] + ' ' + time, format(...args));
}

module.exports = {
  format,
  formatWithOptions,
  inspect,
  promisify,
  callbackify,
  inherits,
  deprecate,
  types,
  isDeepStrictEqual,
  log,
  debuglog,
  debug: debuglog,
  _extend(target, source) {
    if (source === null || typeof source !== 'object') return target;
    for (const k of Object.keys(source)) target[k] = source[k];
    return target;
  },
  isArray: Array.isArray,
  isBoolean: (v) => typeof v === 'boolean',
  isBuffer: (v) => v instanceof Uint8Array && Object.getPrototypeOf(v) !== Uint8Array.prototype,
  isNull: (v) => v === null,
  isNullOrUndefined: (v) => v === null || v === undefined,
  isNumber: (v) => typeof v === 'number',
  isString: (v) => typeof v === 'string',
  isSymbol: (v) => typeof v === 'symbol',
  isUndefined: (v) => v === undefined,
  isRegExp: types.isRegExp,
  isObject: (v) => v !== null && typeof v === 'object',
  isDate: types.isDate,
  isError: (v) => types.isNativeError(v) || v instanceof Error,
  isFunction: (v) => typeof v === 'function',
  isPrimitive: (v) => v === null || (typeof v !== 'object' && typeof v !== 'function'),
  TextEncoder: require('internal/web').TextEncoder,
  TextDecoder: require('internal/web').TextDecoder,
};
if (!current) {
  module.exports.print = deprecate((...args) => process.stdout.write(args.join('') ), 'util.print is deprecated. Use console.log instead.', 'DEP0026');
  module.exports.puts = deprecate((...args) => process.stdout.write(args.join('\n') + '\n'), 'util.puts is deprecated. Use console.log instead.', 'DEP0027');
  module.exports.error = deprecate((...args) => process.stderr.write(args.join('\n') + '\n'), 'util.error is deprecated. Use console.error instead.', 'DEP0029');
}
if (current) {
  module.exports.aborted = function aborted(signal, resource) {
    return new Promise((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
    });
  };
}
// SPDX-License-Identifier: MIT
