// oracle: browser
// MessagePort as Chromium runs it. A port reads one message per task: the
// task for the next message is queued as one is delivered, so a task
// queued meanwhile runs in between -- when start() (or setting onmessage)
// enables a port with messages waiting, and for messages posted to a
// started port that still has one to deliver. addEventListener('message')
// needs start(). close() on the sending side lets the messages already
// sent arrive; on the receiving side it drops them; a post to a closed
// port is dropped. What cannot be cloned throws a DataCloneError.
// Each stage starts from a 0 ms timer set when the last line the stage
// before expects has been printed, so nothing of one stage is pending when
// the next begins. (Stages on timers 100 ms apart were not enough: a
// loaded machine stalled one side long enough that two were due at once.)
let left = 0;
let nextStage = null;
function say(line) {
  console.log(line);
  if (nextStage && --left === 0) {
    const stage = nextStage;
    nextStage = null;
    setTimeout(stage, 0);
  }
}
function after(lines, stage) { left = lines; nextStage = stage; }

const a = new MessageChannel();
a.port2.postMessage('before start 1');
a.port2.postMessage('before start 2');
const b = new MessageChannel();
b.port2.postMessage('b1');
b.port1.addEventListener('message', (e) => say('b listener ' + e.data));
// Not started: b1 and a's two messages wait; the timer runs.
after(1, startB);
setTimeout(() => say('timer 0 (set before start)'), 0);

function startB() {
  console.log('timer: start b now');
  b.port1.start();
  b.port2.postMessage('b2');
  after(3, startA);  // b1, b2, the timer
  setTimeout(() => say('timer after b start'), 0);
}

function startA() {
  console.log('timer: set a.onmessage');
  after(4, closing);  // three messages, the timer
  a.port1.onmessage = (e) => say('a onmessage ' + e.data);
  a.port2.postMessage('after start');
  setTimeout(() => say('timer after a start'), 0);
}

// close with messages in flight
function closing() {
  after(2, () => setTimeout(() => console.log('END'), 20));  // c1, c2
  const c = new MessageChannel();
  c.port1.onmessage = (e) => say('c got ' + e.data);
  c.port2.postMessage('c1');
  c.port2.postMessage('c2');
  c.port2.close();
  console.log('c: sender closed after posting');
  const d = new MessageChannel();
  d.port1.onmessage = (e) => say('d got ' + e.data);
  d.port2.postMessage('d1');
  d.port1.close();
  console.log('d: receiver closed');
  const f = new MessageChannel();
  f.port1.onmessage = (e) => say('f got ' + e.data);
  f.port2.close();
  f.port2.postMessage('f after close');
  try { a.port2.postMessage(() => 1); } catch (e) { console.log(e.name, e.constructor.name, e.code, e.message); }
  try { a.port2.postMessage({ s: Symbol('q') }); } catch (e) { console.log(e.name, e.message); }
  try { a.port2.postMessage(); } catch (e) { console.log(e.name, e.message); }
}
// SPDX-License-Identifier: MIT
