// oracle: node10 node11 node
// A nextTick queued from a nextTick still runs before promise jobs: the tick
// queue is emptied, recursion included, before microtasks start.
Promise.resolve().then(() => console.log('promise'));
let depth = 0;
function again() {
  depth += 1;
  console.log('tick depth', depth);
  if (depth < 5) process.nextTick(again);
}
process.nextTick(again);
process.nextTick(() => console.log('sibling tick'));
// SPDX-License-Identifier: MIT
