// oracle: node10 node11 node
// A promise job queued by timer A clears timer B of the same list.
// Node 10: B has already run. Node 11+: B is cancelled.
let b = null;
setTimeout(() => {
  console.log('A');
  Promise.resolve().then(() => {
    console.log('promise clears B');
    clearTimeout(b);
  });
}, 4);
b = setTimeout(() => console.log('B (Node 10 only)'), 4);
setTimeout(() => console.log('C'), 4);
const s = Date.now(); while (Date.now() - s < 15) {}
// SPDX-License-Identifier: MIT
