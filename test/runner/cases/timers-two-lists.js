// Timers of two lists (1 ms and 2 ms), all expired when the loop starts.
setTimeout(() => { console.log('t1'); Promise.resolve().then(() => console.log('p1')); }, 1);
setTimeout(() => { console.log('t2'); Promise.resolve().then(() => console.log('p2')); }, 2);
setTimeout(() => { console.log('t3'); Promise.resolve().then(() => console.log('p3')); }, 1);
// The wait starts after the timers are set: a pause between a start
// taken before them and the setTimeout calls would use it up.
const start = Date.now();
while (Date.now() - start < 10) {}
// SPDX-License-Identifier: MIT
