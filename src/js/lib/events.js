// require('events'): EventEmitter as each Node version has it. Written for
// phaseloop from Node's documented behaviour and checked against real Node
// (test/oracle/node/065-events.js).
'use strict';

const current = internal.mode === 'node';
const kCapture = Symbol('kCapture');
const kShapeMode = Symbol('shapeMode');
let defaultMaxListeners = 10;

function checkListener(listener) {
  if (typeof listener === 'function') return;
  throw internal.argTypeError('listener', 'Function', listener);
}

// A listener limit: Node 20 validates it as a number >= 0.
function checkCount(n, name) {
  if (typeof n !== 'number' || n < 0 || Number.isNaN(n)) {
    if (current && typeof n !== 'number') throw internal.argTypeError(name, 'number', n);
    throw internal.rangeError(name, current ? '>= 0' : 'a non-negative number', n);
  }
}

function EventEmitter(opts) {
  EventEmitter.init.call(this, opts);
}

EventEmitter.init = function init(opts) {
  if (this._events === undefined || this._events === Object.getPrototypeOf(this)._events) {
    this._events = Object.create(null);
    this._eventsCount = 0;
  }
  this._maxListeners = this._maxListeners || undefined;
  if (current) {
    this[kShapeMode] = false;
    const capture = opts && opts.captureRejections;
    if (capture !== undefined && typeof capture !== 'boolean') {
      throw internal.argTypeError('options.captureRejections', 'boolean', capture);
    }
    this[kCapture] = capture === undefined ? EventEmitter.prototype[kCapture] : capture;
  }
};

EventEmitter.prototype._events = undefined;
EventEmitter.prototype._eventsCount = 0;
EventEmitter.prototype._maxListeners = undefined;
if (current) EventEmitter.prototype[kCapture] = false;

Object.defineProperty(EventEmitter, 'defaultMaxListeners', {
  enumerable: true,
  get() { return defaultMaxListeners; },
  set(n) {
    checkCount(n, 'defaultMaxListeners');
    defaultMaxListeners = n;
  },
});

EventEmitter.prototype.setMaxListeners = function setMaxListeners(n) {
  checkCount(n, current ? 'setMaxListeners' : 'n');
  this._maxListeners = n;
  return this;
};

function maxListenersOf(emitter) {
  return emitter._maxListeners === undefined ? defaultMaxListeners : emitter._maxListeners;
}

EventEmitter.prototype.getMaxListeners = function getMaxListeners() {
  return maxListenersOf(this);
};

function unhandledError(emitter, er) {
  let shown;
  try {
    shown = internal.inspect(er);
  } catch (e) {
    shown = String(er);
  }
  const err = internal.codedError('Error', 'Unhandled error. (' + shown + ')', 'ERR_UNHANDLED_ERROR');
  err.context = er;
  return err;
}

function callListener(emitter, type, fn, args) {
  const result = Reflect.apply(fn, emitter, args);
  if (current && emitter[kCapture] && result !== undefined && result !== null &&
      typeof result.then === 'function') {
    result.then(undefined, (err) => {
      process.nextTick(() => {
        const handler = emitter[EventEmitter.captureRejectionSymbol];
        if (typeof handler === 'function') {
          handler.call(emitter, err, type, ...args);
        } else {
          const prev = emitter[kCapture];
          try {
            emitter[kCapture] = false;
            emitter.emit('error', err);
          } finally {
            emitter[kCapture] = prev;
          }
        }
      });
    });
  }
}

EventEmitter.prototype.emit = function emit(type, ...args) {
  const events = this._events;
  if (type === 'error') {
    if (current && events !== undefined && events[errorMonitor] !== undefined) {
      this.emit(errorMonitor, ...args);
    }
    if (events === undefined || events.error === undefined) {
      const er = args[0];
      if (er instanceof Error) throw er;
      throw unhandledError(this, er);
    }
  }
  if (events === undefined) return false;
  const handler = events[type];
  if (handler === undefined) return false;
  if (typeof handler === 'function') {
    callListener(this, type, handler, args);
  } else {
    const listeners = handler.slice();
    for (let i = 0; i < listeners.length; i++) callListener(this, type, listeners[i], args);
  }
  return true;
};

function warnLeak(emitter, type, count, max) {
  const what = typeof type === 'symbol' ? type.toString() : String(type);
  let text = 'Possible EventEmitter memory leak detected. ' + count + ' ' + what +
    ' listeners added';
  if (current) {
    const name = emitter.constructor && emitter.constructor.name || 'EventEmitter';
    text += ' to [' + name + ']';
  }
  // Node 20 names the limit too.
  if (current) text += '. MaxListeners is ' + max;
  text += '. Use emitter.setMaxListeners() to increase limit';
  const w = new Error(text);
  w.name = 'MaxListenersExceededWarning';
  w.emitter = emitter;
  w.type = type;
  w.count = count;
  process.emitWarning(w);
}

