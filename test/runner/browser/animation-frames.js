// Callbacks of one frame share its timestamp; the next frame's is later.
const stamps = [];
requestAnimationFrame((t) => stamps.push(t));
requestAnimationFrame((t) => {
  stamps.push(t);
  console.log('frame', typeof t, t > 0, stamps.length, stamps[0] === stamps[1]);
  requestAnimationFrame((t2) => console.log('next frame', t2 > t));
});
// SPDX-License-Identifier: MIT
