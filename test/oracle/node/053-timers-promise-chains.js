// oracle: node10 node11 node
// Each timer starts a three-step promise chain. Node 11+ finishes a chain
// before the next timer; Node 10 interleaves the chains after both timers.
for (const id of ['t1', 't2']) {
  setTimeout(() => {
    console.log(id);
    Promise.resolve()
      .then(() => console.log('  ' + id + ' step 1'))
      .then(() => console.log('  ' + id + ' step 2'))
      .then(() => console.log('  ' + id + ' step 3'));
  }, 3);
}
const s = Date.now(); while (Date.now() - s < 15) {}
// SPDX-License-Identifier: MIT
