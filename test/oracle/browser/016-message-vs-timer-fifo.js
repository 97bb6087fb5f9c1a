// oracle: browser
// Posted messages and 0 ms timers queued in one task run in the order they
// were queued: Chromium selects between the timer and posted-message task
// sources by age (HTML 8.1.7.3 step 1 leaves the choice of task queue to the
// user agent; order within one source is always kept). The script's
// microtasks run first. END comes 500 ms later: with 20 ms, a loaded
// machine paused the runner long enough between two messages that the END
// timer was due before the third message's task was queued (one message
// per task, the next queued as one is taken: 039), and closed the port
// first.
const ch = new MessageChannel();
ch.port1.onmessage = (e) => console.log('message', e.data);
setTimeout(() => console.log('timeout 1'), 0);
ch.port2.postMessage(1);
setTimeout(() => console.log('timeout 2'), 0);
ch.port2.postMessage(2);
ch.port2.postMessage(3);
Promise.resolve().then(() => console.log('microtask'));
setTimeout(() => { ch.port1.close(); console.log('END'); }, 500);
// SPDX-License-Identifier: MIT
