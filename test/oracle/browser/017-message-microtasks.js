// oracle: browser
// Each message is its own task on the posted-message task source with its own
// microtask checkpoint (HTML 8.1.7.3; MessagePort postMessage queues a task).
// A message posted from a handler goes behind the messages already queued.
const ch = new MessageChannel();
let count = 0;
ch.port1.onmessage = (e) => {
  console.log('message', e.data);
  Promise.resolve().then(() => console.log('  microtask of', e.data));
  queueMicrotask(() => console.log('  queueMicrotask of', e.data));
  if (e.data === 'a') ch.port2.postMessage('from a');
  if (++count === 4) { ch.port1.close(); setTimeout(() => console.log('END'), 0); }
};
ch.port2.postMessage('a');
ch.port2.postMessage('b');
ch.port2.postMessage('c');
// SPDX-License-Identifier: MIT
