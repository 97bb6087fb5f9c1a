// oracle: browser
// Messages posted from frame callbacks are tasks: they run after the whole
// frame (every callback and its microtasks), never between two callbacks of
// one frame (HTML 8.1.7.3: update the rendering is one step of one loop
// iteration).
const ch = new MessageChannel();
ch.port1.onmessage = (e) => {
  console.log('message', e.data);
  if (e.data === 'from raf 2') { ch.port1.close(); requestAnimationFrame(() => console.log('END')); }
};
requestAnimationFrame(() => {
  console.log('raf 1');
  ch.port2.postMessage('from raf 1');
  Promise.resolve().then(() => console.log('  microtask of raf 1'));
});
requestAnimationFrame(() => {
  console.log('raf 2');
  ch.port2.postMessage('from raf 2');
});
// SPDX-License-Identifier: MIT
