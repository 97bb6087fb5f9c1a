// An open, started port does not keep the page alive.
const ch = new MessageChannel();
ch.port1.onmessage = (e) => console.log('got', e.data);
ch.port2.onmessage = (e) => console.log('got', e.data);
setTimeout(() => console.log('timer'), 1);
console.log('open');
// SPDX-License-Identifier: MIT
