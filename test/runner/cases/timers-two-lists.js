// Timers of two lists (1 ms and 2 ms), all expired when the loop starts.
const start = Date.now();
setTimeout(() => { console.log('t1'); Promise.resolve().then(() => console.log('p1')); }, 1);
setTimeout(() => { console.log('t2'); Promise.resolve().then(() => console.log('p2')); }, 2);
setTimeout(() => { console.log('t3'); Promise.resolve().then(() => console.log('p3')); }, 1);
while (Date.now() - start < 10) {}
