// oracle: browser
// Ping-pong between two ports: every hop is a new posted-message task queued
// behind whatever is already queued, so a 0 ms timer queued before the second
// hop runs between hops 1 and 2 (HTML 8.1.7.3: tasks taken oldest first;
// Chromium orders the timer and messaging sources by queueing time).
const ch = new MessageChannel();
let hops = 0;
const bounce = (from, to) => (e) => {
  console.log(from, 'got', e.data);
  if (++hops < 6) to.postMessage(e.data + 1);
  else { ch.port1.close(); ch.port2.close(); setTimeout(() => console.log('END'), 0); }
};
ch.port1.onmessage = bounce('port1', ch.port1);
ch.port2.onmessage = bounce('port2', ch.port2);
ch.port2.postMessage(0);
setTimeout(() => console.log('timeout'), 0);
// SPDX-License-Identifier: MIT
