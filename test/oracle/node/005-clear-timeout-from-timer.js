// oracle: node10 node11 node
// A timer clears other pending timers: one with a later duration and one with
// the same duration that is due in the same pass. Neither runs.
let later = null;
let sameList = null;
setTimeout(() => {
  console.log('A clears B and C');
  clearTimeout(sameList);
  clearTimeout(later);
}, 5);
sameList = setTimeout(() => console.log('C (must not run)'), 5);
setTimeout(() => console.log('D still runs'), 5);
later = setTimeout(() => console.log('B (must not run)'), 40);
setTimeout(() => console.log('E at 60 ms'), 60);
const s = Date.now(); while (Date.now() - s < 20) {}
// SPDX-License-Identifier: MIT
