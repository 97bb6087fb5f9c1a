// An interval cleared from its own callback; extra arguments; `this`;
// an unreferenced timeout does not keep the process alive.
let n = 0;
const iv = setInterval(function (tag) {
  console.log(tag, ++n, this === iv);
  if (n === 3) {
    clearInterval(iv);
    setImmediate((x) => console.log('immediate', x), 42);
  }
}, 1, 'tick');
const u = setTimeout(() => console.log('never: unref'), 10000);
u.unref();
const gone = setImmediate(() => console.log('never: cleared'));
clearImmediate(gone);
clearTimeout(undefined);
clearTimeout(null);
// SPDX-License-Identifier: MIT
