// oracle: node10 node11 node
// unref then ref again: the timer keeps the loop alive and fires. A timer
// unref'd from another callback stops keeping the loop alive.
const t = setTimeout(() => console.log('re-ref\'d timer fired'), 10);
console.log('ref returns the timer:', t.unref().ref() === t);
const doomed = setTimeout(() => console.log('doomed (must not run)'), 3000);
setTimeout(() => {
  console.log('unref the 3000 ms timer');
  doomed.unref();
}, 20);
// SPDX-License-Identifier: MIT
