// setTimeout and setInterval: string handlers, arguments, clearing, ids.
setTimeout("console.log('from string')", 0);
setTimeout((a, b, c) => console.log('args', a, b, c.length), 2, 'x', 2, [3]);
const own = setTimeout(() => {
  clearTimeout(own);
  console.log('cleared itself and went on');
}, 4);
let ticks = 0;
const iv = setInterval(() => {
  ticks++;
  console.log('tick', ticks);
  if (ticks === 2) clearInterval(iv);
}, 6);
setTimeout(() => console.log('ticks at 60 ms', ticks), 60);
clearTimeout(123456);
clearTimeout();
clearTimeout(undefined);
clearInterval(null);
const ids = [setTimeout(() => {}, 0), setInterval(() => {}, 0), setTimeout(() => {}, 0)];
clearInterval(ids[1]);
console.log('ids', ids.every((i) => Number.isInteger(i) && i > 0), new Set(ids).size);
const gone = setTimeout(() => console.log('a cleared timer ran'), 0);
clearTimeout(gone);
// SPDX-License-Identifier: MIT
