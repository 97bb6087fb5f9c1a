// oracle: node10 node11 node
// unref() of the only timeout, after the main script, when it is already
// due: the loop has nothing referenced and ends without running it. (Node
// 10 moves the timeout onto the emptied list's own handle, stopped rather
// than closed, so no closing handle keeps the loop for an iteration in
// which the due timeout would run. Found by tools/fuzz-oracle, node10 seed
// 3156.)
const t = setTimeout(() => console.log('never: the unreferenced timeout'), 0);
Promise.resolve().then(() => {
  console.log('promise job: unref');
  t.unref();
});
const end = Date.now() + 5;
while (Date.now() < end);
// SPDX-License-Identifier: MIT
