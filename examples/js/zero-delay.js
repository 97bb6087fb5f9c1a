// setTimeout(f, 0) is not the same in Node and in a browser. Node raises
// every delay below 1 ms to 1 ms, so both timers below share the 1 ms list
// and run in creation order. A browser (Chromium since the 1 ms minimum was
// dropped, and the HTML standard) keeps 0 as 0: the 0 ms timer is due first.
// Both agree on the rest: the script, then its microtasks, then the timers.
setTimeout(() => console.log('setTimeout 1 ms'), 1);
setTimeout(() => console.log('setTimeout 0 ms'), 0);
Promise.resolve().then(() => console.log('microtask'));
console.log('script');

// Both timers are due before the loop first looks at them, whatever the
// machine's speed (so the step each line came from is the same every run).
const start = Date.now();
while (Date.now() - start < 5) {}
// SPDX-License-Identifier: MIT
