// Objects only the event loop holds (timers, immediates, ticks, microtasks,
// fs callbacks) survive garbage collections. With `phaseloop run
// --expose-gc` (or `node --expose-gc`) gc() runs between every step.
const collect = () => {
  for (let i = 0; i < 2000; i++) ({ a: [i] });
  if (typeof gc === 'function') gc();
};
setTimeout(() => { collect(); console.log('timeout'); }, 1);
const iv = setInterval(() => { collect(); console.log('interval'); clearInterval(iv); collect(); }, 1);
setImmediate(() => {
  collect();
  console.log('immediate');
  setImmediate(() => { collect(); console.log('immediate 2'); });
});
process.nextTick(() => { collect(); console.log('tick'); });
Promise.resolve().then(() => { collect(); console.log('promise'); });
setTimeout(() => {
  const t = setTimeout(() => console.log('never'), 5);
  clearTimeout(t);
  collect();
  setTimeout(() => {
    collect();
    require('fs').readFile(__filename, 'utf8', (e, d) => { collect(); console.log('read', d.length > 0); });
  }, 1);
}, 2);
const u = setTimeout(() => console.log('unref never'), 1000);
u.unref();
collect();
// The wait starts after the timers are set: a pause between a start
// taken before them and the setTimeout calls would use it up.
const start = Date.now();
while (Date.now() - start < 5) {}
// SPDX-License-Identifier: MIT
