// Nothing is delivered to or from a closed port.
const ch = new MessageChannel();
ch.port1.onmessage = (e) => console.log('delivered', e.data);
ch.port1.close();
ch.port2.postMessage('to a closed port');
ch.port1.postMessage('from a closed port');
console.log('posted');
// SPDX-License-Identifier: MIT
