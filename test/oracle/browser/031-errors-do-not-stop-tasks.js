// oracle: browser
// An exception thrown by a task's callback or by a microtask is reported
// (window.onerror here prints a fixed line and returns true) and the loop goes
// on: the task's microtasks still run, later microtasks and tasks still run
// (HTML "report the exception"; 8.1.7.3 continues with the checkpoint).
window.onerror = () => { console.log('onerror'); return true; };
setTimeout(() => {
  console.log('timer 1 throws');
  Promise.resolve().then(() => console.log('  microtask of timer 1'));
  throw new Error('from timer 1');
}, 0);
setTimeout(() => console.log('timer 2'), 0);
queueMicrotask(() => { console.log('microtask 1 throws'); throw new Error('from microtask 1'); });
queueMicrotask(() => console.log('microtask 2'));
setTimeout(() => console.log('END'), 0);
// SPDX-License-Identifier: MIT
