// The web platform classes Node offers as globals: DOMException, Event,
// EventTarget, AbortController, AbortSignal (Node 15+), structuredClone
// (Node 17+), TextEncoder and TextDecoder (Node 11+; Node 10 in util).
// Written for phaseloop from the DOM and Encoding standards and checked
// against real Node (test/oracle/node/075-timers-promises-abort.js).
'use strict';

const legacyCodes = {
  IndexSizeError: 1, HierarchyRequestError: 3, WrongDocumentError: 4, InvalidCharacterError: 5,
  NoModificationAllowedError: 7, NotFoundError: 8, NotSupportedError: 9, InvalidStateError: 11,
  SyntaxError: 12, InvalidModificationError: 13, NamespaceError: 14, InvalidAccessError: 15,
  TypeMismatchError: 17, SecurityError: 18, NetworkError: 19, AbortError: 20, URLMismatchError: 21,
  QuotaExceededError: 22, TimeoutError: 23, InvalidNodeTypeError: 24, DataCloneError: 25,
};

class DOMException extends Error {
  constructor(message = '', options = 'Error') {
    super(String(message));
    let name = options;
    if (options !== null && typeof options === 'object') {
      name = 'name' in options ? options.name : 'Error';
      if ('cause' in options) {
        Object.defineProperty(this, 'cause', { value: options.cause, writable: true, configurable: true });
      }
    }
    Object.defineProperty(this, 'name', { value: String(name), writable: true, configurable: true });
  }
  get code() {
    return legacyCodes[this.name] || 0;
  }
}
for (const [name, code] of Object.entries(legacyCodes)) {
  const constant = name.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase().replace(/_ERROR$/, '_ERR');
  Object.defineProperty(DOMException, constant, { value: code, enumerable: true });
  Object.defineProperty(DOMException.prototype, constant, { value: code, enumerable: true });
}

// ---- Event and EventTarget -------------------------------------------------------

const kDispatching = Symbol('dispatching');
const kDispatched = Symbol('dispatched');
const kStopped = Symbol('stopped');
const kInDispatch = Symbol('inDispatch');

