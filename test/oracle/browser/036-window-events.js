// oracle: browser
// window is an EventTarget and fires what Chromium fires on it: 'error'
// (an ErrorEvent; listeners and window.onerror in the order they were
// added, onerror returning true cancels), 'unhandledrejection' in a task
// of its own after the checkpoint that left the rejection (none if a
// handler came first), 'rejectionhandled' when a reported one gets a
// handler later, and 'message' from window.postMessage (a MessageEvent
// with a structured clone, in a task queued when it was posted).
console.log(typeof window.addEventListener, window instanceof EventTarget, typeof Event, typeof MessageEvent,
  typeof PromiseRejectionEvent, typeof ErrorEvent, typeof structuredClone, typeof AbortController,
  typeof AbortSignal.timeout, typeof DOMException);
window.addEventListener('error', (e) => {
  console.log('error event', e.constructor.name, e.message, e.error && e.error.message, typeof e.filename,
    e.lineno > 0, e.cancelable, e.isTrusted);
});
window.onerror = (m) => {
  console.log('onerror', m);
  return true;
};
window.onunhandledrejection = (e) => console.log('onunhandledrejection', String(e.reason));
window.addEventListener('unhandledrejection', (e) => {
  console.log('unhandledrejection', e.constructor.name, e.reason instanceof Error ? e.reason.message : e.reason,
    e.promise instanceof Promise, e.cancelable);
  e.preventDefault();
  // Set once r3 is reported, not 20 ms after the start: on a loaded
  // machine the start took longer and the timer came before the report.
  if (e.reason === 'r3') {
    setTimeout(() => {
      console.log('timer 3');
      p3.catch(() => console.log('r3 caught late'));
    }, 20);
  }
});
window.addEventListener('rejectionhandled', (e) => {
  console.log('rejectionhandled', String(e.reason), e.constructor.name, e.cancelable);
  setTimeout(end, 0);
});
const sent = { a: [1, 2] };
window.addEventListener('message', (e) => console.log('message', e.constructor.name, JSON.stringify(e.data),
  e.data === sent, typeof e.origin, e.source === window, e.ports.length, e.isTrusted));
window.onmessage = (e) => console.log('onmessage', JSON.stringify(e.data));
const p = Promise.reject('r1');
setTimeout(() => {
  console.log('timer 0');
  p.catch(() => console.log('r1 caught before its notification'));
}, 0);
Promise.resolve().then(() => console.log('microtask'));
window.postMessage(sent, '*');
sent.a.push(3);
setTimeout(() => {
  console.log('timer 1');
  throw new Error('thrown');
}, 0);
let p3;
setTimeout(() => {
  window.postMessage('m2', '*');
  Promise.reject(new Error('r2'));
  p3 = Promise.reject('r3');
  console.log('timer 2');
}, 0);
// Last, once r3's late handler was reported (a timer set up front came
// first on loaded machines).
function end() {
  try {
    window.postMessage(() => {}, '*');
  } catch (e) {
    console.log(e.name, e.constructor.name, e.code);
  }
  console.log('END');
}
console.log('main end');
// SPDX-License-Identifier: MIT
