// oracle: browser
// The script, each timer, each message and each frame callback are separate
// units, each followed by its own microtask checkpoint; nothing of a later
// unit starts before the earlier unit's microtasks are done (HTML 8.1.7.3
// step "perform a microtask checkpoint"; clean up after running script).
const ch = new MessageChannel();
const chain = (label) => Promise.resolve()
  .then(() => console.log('  ' + label + ' microtask 1'))
  .then(() => console.log('  ' + label + ' microtask 2'));
ch.port1.onmessage = () => {
  console.log('message');
  chain('message');
  ch.port1.close();
  requestAnimationFrame(() => {
    console.log('raf');
    chain('raf');
    setTimeout(() => console.log('END'), 0);
  });
};
setTimeout(() => { console.log('timer'); chain('timer'); ch.port2.postMessage(0); }, 0);
console.log('script');
chain('script');
// SPDX-License-Identifier: MIT