class Event {
  #type;
  #bubbles;
  #cancelable;
  #composed;
  #defaultPrevented = false;
  #target = null;
  #current = null;
  #timeStamp;
  #stop = false;  // stays set after the dispatch, as Chromium and Node keep it
  #inDispatch = false;
  constructor(type, options = {}) {
    if (arguments.length === 0) throw internal.argTypeError('type', 'string', undefined);
    this.#type = String(type);
    this.#bubbles = !!(options && options.bubbles);
    this.#cancelable = !!(options && options.cancelable);
    this.#composed = !!(options && options.composed);
    // (Event is a global only where performance is: Node 15+, the browser.)
    this.#timeStamp = performance.now();
    Object.defineProperty(this, 'isTrusted', { value: false, enumerable: true, configurable: true });
  }
  get type() { return this.#type; }
  get target() { return this.#target; }
  get currentTarget() { return this.#current; }
  get srcElement() { return this.#target; }
  get bubbles() { return this.#bubbles; }
  get cancelable() { return this.#cancelable; }
  get composed() { return this.#composed; }
  get defaultPrevented() { return this.#cancelable && this.#defaultPrevented; }
  get timeStamp() { return this.#timeStamp; }
  get eventPhase() { return this.#current ? 2 : 0; }
  get returnValue() { return !this.defaultPrevented; }
  composedPath() { return this.#current ? [this.#current] : []; }
  preventDefault() { this.#defaultPrevented = true; }
  stopPropagation() {}
  stopImmediatePropagation() { this.#stop = true; }
  // The dispatch steps EventTarget needs (not script-visible names).
  static [kDispatching](event, target) {
    event.#target = target;
    event.#current = target;
    event.#inDispatch = true;
  }
  static [kDispatched](event) {
    event.#current = null;
    event.#inDispatch = false;
  }
  static [kInDispatch](event) {
    return event.#inDispatch;
  }
  static [kStopped](event) {
    return event.#stop;
  }
}

const kListeners = Symbol('kEvents');
// A target's listeners by type (made when first needed: window is an
// EventTarget without having been constructed as one).
function listenerMap(target) {
  if (!Object.prototype.hasOwnProperty.call(target, kListeners)) {
    Object.defineProperty(target, kListeners, { value: new Map() });
  }
  return target[kListeners];
}

// What becomes of an exception thrown by a listener: Node throws it on a
// later tick (an uncaught exception); a page reports it and goes on.
internal.listenerError = internal.mode === 'browser'
  ? (err) => internal.reportError(err)
  : (err) => process.nextTick(() => {
    throw err;
  });

class EventTarget {
  constructor() {
    listenerMap(this);
  }
  addEventListener(type, listener, options) {
    if (listener === null || listener === undefined) return;
    const capture = typeof options === 'boolean' ? options : !!(options && options.capture);
    const once = !!(options && typeof options === 'object' && options.once);
    const signal = options && typeof options === 'object' ? options.signal : undefined;
    if (signal && signal.aborted) return;
    const map = listenerMap(this);
    let list = map.get(String(type));
    if (!list) map.set(String(type), (list = []));
    if (list.some((l) => l.listener === listener && l.capture === capture)) return;
    const entry = { listener, capture, once, removed: false };
    list.push(entry);
    if (signal) {
      signal.addEventListener('abort', () => this.removeEventListener(type, listener, options), { once: true });
    }
  }
  removeEventListener(type, listener, options) {
    const capture = typeof options === 'boolean' ? options : !!(options && options.capture);
    const list = listenerMap(this).get(String(type));
    if (!list) return;
    const i = list.findIndex((l) => l.listener === listener && l.capture === capture);
    if (i < 0) return;
    list[i].removed = true;
    list.splice(i, 1);
  }
  dispatchEvent(event) {
    if (internal.mode === 'browser') {
      const fail = "Failed to execute 'dispatchEvent' on 'EventTarget': ";
      if (arguments.length === 0) throw new TypeError(fail + '1 argument required, but only 0 present.');
      if (!(event instanceof Event)) throw new TypeError(fail + "parameter 1 is not of type 'Event'.");
      if (Event[kInDispatch](event)) throw new DOMException(fail + 'The event is already being dispatched.', 'InvalidStateError');
    } else {
      if (arguments.length === 0) {
        throw internal.codedError('TypeError', 'The "event" argument must be specified', 'ERR_MISSING_ARGS');
      }
      if (!(event instanceof Event)) throw internal.argTypeError('event', 'an instance of Event', event);
      if (Event[kInDispatch](event)) {
        throw internal.codedError('Error', 'The event "' + event.type + '" is already being dispatched',
          'ERR_EVENT_RECURSION');
      }
    }
    Event[kDispatching](event, this);
    const list = listenerMap(this).get(event.type);
    if (list) {
      for (const entry of list.slice()) {
        // Checked before each listener: an event stopped before (in an
        // earlier dispatch too) reaches none.
        if (Event[kStopped](event)) break;
        if (entry.removed) continue;
        if (entry.once) this.removeEventListener(event.type, entry.listener, entry);
        try {
          const l = entry.listener;
          if (typeof l === 'function') l.call(this, event);
          else if (l && typeof l.handleEvent === 'function') l.handleEvent(event);
        } catch (err) {
          internal.listenerError(err);
        }
      }
    }
    Event[kDispatched](event);
    return !event.defaultPrevented;
  }
}

// The listeners of an EventTarget (events.getEventListeners).
internal.eventTargetListeners = (target, type) =>
  (listenerMap(target).get(String(type)) || []).map((l) => l.listener);

// ---- AbortController and AbortSignal ----------------------------------------------

const kCreate = Symbol('create');
const kAbort = Symbol('abort');
class AbortSignal extends EventTarget {
  #aborted = false;
  #reason = undefined;
  #onabort = null;
  constructor(key) {
    if (key !== kCreate) throw new TypeError('Illegal constructor');
    super();
  }
  get aborted() { return this.#aborted; }
  get reason() { return this.#reason; }
  get onabort() { return this.#onabort; }
  set onabort(fn) {
    if (this.#onabort) this.removeEventListener('abort', this.#onabort);
    this.#onabort = typeof fn === 'function' ? fn : null;
    if (this.#onabort) this.addEventListener('abort', this.#onabort);
  }
  throwIfAborted() {
    if (this.#aborted) throw this.#reason;
  }
  static [kAbort](signal, reason, dispatch) {
    if (signal.#aborted) return;
    signal.#aborted = true;
    signal.#reason = reason;
    if (!dispatch) return;
    const ev = new Event('abort');
    Object.defineProperty(ev, 'isTrusted', { value: true, enumerable: true });
    signal.dispatchEvent(ev);
  }
  static abort(reason = defaultAbortReason()) {
    const s = new AbortSignal(kCreate);
    AbortSignal[kAbort](s, reason, false);
    return s;
  }
  static timeout(ms) {
    const s = new AbortSignal(kCreate);
    const t = setTimeout(() => {
      abortSignal(s, new DOMException(internal.mode === 'browser' ? 'signal timed out'
        : 'The operation was aborted due to timeout', 'TimeoutError'));
    }, ms);
    // In Node the timer keeps nothing alive (a page's timers are numbers).
    if (typeof t === 'object' && typeof t.unref === 'function') t.unref();
    return s;
  }
  static any(signals) {
    const s = new AbortSignal(kCreate);
    for (const other of signals) {
      if (other.aborted) {
        AbortSignal[kAbort](s, other.reason, false);
        return s;
      }
    }
    for (const other of signals) {
      other.addEventListener('abort', () => abortSignal(s, other.reason), { once: true });
    }
    return s;
  }
}

// An abort without a reason: a DOMException "AbortError", worded as Node
// and Chromium word it.
function defaultAbortReason() {
  return new DOMException(internal.mode === 'browser' ? 'signal is aborted without reason'
    : 'This operation was aborted', 'AbortError');
}

function abortSignal(signal, reason) {
  AbortSignal[kAbort](signal, reason, true);
}

class AbortController {
  #signal = new AbortSignal(kCreate);
  get signal() { return this.#signal; }
  abort(reason = defaultAbortReason()) {
    abortSignal(this.#signal, reason);
  }
}

// ---- structuredClone ----------------------------------------------------------------

function structuredClone(value, options) {
  if (arguments.length === 0) {
    throw internal.codedError('TypeError', 'The "value" argument must be specified', 'ERR_MISSING_ARGS');
  }
  const cloned = internal.clone(value);
  if (cloned.ok) return cloned.value;
  // The engine's clone may not take Error objects (SpiderMonkey 102 does
  // not): V8 does, keeping the name (a standard one, else "Error"), the
  // message and the stack, and nothing else of them.
  const viaErrors = cloneWithErrors(value, new Map());
  if (viaErrors.ok) return viaErrors.value;
  const where = internal.mode === 'browser' ? "Failed to execute 'structuredClone' on 'Window': " : '';
  throw new DOMException(where + uncloneableText(value) + ' could not be cloned.', 'DataCloneError');
}

const errorTypes = { Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError };

// A structured clone of a graph of plain objects, arrays, Maps, Sets and
// Error objects (shared and circular references kept); anything else
// goes to the engine's clone, one value at a time. { ok: false } when
// something cannot be cloned.
function cloneWithErrors(v, seen) {
  if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return { ok: typeof v !== 'symbol', value: v };
  if (seen.has(v)) return { ok: true, value: seen.get(v) };
  let out;
  const fill = [];
  if (v instanceof Error) {
    const Ctor = Object.prototype.hasOwnProperty.call(errorTypes, v.name) ? errorTypes[v.name] : Error;
    out = new Ctor();
    const own = Object.getOwnPropertyDescriptor(v, 'message');
    if (own && 'value' in own) {
      Object.defineProperty(out, 'message', { value: String(own.value), writable: true, configurable: true });
    }
    if (typeof v.stack === 'string') {
      Object.defineProperty(out, 'stack', { value: v.stack, writable: true, configurable: true });
    }
    seen.set(v, out);
    return { ok: true, value: out };
  }
  if (Array.isArray(v)) {
    out = new Array(v.length);
    for (const k of Object.keys(v)) fill.push([k, v[k]]);
  } else if (v instanceof Map) {
    out = new Map();
  } else if (v instanceof Set) {
    out = new Set();
  } else if (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null) {
    out = {};
    for (const k of Object.keys(v)) fill.push([k, v[k]]);
  } else {
    const c = internal.clone(v);
    if (c.ok) seen.set(v, c.value);
    return c;
  }
  seen.set(v, out);
  for (const [k, item] of fill) {
    const c = cloneWithErrors(item, seen);
    if (!c.ok) return c;
    out[k] = c.value;
  }
  if (v instanceof Map) {
    for (const [k, item] of v) {
      const ck = cloneWithErrors(k, seen);
      const cv = cloneWithErrors(item, seen);
      if (!ck.ok || !cv.ok) return { ok: false };
      out.set(ck.value, cv.value);
    }
  } else if (v instanceof Set) {
    for (const item of v) {
      const c = cloneWithErrors(item, seen);
      if (!c.ok) return c;
      out.add(c.value);
    }
  }
  return { ok: true, value: out };
}

// V8's name for the first value of `value` it could not clone.
function uncloneableText(value) {
  const bad = uncloneable(value, new Set());
  if (bad === undefined) return '#<Object>';
  if (typeof bad === 'symbol') return bad.toString();
  if (typeof bad === 'function') return String(bad);
  return '#<' + (bad.constructor && bad.constructor.name || 'Object') + '>';
}

function uncloneable(v, seen) {
  if (typeof v === 'function' || typeof v === 'symbol') return v;
  if (v === null || typeof v !== 'object' || seen.has(v)) return undefined;
  seen.add(v);
  if (v instanceof WeakMap || v instanceof WeakSet || v instanceof Promise) return v;
  const items = v instanceof Map ? [...v.keys(), ...v.values()] : v instanceof Set ? [...v] :
    Object.keys(v).map((k) => v[k]);
  for (const item of items) {
    const bad = uncloneable(item, seen);
    if (bad !== undefined) return bad;
  }
  return undefined;
}

// ---- TextEncoder and TextDecoder (UTF-8) ----------------------------------------------

class TextEncoder {
  get encoding() { return 'utf-8'; }
  encode(input = '') {
    return internal.utf8Encode(String(input));
  }
  encodeInto(src, dest) {
    const bytes = internal.utf8Encode(String(src));
    let read = 0;
    let written = 0;
    for (const ch of String(src)) {
      const cp = ch.codePointAt(0);
      const n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
      if (written + n > dest.length) break;
      dest.set(bytes.subarray(written, written + n), written);
      written += n;
      read += ch.length;
    }
    return { read, written };
  }
}

class TextDecoder {
  constructor(label = 'utf-8', options = {}) {
    const l = String(label).trim().toLowerCase();
    if (l !== 'utf-8' && l !== 'utf8' && l !== 'unicode-1-1-utf-8') {
      throw internal.codedError('RangeError', 'The "' + label + '" encoding is not supported',
        'ERR_ENCODING_NOT_SUPPORTED');
    }
    this.#fatal = !!options.fatal;
    this.#ignoreBOM = !!options.ignoreBOM;
  }
  #fatal;
  #ignoreBOM;
  get encoding() { return 'utf-8'; }
  get fatal() { return this.#fatal; }
  get ignoreBOM() { return this.#ignoreBOM; }
  decode(input = new Uint8Array(0)) {
    let bytes = input;
    if (input instanceof ArrayBuffer) bytes = new Uint8Array(input);
    else if (ArrayBuffer.isView(input)) bytes = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    else throw internal.argTypeError('input', current() ? 'an instance of ArrayBuffer or ArrayBufferView' : 'ArrayBuffer', input);
    let text = internal.utf8Decode(bytes, this.#fatal);
    if (text === null) {
      throw internal.codedError('TypeError', 'The encoded data was not valid for encoding utf-8',
        'ERR_ENCODING_INVALID_ENCODED_DATA');
    }
    if (!this.#ignoreBOM && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return text;
  }
}
function current() {
  return internal.mode === 'node';
}

module.exports = {
  DOMException, Event, EventTarget, AbortController, AbortSignal, structuredClone, TextEncoder,
  TextDecoder, abortSignal, uncloneableText,
};
// SPDX-License-Identifier: MIT
