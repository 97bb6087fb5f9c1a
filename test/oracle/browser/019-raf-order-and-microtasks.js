// oracle: browser
// Animation frame callbacks run in registration order at the next rendering
// opportunity, and a microtask checkpoint follows each callback (HTML "run
// the animation frame callbacks": invoke each callback, then "clean up after
// running script" checkpoints because the JS stack is empty).
requestAnimationFrame(() => {
  console.log('raf 1');
  Promise.resolve().then(() => console.log('  microtask of raf 1'));
  queueMicrotask(() => console.log('  queueMicrotask of raf 1'));
});
requestAnimationFrame(() => {
  console.log('raf 2');
  Promise.resolve().then(() => console.log('  microtask of raf 2'));
});
requestAnimationFrame(() => {
  console.log('raf 3');
  requestAnimationFrame(() => console.log('END'));
});
Promise.resolve().then(() => console.log('script microtask'));
// SPDX-License-Identifier: MIT
