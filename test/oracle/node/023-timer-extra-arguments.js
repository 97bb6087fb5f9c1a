// oracle: node10 node11 node
// setTimeout, setInterval and setImmediate pass extra arguments on. The
// busy-wait makes the timers due before the loop starts, so they run first.
setTimeout((a, b) => console.log('timeout got', a, b), 2, 'alpha', 'beta');
setTimeout((...xs) => console.log('timeout got', xs.length, 'args'), 2, 1, 2, 3, 4, 5);
let runs = 0;
const iv = setInterval((tag, step) => {
  runs += 1;
  console.log('interval got', tag, step * runs);
  if (runs === 2) clearInterval(iv);
}, 4, 'tag', 10);
setImmediate((x) => console.log('immediate got', x), 42);
setImmediate((...xs) => console.log('immediate got', xs.join('+')), 'a', 'b', 'c', 'd');
const s = Date.now(); while (Date.now() - s < 10) {}
// SPDX-License-Identifier: MIT
