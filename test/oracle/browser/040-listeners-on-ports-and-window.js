// oracle: browser
// Listeners of a MessagePort and of window: a once listener, listeners
// and the onmessage attribute in the order added (event.target and
// currentTarget the port), removeEventListener and onmessage = null (a
// message nobody listens to is dropped), window.postMessage from a
// message listener queued behind a timer set before it.
const ch = new MessageChannel();
const seen = (tag) => (e) => console.log(tag, e.data, e.target === ch.port1, e.currentTarget === ch.port1);
ch.port1.addEventListener('message', seen('once'), { once: true });
const keep = seen('keep');
ch.port1.addEventListener('message', keep);
ch.port1.onmessage = seen('onmessage');
ch.port2.postMessage('a');
ch.port2.postMessage('b');
setTimeout(() => {
  ch.port1.removeEventListener('message', keep);
  ch.port1.onmessage = null;
  ch.port2.postMessage('c (nobody listens)');
  window.addEventListener('message', function handler(e) {
    console.log('window got', e.data);
    if (e.data === 'first') window.postMessage('second', '*');
    else { window.removeEventListener('message', handler); setTimeout(() => console.log('END'), 20); }
  });
  window.postMessage('first', '*');
  setTimeout(() => console.log('timer after first post'), 0);
}, 300);  // long enough for both messages on a loaded machine
// SPDX-License-Identifier: MIT
