// oracle: node10 node11 node
// A rejection made inside an 'unhandledRejection' listener is reported by
// the next report, after the ticks and microtasks the listener queued; the
// report under way covers only the rejections made before it started
// (generated program: tools/fuzz-oracle, node11 seed 40153).
let n = 0;
process.on('unhandledRejection', (e) => {
  console.log('unhandledRejection ' + e.message);
  if (n++ > 0) return;
  Promise.reject(new Error('made by the listener'));
  process.nextTick(() => console.log('tick from the listener'));
  Promise.resolve({ then(r) { console.log('thenable'); r(); } }).then(() => console.log('then'));
});
Promise.reject(new Error('first'));
Promise.reject(new Error('second'));
setImmediate(() => console.log('immediate'));
// SPDX-License-Identifier: MIT
