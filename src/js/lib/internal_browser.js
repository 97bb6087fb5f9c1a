// Run once before a page's script (--mode=browser): window as an
// EventTarget with the events Chromium fires on it -- 'error' (ErrorEvent,
// with window.onerror's five arguments), 'unhandledrejection' and
// 'rejectionhandled' (PromiseRejectionEvent), 'message' (MessageEvent,
// from window.postMessage) -- their on... handlers, and the platform
// classes: Event, EventTarget, DOMException, AbortController, AbortSignal,
// structuredClone. The window engine (window.cpp) calls the internal.*
// functions below. Checked against Chromium (test/oracle/browser/036-*).
'use strict';

const web = require('internal/web');
const { Event, EventTarget, DOMException } = web;
const global = Function('return this')();

class ErrorEvent extends Event {
  #init;
  constructor(type, init = {}) {
    super(type, init);
    this.#init = init;
  }
  get message() { return this.#init.message === undefined ? '' : String(this.#init.message); }
  get filename() { return this.#init.filename === undefined ? '' : String(this.#init.filename); }
  get lineno() { return this.#init.lineno >>> 0; }
  get colno() { return this.#init.colno >>> 0; }
  get error() { return this.#init.error; }
}

class PromiseRejectionEvent extends Event {
  #init;
  constructor(type, init) {
    if (init === undefined || init === null || !('promise' in init)) {
      throw new TypeError("Failed to construct 'PromiseRejectionEvent': Failed to read the 'promise' " +
        "property from 'PromiseRejectionEventInit': Required member is undefined.");
    }
    super(type, init);
    this.#init = init;
  }
  get promise() { return this.#init.promise; }
  get reason() { return this.#init.reason; }
}

class MessageEvent extends Event {
  #init;
  constructor(type, init = {}) {
    super(type, init);
    this.#init = init;
  }
  get data() { return this.#init.data === undefined ? null : this.#init.data; }
  get origin() { return this.#init.origin === undefined ? '' : String(this.#init.origin); }
  get lastEventId() { return this.#init.lastEventId === undefined ? '' : String(this.#init.lastEventId); }
  get source() { return this.#init.source === undefined ? null : this.#init.source; }
  get ports() { return Object.freeze((this.#init.ports || []).slice()); }
}

// ---- window is an EventTarget -------------------------------------------------------

function Window() {
  throw new TypeError('Illegal constructor');
}
Window.prototype = Object.create(EventTarget.prototype, {
  constructor: { value: Window, writable: true, configurable: true },
  [Symbol.toStringTag]: { value: 'Window', configurable: true },
});
Object.setPrototypeOf(global, Window.prototype);

// Event handler attributes (HTML's "event handler IDL attributes"): the
// first handler set adds a listener to `target` at that point of its list;
// later ones replace the handler in place; null turns it off. Returns the
// attribute's accessors.
function handlerAttribute(target, name, call) {
  let handler = null;
  let registered = false;
  const listener = function (event) {
    if (typeof handler !== 'function') return;
    const result = call(handler, this, event);
    if (result === (name === 'onerror' ? true : false)) event.preventDefault();
  };
  return {
    get() { return handler; },
    set(v) {
      handler = typeof v === 'function' || (v !== null && typeof v === 'object') ? v : null;
      if (handler && !registered) {
        registered = true;
        EventTarget.prototype.addEventListener.call(target, name.slice(2), listener);
      }
    },
  };
}
const callHandler = (h, self, e) => h.call(self, e);
function defineHandler(target, name, call) {
  Object.defineProperty(target, name, { enumerable: true, configurable: true,
    ...handlerAttribute(target, name, call) });
}
defineHandler(global, 'onerror', (h, self, e) =>
  (e instanceof ErrorEvent ? h.call(self, e.message, e.filename, e.lineno, e.colno, e.error) : h.call(self, e)));
for (const name of ['onmessage', 'onmessageerror', 'onunhandledrejection', 'onrejectionhandled']) {
  defineHandler(global, name, callHandler);
}

// ---- MessagePort is an EventTarget ------------------------------------------------------

// Its methods are native (window_api.cpp); EventTarget's come through the
// prototype chain, and onmessage is an event handler attribute (one per
// port, made when first set) whose setter also starts the port
// (addEventListener needs start()).
Object.setPrototypeOf(MessagePort.prototype, EventTarget.prototype);
const portHandlers = new WeakMap();
Object.defineProperty(MessagePort.prototype, 'onmessage', {
  enumerable: true,
  configurable: true,
  get() {
    const h = portHandlers.get(this);
    return h ? h.get() : null;
  },
  set(v) {
    if (!portHandlers.has(this)) portHandlers.set(this, handlerAttribute(this, 'onmessage', callHandler));
    portHandlers.get(this).set(v);
    if (typeof v === 'function') this.start();
  },
});

// A message taken off a port (window_api.cpp's deliver).
internal.dispatchPortMessage = function dispatchPortMessage(port, data) {
  port.dispatchEvent(trusted(new MessageEvent('message', { data, origin: '', source: null, ports: [] })));
};

// The DataCloneError of a postMessage (`where` names the method).
internal.dataCloneError = function dataCloneError(value, where) {
  return new DOMException(where + web.uncloneableText(value) + ' could not be cloned.', 'DataCloneError');
};

// ---- window.postMessage -------------------------------------------------------------

const origin = 'null';
global.postMessage = function postMessage(message, targetOrigin, transfer) {
  if (arguments.length === 0) {
    throw new TypeError("Failed to execute 'postMessage' on 'Window': 1 argument required, but only 0 present.");
  }
  let target = targetOrigin;
  if (targetOrigin !== null && typeof targetOrigin === 'object') target = targetOrigin.targetOrigin;
  if (target === undefined) target = '/';
  target = String(target);
  if (target !== '*' && target !== '/' && target !== origin && !/^[a-z][a-z0-9+.-]*:/i.test(target)) {
    throw new DOMException("Failed to execute 'postMessage' on 'Window': Invalid target origin '" + target +
      "' in a call to 'postMessage'.", 'SyntaxError');
  }
  const cloned = internal.clone(message);
  if (!cloned.ok) {
    throw new DOMException("Failed to execute 'postMessage' on 'Window': " + web.uncloneableText(message) +
      ' could not be cloned.', 'DataCloneError');
  }
  const data = cloned.value;
  internal.postTask(() => {
    const event = new MessageEvent('message', { data, origin: 'null', source: global, ports: [] });
    Object.defineProperty(event, 'isTrusted', { value: true, enumerable: true });
    global.dispatchEvent(event);
  });
};

// ---- what the engine calls ---------------------------------------------------------

function trusted(event) {
  Object.defineProperty(event, 'isTrusted', { value: true, enumerable: true });
  return event;
}

// "Report an exception": true when a listener (or onerror returning true)
// canceled it.
internal.dispatchError = function dispatchError(message, filename, lineno, colno, error) {
  const event = trusted(new ErrorEvent('error', { message, filename, lineno, colno, error, cancelable: true }));
  return !global.dispatchEvent(event);
};

// The rejections a microtask checkpoint left without a handler, in a task
// of their own: the reasons of those not canceled, to be reported.
internal.notifyRejections = function notifyRejections(promises, reasons) {
  const uncanceled = [];
  for (let i = 0; i < promises.length; i++) {
    const event = trusted(new PromiseRejectionEvent('unhandledrejection',
      { promise: promises[i], reason: reasons[i], cancelable: true }));
    if (global.dispatchEvent(event)) uncanceled.push(i);
  }
  return uncanceled;
};

internal.rejectionHandled = function rejectionHandled(promise, reason) {
  global.dispatchEvent(trusted(new PromiseRejectionEvent('rejectionhandled', { promise, reason })));
};

// ---- the globals -------------------------------------------------------------------

for (const [name, value] of Object.entries({
  Event, EventTarget, DOMException, ErrorEvent, PromiseRejectionEvent, MessageEvent, Window,
  AbortController: web.AbortController, AbortSignal: web.AbortSignal, structuredClone: web.structuredClone,
  TextEncoder: web.TextEncoder, TextDecoder: web.TextDecoder,
})) {
  Object.defineProperty(global, name, { value, writable: true, configurable: true });
}
// SPDX-License-Identifier: MIT
