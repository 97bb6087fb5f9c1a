// oracle: browser
// Expired timers run by due time, not creation order: a 1 ms timer created
// first still runs after later 0 ms ones, because Chromium has no 1 ms
// minimum for setTimeout(0) (HTML timer initialization steps: a negative or
// missing timeout becomes 0; timers with equal timeouts keep creation order).
// The busy loop makes every timer expired before the script task ends.
// Different non-zero delays here are at least 9 ms apart: once, in a freshly
// started browser, a 2 ms timer created before a 1 ms one ran first.
setTimeout(() => console.log('delay 10'), 10);
setTimeout(() => console.log('delay 1'), 1);
setTimeout(() => console.log('delay 0 a'), 0);
setTimeout(() => console.log('delay -1 (0)'), -1);
setTimeout(() => console.log('delay missing (0)'));
setTimeout(() => console.log('delay 0 b'), 0);
setTimeout(() => console.log('delay "1"'), '1');
const s = performance.now(); while (performance.now() - s < 15) {}
setTimeout(() => console.log('END'), 5);
// SPDX-License-Identifier: MIT
