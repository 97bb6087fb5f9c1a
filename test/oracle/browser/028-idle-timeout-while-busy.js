// oracle: browser
// While tasks are always runnable (a message ping-pong for 150 ms) no idle
// period starts; an idle callback with {timeout: 20} is then run by its
// timeout task with didTimeout true and timeRemaining() 0 (requestIdleCallback
// "invoke idle callback timeout" algorithm). The one without a timeout waits
// for the first real idle period, after the busy stretch.
const ch = new MessageChannel();
const start = performance.now();
requestIdleCallback((d) => console.log('idle with timeout: didTimeout', d.didTimeout, 'remaining', d.timeRemaining()), { timeout: 20 });
requestIdleCallback((d) => {
  console.log('idle without timeout: didTimeout', d.didTimeout);
  setTimeout(() => console.log('END'), 0);
});
ch.port1.onmessage = () => {
  if (performance.now() - start < 150) ch.port2.postMessage(0);
  else { ch.port1.close(); console.log('busy stretch over'); }
};
ch.port2.postMessage(0);
// SPDX-License-Identifier: MIT
