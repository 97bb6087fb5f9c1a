// A promise job after a timer task: compare names the page's step.
setTimeout(() => console.log('a'), 1);
setTimeout(() => Promise.resolve().then(() => console.log('b')), 0);
// SPDX-License-Identifier: MIT
