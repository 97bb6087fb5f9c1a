// require('timers/promises') (Node 15+): setTimeout, setImmediate and
// setInterval as promises and an async iterator, with `signal` and `ref`
// options, and scheduler.wait / scheduler.yield. Written for phaseloop;
// checked against real Node 20 (test/oracle/node/075-timers-promises-abort.js).
'use strict';

function checkOptions(options) {
  if (options === null || typeof options !== 'object') {
    throw internal.argTypeError('options', 'object', options);
  }
  const { signal, ref = true } = options;
  if (signal !== undefined && (signal === null || typeof signal !== 'object' || !('aborted' in signal))) {
    throw internal.argTypeError('options.signal', 'AbortSignal', signal);
  }
  if (typeof ref !== 'boolean') throw internal.argTypeError('options.ref', 'boolean', ref);
  return { signal, ref };
}

// A promise settled by a timer (`start(resolve)` arms it and returns the
// handle, `cancel(handle)` disarms it), rejected with an AbortError when
// the signal aborts first.
function timerPromise(options, start, cancel) {
  let checked;
  try {
    checked = checkOptions(options);
  } catch (err) {
    return Promise.reject(err);
  }
  const { signal, ref } = checked;
  if (signal && signal.aborted) return Promise.reject(internal.abortError(signal.reason));
  return new Promise((resolve, reject) => {
    let onAbort;
    const handle = start((value) => {
      if (signal) signal.removeEventListener('abort', onAbort);
      resolve(value);
    });
    if (!ref) handle.unref();
    if (signal) {
      onAbort = () => {
        cancel(handle);
        reject(internal.abortError(signal.reason));
      };
      signal.addEventListener('abort', onAbort, { once: true });
    }
  });
}

function setTimeout_(after, value, options = {}) {
  return timerPromise(options, (done) => setTimeout(done, after, value), clearTimeout);
}

function setImmediate_(value, options = {}) {
  return timerPromise(options, (done) => setImmediate(done, value), clearImmediate);
}

// An async iterator that yields `value` every `after` ms; ticks that come
// while nobody waits are counted, not lost.
function setInterval_(after, value, options = {}) {
  const { signal, ref } = checkOptions(options);
  let pending = 0;
  let waiting = null;
  let done = false;
  let interval = null;
  let onAbort = null;
  const stop = () => {
    done = true;
    if (interval) clearInterval(interval);
    if (signal && onAbort) signal.removeEventListener('abort', onAbort);
  };
  const start = () => {
    if (interval || done) return;
    interval = setInterval(() => {
      if (waiting) {
        const w = waiting;
        waiting = null;
        w.resolve({ value, done: false });
      } else {
        pending++;
      }
    }, after);
    if (!ref) interval.unref();
    if (signal) {
      onAbort = () => {
        stop();
        if (waiting) {
          const w = waiting;
          waiting = null;
          w.reject(internal.abortError(signal.reason));
        }
      };
      signal.addEventListener('abort', onAbort, { once: true });
    }
  };
  return {
    next() {
      if (signal && signal.aborted) {
        stop();
        return Promise.reject(internal.abortError(signal.reason));
      }
      if (done) return Promise.resolve({ value: undefined, done: true });
      start();
      if (pending > 0) {
        pending--;
        return Promise.resolve({ value, done: false });
      }
      return new Promise((resolve, reject) => {
        waiting = { resolve, reject };
      });
    },
    return() {
      stop();
      if (waiting) {
        const w = waiting;
        waiting = null;
        w.resolve({ value: undefined, done: true });
      }
      return Promise.resolve({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

module.exports = {
  setTimeout: setTimeout_,
  setImmediate: setImmediate_,
  setInterval: setInterval_,
  scheduler: new (class Scheduler {
    wait(delay, options) {
      return setTimeout_(delay, undefined, options);
    }
    yield() {
      return setImmediate_();
    }
  })(),
};
Object.defineProperty(module.exports.setTimeout, 'name', { value: 'setTimeout' });
Object.defineProperty(module.exports.setImmediate, 'name', { value: 'setImmediate' });
Object.defineProperty(module.exports.setInterval, 'name', { value: 'setInterval' });
// SPDX-License-Identifier: MIT
