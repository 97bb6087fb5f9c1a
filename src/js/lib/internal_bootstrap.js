// Run once before the main script in every Node mode: the helpers the
// other built-ins share, and `process` as an EventEmitter with its events
// ('exit', 'beforeExit', 'uncaughtException', 'unhandledRejection',
// 'rejectionHandled', 'warning'). The engine (engine.cpp) calls the
// internal.on* functions below at the moments Node emits these events.
'use strict';

const mode = internal.mode;
const current = mode === 'node';

// ---- errors -------------------------------------------------------------

// What Node >= 12 appends to ERR_INVALID_ARG_TYPE: " Received ...".
function received(value) {
  if (value === null || value === undefined) return ' Received ' + value;
  if (typeof value === 'function') return ' Received function ' + value.name;
  if (typeof value === 'object') {
    if (value.constructor && value.constructor.name) {
      return ' Received an instance of ' + value.constructor.name;
    }
    return ' Received ' + internal.inspect(value, { depth: -1 });
  }
  let shown = internal.inspect(value);
  if (shown.length > 28) shown = shown.slice(0, 25) + '...';
  return ' Received type ' + typeof value + ' (' + shown + ')';
}

// ERR_INVALID_ARG_TYPE for argument (or "a.b" property) `name`, which
// must be of `type` ('Function', 'string', ...).
internal.argTypeError = function argTypeError(name, type, value) {
  const what = name.includes('.') ? 'property' : 'argument';
  let message;
  if (current) {
    const t = type === 'Function' ? 'function' : type;
    // A class alone: "must be an instance of Event".
    const must = t.startsWith('an instance of ') ? ' must be ' : ' must be of type ';
    message = 'The "' + name + '" ' + what + must + t + '.' + received(value);
  } else {
    message = 'The "' + name + '" ' + what + ' must be of type ' + type + '. Received type ' +
      (value === null ? 'null' : typeof value);
  }
  return internal.codedError('TypeError', message, 'ERR_INVALID_ARG_TYPE');
};

// ERR_OUT_OF_RANGE.
internal.rangeError = function rangeError(name, range, value) {
  return internal.codedError('RangeError', 'The value of "' + name + '" is out of range. It must be ' +
    range + '. Received ' + internal.inspect(value), 'ERR_OUT_OF_RANGE');
};

// Node 20's AbortError.
internal.abortError = function abortError(reason) {
  const err = new Error('The operation was aborted');
  err.name = 'AbortError';
  err.code = 'ABORT_ERR';
  if (reason !== undefined) err.cause = reason;
  return err;
};

// ---- globals each version added -------------------------------------------------

const web = require('internal/web');
Object.defineProperty(globalThis_(), 'Buffer', {
  value: require('buffer').Buffer, writable: true, configurable: true,
});
const globalNames = [];
if (mode !== 'node10') globalNames.push('TextEncoder', 'TextDecoder');
if (current) {
  globalNames.push('DOMException', 'Event', 'EventTarget', 'AbortController', 'AbortSignal',
    'structuredClone');
}
for (const name of globalNames) {
  Object.defineProperty(globalThis_(), name, { value: web[name], writable: true, configurable: true });
}
// The timers' own setImmediate, whatever the script does to the global.
const setImmediateAtBoot = globalThis_().setImmediate;

function globalThis_() {
  return Function('return this')();
}

// ---- the nextTick queue ---------------------------------------------------------------

