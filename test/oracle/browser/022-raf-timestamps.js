// oracle: browser
// All callbacks of one frame get the same timestamp (HTML update the
// rendering passes one "now" to "run the animation frame callbacks"), not
// later than performance.now() inside the callback; the next frame's is
// larger. Only comparisons are printed.
let first;
requestAnimationFrame((t) => { first = t; console.log('raf 1 timestamp is a number', typeof t === 'number'); });
requestAnimationFrame((t) => {
  console.log('raf 2 same timestamp', t === first);
  console.log('timestamp <= performance.now()', t <= performance.now());
  requestAnimationFrame((t2) => {
    console.log('next frame later', t2 > first);
    console.log('END');
  });
});
// SPDX-License-Identifier: MIT
