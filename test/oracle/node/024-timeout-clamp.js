// oracle: node10 node11 node
// 0, negative, NaN, missing, non-numeric and too large delays all become 1 ms,
// so these expired timers share the 1 ms list and run in creation order.
setTimeout(() => console.log('delay 1'), 1);
setTimeout(() => console.log('delay 0'), 0);
setTimeout(() => console.log('delay -5'), -5);
setTimeout(() => console.log('delay NaN'), NaN);
setTimeout(() => console.log('delay missing'));
setTimeout(() => console.log('delay "abc"'), 'abc');
setTimeout(() => console.log('delay 2**31'), 2 ** 31);
setTimeout(() => console.log('delay "1"'), '1');
const s = Date.now(); while (Date.now() - s < 15) {}
// SPDX-License-Identifier: MIT
