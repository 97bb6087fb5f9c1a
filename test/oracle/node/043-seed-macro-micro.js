// oracle: node10 node11 node
// Seed 004's first example: the script, then its microtasks (a chain of two
// thens), then the timer.
setTimeout(function () {
  console.log('宏事件3');
}, 0);

new Promise((resolve) => {
  resolve(1);
  console.log('宏事件1');
}).then(function () {
  console.log('微事件1');
}).then(function () {
  console.log('微事件2');
});

console.log('宏事件2');
// SPDX-License-Identifier: MIT
