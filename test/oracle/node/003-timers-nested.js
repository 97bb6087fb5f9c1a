// oracle: node10 node11 node
// A timer created inside a timer callback never runs in the same timers pass,
// even with a 0 ms delay: the sibling timer that was already due goes first.
setTimeout(() => {
  console.log('outer A');
  setTimeout(() => {
    console.log('inner A1');
    setTimeout(() => console.log('inner A1a'), 0);
  }, 0);
}, 5);
setTimeout(() => console.log('outer B'), 5);
const s = Date.now(); while (Date.now() - s < 20) {}
// SPDX-License-Identifier: MIT
