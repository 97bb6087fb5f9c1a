// A message to a port never started is never delivered; the run ends.
const ch = new MessageChannel();
ch.port2.postMessage('nobody listens');
setTimeout(() => console.log('timer'), 1);
console.log('posted');
// SPDX-License-Identifier: MIT
