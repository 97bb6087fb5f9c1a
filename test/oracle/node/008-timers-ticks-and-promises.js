// oracle: node10 node11 node
// Each timer queues a promise job first and a nextTick second; ticks still run
// before promise jobs, and where the draining happens depends on the version.
for (const id of ['a', 'b', 'c']) {
  setTimeout(() => {
    console.log('timer', id);
    Promise.resolve().then(() => console.log('  promise', id));
    process.nextTick(() => console.log('  tick', id));
  }, 5);
}
const s = Date.now(); while (Date.now() - s < 20) {}
// SPDX-License-Identifier: MIT