// Unless each callback is watched (--trace), nextTicks wait in this array
// and one native tick runs them all, ticks queued meanwhile included, as
// Node's processTicksAndRejections loops over its queue in JavaScript: a
// call from native code into the engine per tick costs more than the tick.
// The order is the same: the runtime's drain runs the batch where the
// first of its ticks stood, then the microtasks. Node's own ticks
// (internal.queueTick) join the same queue. A tick that throws ends the
// batch; the rest waits for the next drain (the batch is queued again).
if (!internal.watched) {
  const queue = [];
  let head = 0;
  let queued = false;
  // `queued` stays true while the batch runs: ticks queued by its ticks
  // join it.
  const runTicks = function runTicks() {
    try {
      while (head < queue.length) {
        const fn = queue[head];
        const args = queue[head + 1];
        queue[head] = undefined;
        queue[head + 1] = undefined;
        head += 2;
        if (args === undefined) fn();
        else Reflect.apply(fn, undefined, args);
      }
    } finally {
      if (head >= queue.length) {
        queue.length = 0;
        head = 0;
        queued = false;
      } else {
        internal.queueTickBatch(runTicks);
      }
    }
  };
  const push = (fn, args) => {
    queue.push(fn, args);
    if (!queued) {
      queued = true;
      internal.queueTickBatch(runTicks);
    }
  };
  // Once the process is ending ('exit' emitted), Node drops new ticks.
  process.nextTick = function nextTick(callback, ...args) {
    if (typeof callback !== 'function') internal.throwCallbackType('callback', callback);
    if (process._exiting) return;
    push(callback, args.length === 0 ? undefined : args);
  };
  internal.queueTick = (fn) => {
    if (!process._exiting) push(fn, undefined);
  };
}

// The microtask queue, the same way (engine::queue_microtask fills `arr`):
// its jobs in order, those queued meanwhile included; after an exception
// the rest get a native microtask of their own and the checkpoint goes on.
internal.runMicrotasks = function runMicrotasks(arr) {
  let i = 0;
  try {
    while (i < arr.length) {
      const job = arr[i];
      arr[i] = undefined;
      i++;
      job();
    }
  } finally {
    if (i >= arr.length) {
      arr.length = 0;
      internal.microtasksDone(false);
    } else {
      arr.splice(0, i);
      internal.microtasksDone(true);
    }
  }
};

// ---- process as an EventEmitter --------------------------------------------

const EventEmitter = require('events');
const processProto = Object.create(EventEmitter.prototype, {
  constructor: { value: function process() {}, writable: true, configurable: true },
});
Object.setPrototypeOf(process, processProto);
EventEmitter.call(process);
process._exiting = false;

// Node's own listeners, there before the script starts (signal handling
// and the warning printer), in each version's order.
function startListeningIfSignal() {}
function stopListeningIfSignal() {}
let traceHintShown = false;
function onWarning(warning) {
  if (!(warning instanceof Error)) return;
  if (warning.name === 'DeprecationWarning' && process.noDeprecation) return;
  let text = warning.code ? '[' + warning.code + '] ' : '';
  text += warning.name + ': ' + warning.message;
  if (typeof warning.detail === 'string') text += '\n' + warning.detail;
  internal.warn(text);
  if (current && !traceHintShown) {
    traceHintShown = true;
    internal.warn('(Use `node --trace-warnings ...` to show where the warning was created)', true);
  }
}
if (mode === 'node11') process.on('warning', onWarning);
process.on('newListener', startListeningIfSignal);
process.on('removeListener', stopListeningIfSignal);
if (mode !== 'node11') process.on('warning', onWarning);

process.emitWarning = function emitWarning(warning, type, code, ctor) {
  let detail;
  if (type !== null && typeof type === 'object' && !Array.isArray(type)) {
    ctor = type.ctor;
    code = type.code;
    if (typeof type.detail === 'string') detail = type.detail;
    type = type.type || 'Warning';
  } else if (typeof type === 'function') {
    ctor = type;
    code = undefined;
    type = 'Warning';
  }
  if (type !== undefined && typeof type !== 'string') throw internal.argTypeError('type', 'string', type);
  if (typeof code === 'function') {
    ctor = code;
    code = undefined;
  } else if (code !== undefined && typeof code !== 'string') {
    throw internal.argTypeError('code', 'string', code);
  }
  if (typeof warning === 'string') {
    const text = warning;
    warning = new Error(text);
    warning.name = String(type || 'Warning');
    if (code !== undefined) warning.code = code;
    if (detail !== undefined) warning.detail = detail;
  } else if (!(warning instanceof Error)) {
    throw internal.argTypeError('warning', current ? 'string or an instance of Error' : 'Error or string',
      warning);
  }
  if (warning.name === 'DeprecationWarning') {
    if (process.noDeprecation) return;
    if (process.throwDeprecation) throw warning;
  }
  internal.queueTick(() => process.emit('warning', warning));
};

