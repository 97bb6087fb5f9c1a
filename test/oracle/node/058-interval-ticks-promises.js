// oracle: node10 node11 node
// A lone interval that queues a tick and a promise each run: it is alone in
// its list, so every version drains after each run.
let n = 0;
const iv = setInterval(() => {
  n += 1;
  const k = n;
  console.log('interval', k);
  Promise.resolve().then(() => console.log('  promise', k));
  process.nextTick(() => console.log('  tick', k));
  if (k === 3) clearInterval(iv);
}, 2);
// SPDX-License-Identifier: MIT
