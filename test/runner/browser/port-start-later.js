// Messages wait in a port until start(), then arrive in order.
const ch = new MessageChannel();
ch.port2.postMessage('one');
ch.port2.postMessage('two');
setTimeout(() => {
  ch.port1.start();
  ch.port1.onmessage = (e) => console.log('got', e.data);
  console.log('started');
}, 5);
// SPDX-License-Identifier: MIT
