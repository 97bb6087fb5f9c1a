// oracle: browser
// MessagePort as Chromium runs it. A port reads one message per task: the
// task for the next message is queued as one is delivered, so a task
// queued meanwhile runs in between -- when start() (or setting onmessage)
// enables a port with messages waiting, and for messages posted to a
// started port that still has one to deliver. addEventListener('message')
// needs start(). close() on the sending side lets the messages already
// sent arrive; on the receiving side it drops them; a post to a closed
// port is dropped. What cannot be cloned throws a DataCloneError.
// The timers are 100 ms apart: with 5 ms, a loaded machine let Chromium
// start late enough that two of them were due at once.
const a = new MessageChannel();
a.port2.postMessage('before start 1');
a.port2.postMessage('before start 2');
setTimeout(() => console.log('timer 0 (set before start)'), 0);
const b = new MessageChannel();
b.port2.postMessage('b1');
b.port1.addEventListener('message', (e) => console.log('b listener', e.data));
setTimeout(() => {
  console.log('timer: start b now');
  b.port1.start();
  b.port2.postMessage('b2');
  setTimeout(() => console.log('timer after b start'), 0);
}, 100);
setTimeout(() => {
  console.log('timer: set a.onmessage');
  a.port1.onmessage = (e) => console.log('a onmessage', e.data);
  a.port2.postMessage('after start');
  setTimeout(() => console.log('timer after a start'), 0);
}, 200);
// close with messages in flight
setTimeout(() => {
  const c = new MessageChannel();
  c.port1.onmessage = (e) => console.log('c got', e.data);
  c.port2.postMessage('c1');
  c.port2.postMessage('c2');
  c.port2.close();
  console.log('c: sender closed after posting');
  const d = new MessageChannel();
  d.port1.onmessage = (e) => console.log('d got', e.data);
  d.port2.postMessage('d1');
  d.port1.close();
  console.log('d: receiver closed');
  const f = new MessageChannel();
  f.port1.onmessage = (e) => console.log('f got', e.data);
  f.port2.close();
  f.port2.postMessage('f after close');
  try { a.port2.postMessage(() => 1); } catch (e) { console.log(e.name, e.constructor.name, e.code, e.message); }
  try { a.port2.postMessage({ s: Symbol('q') }); } catch (e) { console.log(e.name, e.message); }
  try { a.port2.postMessage(); } catch (e) { console.log(e.name, e.message); }
  setTimeout(() => console.log('END'), 20);
}, 300);
// SPDX-License-Identifier: MIT