process.memoryUsage = function memoryUsage() {
  const [rss, heapUsed, heapTotal] = internal.memoryUsage();
  const usage = { rss, heapTotal, heapUsed, external: 0 };
  if (current) usage.arrayBuffers = 0;
  return usage;
};
if (current) process.memoryUsage.rss = function rss() { return internal.memoryUsage()[0]; };

process.exit = function exit(code) {
  if (code || code === 0) process.exitCode = code;
  if (!process._exiting) {
    process._exiting = true;
    process.emit('exit', process.exitCode || 0);
  }
  internal.reallyExit(process.exitCode || 0);
};

// ---- what the engine calls ---------------------------------------------------

// The loop ran out of work.
internal.onBeforeExit = function onBeforeExit() {
  process.emit('beforeExit', process.exitCode || 0);
};

// The process ends normally: the status to exit with. 'exit' is emitted
// even when process.exit() emitted it already (its listener threw, and an
// 'uncaughtException' listener took that), as Node does.
internal.onExit = function onExit() {
  process._exiting = true;
  process.emit('exit', process.exitCode || 0);
  return process.exitCode || 0;
};

// An exception no script code caught. True when the script's handler took
// it; false when it is fatal ('exit' has been emitted with 1). A handler
// that throws makes the engine end the process with status 7.
internal.onUncaught = function onUncaught(err, origin) {
  if (current) process.emit('uncaughtExceptionMonitor', err, origin);
  if (process.listenerCount('uncaughtException') === 0) {
    try {
      if (!process._exiting) {
        process._exiting = true;
        process.exitCode = 1;
        process.emit('exit', 1);
      }
    } catch (e) {
      // Nothing more can be done: the process is ending.
    }
    return false;
  }
  // Node 11 passed the error alone; 10.17 and 12.0 added the origin.
  if (mode === 'node11') process.emit('uncaughtException', err);
  else process.emit('uncaughtException', err, origin);
  // As Node after a handled error: an immediate that does nothing, so
  // that the next check pass is not empty and the ticks left waiting get
  // processed (it also keeps the loop for one more round: 'beforeExit'
  // again after a listener of it threw).
  setImmediateAtBoot(noop);
  return true;
};
function noop() {}

// A rejection without a handler: true when a listener took it.
internal.onUnhandledRejection = function onUnhandledRejection(reason, promise) {
  return process.emit('unhandledRejection', reason, promise);
};

// The error Node 15+ raises for a rejection with a value that is not an
// Error.
internal.unhandledRejectionError = function unhandledRejectionError(reason, shown) {
  const err = new Error('This error originated either by throwing inside of an async function ' +
    'without a catch block, or by rejecting a promise which was not handled with .catch(). The ' +
    'promise rejected with the reason "' + shown + '".');
  err.name = 'UnhandledPromiseRejection';
  err.code = 'ERR_UNHANDLED_REJECTION';
  return err;
};

// Node 10 and 11's warnings for a rejection without a handler: `text` is
// the reason (an Error's stack), `uid` the rejection's number.
let rejectionDeprecationWarned = false;
internal.warnUnhandledRejection = function warnUnhandledRejection(text, uid) {
  process.emitWarning(text, 'UnhandledPromiseRejectionWarning');
  const warning = new Error('Unhandled promise rejection. This error originated either by ' +
    'throwing inside of an async function without a catch block, or by rejecting a promise which ' +
    'was not handled with .catch(). (rejection id: ' + uid + ')');
  warning.name = 'UnhandledPromiseRejectionWarning';
  warning.id = uid;
  process.emitWarning(warning);
  if (!rejectionDeprecationWarned) {
    rejectionDeprecationWarned = true;
    process.emitWarning('Unhandled promise rejections are deprecated. In the future, promise ' +
      'rejections that are not handled will terminate the Node.js process with a non-zero exit ' +
      'code.', 'DeprecationWarning', 'DEP0018');
  }
};

// A reported rejection got its handler.
internal.onRejectionHandled = function onRejectionHandled(promise, uid) {
  if (process.emit('rejectionHandled', promise)) return;
  const warning = new Error('Promise rejection was handled asynchronously (rejection id: ' + uid + ')');
  warning.name = 'PromiseRejectionHandledWarning';
  warning.id = uid;
  process.emitWarning(warning);
};
// SPDX-License-Identifier: MIT
