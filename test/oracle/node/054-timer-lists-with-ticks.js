// oracle: node10 node11 node
// Two lists (2 ms and 4 ms) of two due timers each, every timer queueing a
// tick. Node 10 drains between lists only, Node 11+ after every timer.
for (const ms of [2, 4]) {
  for (const n of [1, 2]) {
    setTimeout(() => {
      console.log('timer', ms + 'ms', '#' + n);
      process.nextTick(() => console.log('  tick', ms + 'ms', '#' + n));
    }, ms);
  }
}
const s = Date.now(); while (Date.now() - s < 20) {}
// SPDX-License-Identifier: MIT
