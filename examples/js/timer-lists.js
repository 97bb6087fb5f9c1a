// Timers with different delays live in different lists. Node 10 gives each
// list its own native callback, so it drains between lists but not between
// the timers of one list.
setTimeout(() => {
  console.log('1ms-a');
  Promise.resolve().then(() => console.log('promise after 1ms-a'));
}, 1);
setTimeout(() => {
  console.log('1ms-b');
  Promise.resolve().then(() => console.log('promise after 1ms-b'));
}, 1);
setTimeout(() => {
  console.log('2ms');
  Promise.resolve().then(() => console.log('promise after 2ms'));
}, 2);
// Make sure all three are due when the loop starts.
const start = Date.now();
while (Date.now() - start < 5) {}
// SPDX-License-Identifier: MIT
