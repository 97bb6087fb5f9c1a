// oracle: node10 node11 node
// An interval and a timeout of the same duration share one list; in Node 10
// their promises wait until both ran, in Node 11+ they run after each.
let runs = 0;
const iv = setInterval(() => {
  runs += 1;
  console.log('interval', runs);
  Promise.resolve().then(() => console.log('  promise from interval', runs));
  if (runs === 3) clearInterval(iv);
}, 5);
setTimeout(() => {
  console.log('timeout');
  Promise.resolve().then(() => console.log('  promise from timeout'));
}, 5);
const s = Date.now(); while (Date.now() - s < 15) {}
// SPDX-License-Identifier: MIT
