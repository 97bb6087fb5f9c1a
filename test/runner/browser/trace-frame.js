// --trace: two animation frame callbacks, a checkpoint after the first.
requestAnimationFrame(() => {
  console.log('frame 1');
  Promise.resolve().then(() => console.log('promise'));
});
requestAnimationFrame(() => console.log('frame 2'));
// SPDX-License-Identifier: MIT
