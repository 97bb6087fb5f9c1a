// oracle: browser
// Seed 004's first browser example, verbatim: the Promise executor runs
// synchronously, the then-chain runs in the microtask checkpoint after the
// script task, the 0 ms timer is a later task (HTML 8.1.7.3, microtask
// checkpoint after each task; timer initialization steps queue a task).
// Seed's expected output: 宏事件1 宏事件2 微事件1 微事件2 宏事件3
setTimeout(function() {
  console.log('宏事件3');
}, 0);

new Promise((resolve) => {
  resolve(1)
  console.log('宏事件1')
}).then(function() {
  console.log('微事件1');
}).then(function() {
  console.log('微事件2');
});

console.log('宏事件2');
// Oracle end marker: runs after the timer above (same delay, FIFO).
setTimeout(() => console.log('END'), 0);
// SPDX-License-Identifier: MIT
