// node10 runs both due timers before the first one's promise job.
setTimeout(() => {
  console.log('timer1');
  Promise.resolve().then(() => console.log('promise1'));
}, 1);
setTimeout(() => console.log('timer2'), 1);
const start = Date.now();
while (Date.now() - start < 5) {}
// SPDX-License-Identifier: MIT