function addListener(emitter, type, listener, prepend) {
  checkListener(listener);
  let events = emitter._events;
  if (events === undefined) {
    events = emitter._events = Object.create(null);
    emitter._eventsCount = 0;
  } else if (events.newListener !== undefined) {
    emitter.emit('newListener', type, listener.listener ? listener.listener : listener);
    events = emitter._events;
  }
  const existing = events[type];
  let list;
  if (existing === undefined) {
    events[type] = listener;
    emitter._eventsCount++;
    return emitter;
  }
  if (typeof existing === 'function') {
    list = events[type] = prepend ? [listener, existing] : [existing, listener];
  } else {
    list = existing;
    if (prepend) list.unshift(listener);
    else list.push(listener);
  }
  const max = maxListenersOf(emitter);
  if (max > 0 && list.length > max && !list.warned) {
    list.warned = true;
    warnLeak(emitter, type, list.length, max);
  }
  return emitter;
}

EventEmitter.prototype.addListener = function addListener_(type, listener) {
  return addListener(this, type, listener, false);
};
EventEmitter.prototype.on = EventEmitter.prototype.addListener;

EventEmitter.prototype.prependListener = function prependListener(type, listener) {
  return addListener(this, type, listener, true);
};

function onceWrapper(...args) {
  if (this.fired) return undefined;
  this.target.removeListener(this.type, this.wrapFn);
  this.fired = true;
  return Reflect.apply(this.listener, this.target, args);
}

function onceWrap(target, type, listener) {
  const state = { fired: false, wrapFn: undefined, target, type, listener };
  const wrapped = onceWrapper.bind(state);
  wrapped.listener = listener;
  state.wrapFn = wrapped;
  return wrapped;
}

EventEmitter.prototype.once = function once(type, listener) {
  checkListener(listener);
  this.on(type, onceWrap(this, type, listener));
  return this;
};

EventEmitter.prototype.prependOnceListener = function prependOnceListener(type, listener) {
  checkListener(listener);
  this.prependListener(type, onceWrap(this, type, listener));
  return this;
};

EventEmitter.prototype.removeListener = function removeListener(type, listener) {
  checkListener(listener);
  const events = this._events;
  if (events === undefined) return this;
  const list = events[type];
  if (list === undefined) return this;
  let removed;
  if (list === listener || list.listener === listener) {
    removed = list;
    if (--this._eventsCount === 0) {
      this._events = Object.create(null);
    } else {
      delete events[type];
    }
  } else if (typeof list !== 'function') {
    let at = -1;
    for (let i = list.length - 1; i >= 0; i--) {
      if (list[i] === listener || list[i].listener === listener) {
        at = i;
        break;
      }
    }
    if (at < 0) return this;
    removed = list[at];
    list.splice(at, 1);
    if (list.length === 1) events[type] = list[0];
  } else {
    return this;
  }
  if (this._events.removeListener !== undefined) {
    // Node 10 and 11 name the listener the script gave; Node 20 the one
    // that was registered (a once() wrapper).
    this.emit('removeListener', type, current ? removed : (removed.listener || listener));
  }
  return this;
};
EventEmitter.prototype.off = EventEmitter.prototype.removeListener;

EventEmitter.prototype.removeAllListeners = function removeAllListeners(type) {
  const events = this._events;
  if (events === undefined) return this;
  if (events.removeListener === undefined) {
    if (arguments.length === 0) {
      this._events = Object.create(null);
      this._eventsCount = 0;
    } else if (events[type] !== undefined) {
      if (--this._eventsCount === 0) this._events = Object.create(null);
      else delete events[type];
    }
    return this;
  }
  if (arguments.length === 0) {
    for (const key of Reflect.ownKeys(events)) {
      if (key !== 'removeListener') this.removeAllListeners(key);
    }
    this.removeAllListeners('removeListener');
    this._events = Object.create(null);
    this._eventsCount = 0;
    return this;
  }
  const listeners = events[type];
  if (typeof listeners === 'function') {
    this.removeListener(type, listeners);
  } else if (listeners !== undefined) {
    for (let i = listeners.length - 1; i >= 0; i--) this.removeListener(type, listeners[i]);
  }
  return this;
};

