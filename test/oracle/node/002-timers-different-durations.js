// oracle: node10 node11 node
// Timers with different durations fire by expiry, not by creation order.
// The durations are 100 ms apart so that even a main module stalled by a
// busy machine cannot swap two of them.
setTimeout(() => console.log('300 ms'), 300);
setTimeout(() => console.log('100 ms'), 100);
setTimeout(() => console.log('400 ms'), 400);
setTimeout(() => console.log('200 ms'), 200);
console.log('scheduled four timers');
// SPDX-License-Identifier: MIT
