// --trace: a timer task and the microtask checkpoint after it.
console.log('script');
setTimeout(() => {
  console.log('timer');
  Promise.resolve().then(() => console.log('promise'));
}, 0);
// SPDX-License-Identifier: MIT