function listenersOf(emitter, type, unwrap) {
  const events = emitter._events;
  if (events === undefined) return [];
  const l = events[type];
  if (l === undefined) return [];
  if (typeof l === 'function') return unwrap ? [l.listener || l] : [l];
  return unwrap ? l.map((x) => x.listener || x) : l.slice();
}

EventEmitter.prototype.listeners = function listeners(type) {
  return listenersOf(this, type, true);
};

EventEmitter.prototype.rawListeners = function rawListeners(type) {
  return listenersOf(this, type, false);
};

function listenerCount(type) {
  const events = this._events;
  if (events === undefined) return 0;
  const l = events[type];
  if (typeof l === 'function') return 1;
  return l === undefined ? 0 : l.length;
}
EventEmitter.prototype.listenerCount = listenerCount;

EventEmitter.listenerCount = function (emitter, type) {
  if (typeof emitter.listenerCount === 'function') return emitter.listenerCount(type);
  return listenerCount.call(emitter, type);
};

EventEmitter.prototype.eventNames = function eventNames() {
  return this._eventsCount > 0 ? Reflect.ownKeys(this._events) : [];
};

// EventEmitter.once(emitter, name): Node 11.13.
EventEmitter.once = function once(emitter, name, options) {
  return new Promise((resolve, reject) => {
    const signal = current && options ? options.signal : undefined;
    if (signal && signal.aborted) {
      reject(internal.abortError(signal.reason));
      return;
    }
    const onError = (err) => {
      emitter.removeListener(name, onEvent);
      if (signal) signal.removeEventListener('abort', onAbort);
      reject(err);
    };
    const onEvent = (...args) => {
      if (name !== 'error') emitter.removeListener('error', onError);
      if (signal) signal.removeEventListener('abort', onAbort);
      resolve(args);
    };
    const onAbort = () => {
      emitter.removeListener(name, onEvent);
      emitter.removeListener('error', onError);
      reject(internal.abortError(signal.reason));
    };
    emitter.once(name, onEvent);
    if (name !== 'error') emitter.once('error', onError);
    if (signal) signal.addEventListener('abort', onAbort, { once: true });
  });
};

EventEmitter.EventEmitter = EventEmitter;
EventEmitter.usingDomains = false;

const errorMonitor = current ? Symbol('events.errorMonitor') : undefined;
if (current) {
  EventEmitter.errorMonitor = errorMonitor;
  EventEmitter.captureRejectionSymbol = Symbol.for('nodejs.rejection');
  Object.defineProperty(EventEmitter, 'captureRejections', {
    enumerable: true,
    get() { return EventEmitter.prototype[kCapture]; },
    set(v) {
      if (typeof v !== 'boolean') throw internal.argTypeError('EventEmitter.captureRejections', 'boolean', v);
      EventEmitter.prototype[kCapture] = v;
    },
  });
  EventEmitter.getEventListeners = function getEventListeners(target, type) {
    if (typeof target.listeners === 'function') return target.listeners(type);
    return internal.eventTargetListeners(target, type);
  };
  EventEmitter.setMaxListeners = function setMaxListeners(n = defaultMaxListeners, ...targets) {
    if (targets.length === 0) {
      EventEmitter.defaultMaxListeners = n;
    } else {
      for (const t of targets) t.setMaxListeners(n);
    }
  };
  // EventEmitter.on(emitter, name): an async iterator of the events.
  EventEmitter.on = function on(emitter, name) {
    const queued = [];
    const waiting = [];
    let error = null;
    let done = false;
    const onEvent = (...args) => {
      const w = waiting.shift();
      if (w) w.resolve({ value: args, done: false });
      else queued.push(args);
    };
    const onError = (err) => {
      done = true;
      const w = waiting.shift();
      if (w) w.reject(err);
      else error = err;
      iterator.return();
    };
    const iterator = {
      next() {
        const value = queued.shift();
        if (value) return Promise.resolve({ value, done: false });
        if (error) {
          const p = Promise.reject(error);
          error = null;
          return p;
        }
        if (done) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
      },
      return() {
        emitter.removeListener(name, onEvent);
        emitter.removeListener('error', onError);
        done = true;
        for (const w of waiting.splice(0)) w.resolve({ value: undefined, done: true });
        return Promise.resolve({ value: undefined, done: true });
      },
      throw(err) {
        error = err;
        emitter.removeListener(name, onEvent);
        emitter.removeListener('error', onError);
        return Promise.reject(err);
      },
      [Symbol.asyncIterator]() { return this; },
    };
    emitter.on(name, onEvent);
    if (name !== 'error') emitter.on('error', onError);
    return iterator;
  };
}

module.exports = EventEmitter;
// SPDX-License-Identifier: MIT
