// oracle: node10 node11 node
// From a timer callback, setImmediate runs before setTimeout(0), even when
// the new timer is already due: the check phase comes first.
setTimeout(() => {
  console.log('timer');
  setTimeout(() => console.log('timeout from timer'), 0);
  setImmediate(() => console.log('immediate from timer'));
  const s = Date.now(); while (Date.now() - s < 5) {}
}, 1);
// SPDX-License-Identifier: MIT
