// oracle: node10 node11 node
// process.on('uncaughtException') takes exceptions thrown by a nextTick, a
// timer, an immediate and a microtask. After one, Node goes on as its
// callback machinery unwinds: a tick that threw leaves the other ticks
// (and the microtasks) for the next drain, after the next callback; the
// next timer of the same list runs without a drain before it; a timer
// list or immediate queue that threw goes on with the rest. The main
// script busy-waits so the first timers are due when the loop starts.
function spin(ms) {
  const end = Date.now() + ms;
  while (Date.now() < end);
}
process.on('uncaughtException', function (err) {
  console.log('caught', err.message, this === process);
});
setTimeout(() => {
  console.log('t1');
  throw new Error('timer t1');
}, 1);
setTimeout(() => console.log('t2 (same list)'), 1);
setTimeout(() => {
  console.log('t3 (2 ms list)');
  throw new Error('timer t3');
}, 2);
setTimeout(() => {
  console.log('t4 (3 ms list)');
  setImmediate(() => {
    console.log('i1');
    throw new Error('immediate i1');
  });
  setImmediate(() => console.log('i2'));
  setImmediate(() => {
    console.log('i3');
    process.nextTick(() => console.log('tick from i3'));
  });
  process.nextTick(() => console.log('tick from t4'));
}, 3);
process.nextTick(() => {
  throw new Error('tick 1');
});
process.nextTick(() => console.log('tick 2'));
Promise.resolve().then(() => console.log('microtask 1'));
Promise.resolve().then(() => {
  throw new Error('a rejection, not an exception');
}).catch((e) => console.log('rejected:', e.message));
Promise.resolve().then(() => console.log('microtask 3'));
spin(10);
// SPDX-License-Identifier: MIT
