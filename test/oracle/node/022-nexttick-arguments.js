// oracle: node10 node11 node
// process.nextTick passes its extra arguments to the callback.
process.nextTick((a, b, c) => console.log('three args:', a, b, c), 'one', 2, true);
process.nextTick((...rest) => console.log('count', rest.length), 1, 2, 3, 4, 5, 6);
process.nextTick(function () {
  console.log('no args:', arguments.length);
});
process.nextTick((obj) => console.log('object:', JSON.stringify(obj)), { k: [1, 2] });
// SPDX-License-Identifier: MIT
