// Two expired timers of one list, an immediate, a nextTick and promises:
// the trace shows which phase and which native callback printed each line.
setTimeout(() => {
  console.log('timer1');
  Promise.resolve().then(() => console.log('promise1'));
}, 1);
setTimeout(() => console.log('timer2'), 1);
setImmediate(() => console.log('immediate'));
process.nextTick(() => console.log('tick'));
console.log('main');
// The wait starts after the timers are set: a pause between a start
// taken before them and the setTimeout calls would use it up.
const start = Date.now();
while (Date.now() - start < 5) {}
// SPDX-License-Identifier: MIT
