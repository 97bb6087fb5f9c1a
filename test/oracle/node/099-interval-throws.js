// oracle: node10 node11 node
// An interval's callback throws and an 'uncaughtException' listener takes
// the error: Node 10 re-arms an interval only after its callback returns,
// so this one ends there; Node 11 and later re-arm it all the same.
// (Found by tools/fuzz-oracle, node10 seed 1901.)
process.on('uncaughtException', (e) => console.log('uncaughtException:', e.message));
let n = 0;
const iv = setInterval(() => {
  n++;
  console.log('interval run', n);
  if (n === 1) throw new Error('from the first run');
  if (n >= 3) clearInterval(iv);
}, 10);
setTimeout(() => console.log('a timeout at 100 ms'), 100);
// SPDX-License-Identifier: MIT
