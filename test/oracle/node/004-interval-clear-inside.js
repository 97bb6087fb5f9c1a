// oracle: node10 node11 node
// setInterval keeps firing until clearInterval is called from its own callback.
let n = 0;
const iv = setInterval(() => {
  n += 1;
  console.log('interval run', n);
  if (n === 4) {
    clearInterval(iv);
    console.log('cleared');
  }
}, 3);
// SPDX-License-Identifier: MIT
