// oracle: browser
// When a port's messages get their tasks. Port a has messages 1, 2 and 3
// waiting; message 1's handler posts x to port b (idle: its task is queued
// at once), and a microtask of that handler posts y to b (b has a delivery
// queued: y waits). At the end of message 1's task (handler and
// checkpoint) port a queues one task for each message waiting, 2 and 3;
// y gets its task at the end of x's, after them. (Found by
// tools/fuzz-oracle.)
const a = new MessageChannel();
const b = new MessageChannel();
b.port1.onmessage = (e) => console.log('b got', e.data);
a.port1.onmessage = (e) => {
  console.log('a got', e.data);
  if (e.data === 1) {
    b.port2.postMessage('x, posted by the handler');
    Promise.resolve().then(() => b.port2.postMessage('y, posted by its microtask'));
  }
  if (e.data === 3) setTimeout(() => console.log('END'), 30);
};
a.port2.postMessage(1);
a.port2.postMessage(2);
a.port2.postMessage(3);
// SPDX-License-Identifier: MIT
