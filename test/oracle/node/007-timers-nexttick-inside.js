// oracle: node10 node11 node
// nextTick queued inside timers of one duration: Node 10 runs the ticks after
// the whole list, Node 11+ after each timer.
for (const id of [1, 2, 3]) {
  setTimeout(() => {
    console.log('timer', id);
    process.nextTick(() => console.log('tick', id));
  }, 2);
}
const s = Date.now(); while (Date.now() - s < 15) {}
// SPDX-License-Identifier: MIT
