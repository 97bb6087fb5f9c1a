// oracle: browser
// Idle callbacks run only in an idle period, which starts when no task is
// runnable and the microtask queue is empty (HTML 8.1.7.3 step "start an idle
// period"; requestIdleCallback "start an idle period" algorithm), so after
// the 0 ms timer and the message; two callbacks requested together run in
// one idle period, in order. timeRemaining() is within (0, 50].
const ch = new MessageChannel();
ch.port1.onmessage = () => console.log('message');
requestIdleCallback((d) => {
  const r = d.timeRemaining();
  console.log('idle 1, didTimeout', d.didTimeout, 'remaining in (0, 50]', r > 0 && r <= 50);
});
requestIdleCallback((d) => {
  console.log('idle 2, didTimeout', d.didTimeout);
  ch.port1.close();
  setTimeout(() => console.log('END'), 0);
});
setTimeout(() => console.log('timeout'), 0);
ch.port2.postMessage(0);
Promise.resolve().then(() => console.log('microtask'));
// SPDX-License-Identifier: MIT
