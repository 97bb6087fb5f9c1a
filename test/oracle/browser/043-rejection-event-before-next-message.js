// oracle: browser
// The 'unhandledrejection' event's task is queued by the microtask
// checkpoint after the task that left the rejection; a port's next message
// gets its task only after that checkpoint, so the event comes first. (The
// timer, due since the script ran, comes before both.) (Found by
// tools/fuzz-oracle.)
window.onunhandledrejection = (e) => {
  console.log('unhandledrejection', e.reason.message);
  e.preventDefault();
};
const ch = new MessageChannel();
ch.port1.onmessage = (e) => {
  console.log('message', e.data);
  if (e.data === 1) {
    Promise.reject(new Error('r1'));
    Promise.resolve().then(() => console.log('microtask after r1'));
  }
  if (e.data === 3) setTimeout(() => console.log('END'), 30);
};
ch.port2.postMessage(1);
ch.port2.postMessage(2);
setTimeout(() => {
  console.log('timeout');
  Promise.reject(new Error('r2'));
  ch.port2.postMessage(3);
}, 0);
// SPDX-License-Identifier: MIT
