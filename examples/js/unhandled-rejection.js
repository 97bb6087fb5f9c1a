// An unhandled rejection: Node 10 and 11 print a warning on stderr and go
// on; Node 15+ (mode `node`) treat it as an uncaught exception and exit 1.
Promise.reject(new Error('nobody catches this'));
setTimeout(() => console.log('timer still runs'), 1);
console.log('main done');
// Let the timer be due when the loop starts, so that every run tells the
// same story.
const start = Date.now();
while (Date.now() - start < 3) {}
// SPDX-License-Identifier: MIT
