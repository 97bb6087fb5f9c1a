// oracle: browser
// Posted messages and 0 ms timers queued in one task run in the order they
// were queued: Chromium selects between the timer and posted-message task
// sources by age (HTML 8.1.7.3 step 1 leaves the choice of task queue to the
// user agent; order within one source is always kept). The script's
// microtasks run first.
const ch = new MessageChannel();
ch.port1.onmessage = (e) => console.log('message', e.data);
setTimeout(() => console.log('timeout 1'), 0);
ch.port2.postMessage(1);
setTimeout(() => console.log('timeout 2'), 0);
ch.port2.postMessage(2);
ch.port2.postMessage(3);
Promise.resolve().then(() => console.log('microtask'));
setTimeout(() => { ch.port1.close(); console.log('END'); }, 20);
