// oracle: node10 node11 node
// Since Node 14.9 a Timeout converts to a number (Symbol.toPrimitive), and
// clearTimeout and clearInterval take that number or its string from then
// on. Before, +timeout is NaN and clearing by it does nothing. An id no
// timer has does nothing in any version.
const t = setTimeout(() => console.log('timeout ran'), 5);
const n = +t;
console.log('as a number:', typeof n, Number.isInteger(n), `${t}` === String(n));
clearTimeout(n);
const i = setInterval(() => {
  console.log('interval ran');
  clearInterval(i);
}, 5);
clearInterval(`${+i}`);
setTimeout(() => console.log('other timer ran'), 5);
clearTimeout(987654321);
const fresh = setTimeout(() => console.log('fresh timer ran'), 5);
console.log('toPrimitive:', typeof fresh[Symbol.toPrimitive]);
console.log('an Immediate has toPrimitive:', typeof setImmediate(() => {})[Symbol.toPrimitive]);
// SPDX-License-Identifier: MIT
