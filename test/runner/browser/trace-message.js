// --trace: a posted-message task.
const ch = new MessageChannel();
ch.port1.onmessage = (e) => console.log('message', e.data);
ch.port2.postMessage('hi');
// SPDX-License-Identifier: MIT
