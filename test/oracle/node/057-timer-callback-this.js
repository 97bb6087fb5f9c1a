// oracle: node10 node11 node
// Inside a function timer callback `this` is the Timeout object itself;
// for setInterval too. The objects are distinct per call.
const t = setTimeout(function () {
  console.log('timeout this is its Timeout:', this === t);
}, 2);
const iv = setInterval(function () {
  console.log('interval this is its Timeout:', this === iv);
  clearInterval(this);
}, 2);
console.log('distinct objects:', t !== iv, typeof t, typeof iv);
// SPDX-License-Identifier: MIT
