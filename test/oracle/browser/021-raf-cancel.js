// oracle: browser
// cancelAnimationFrame: a callback cancelled before its frame never runs; one
// cancelled by an earlier callback of the same frame does not run either
// (HTML run the animation frame callbacks: a callback whose id is no longer
// in the map is skipped); cancelling an unknown or already-run id is harmless.
let b;
let aId;
aId = requestAnimationFrame(() => {
  console.log('a cancels b');
  cancelAnimationFrame(b);
  cancelAnimationFrame(aId);
});
b = requestAnimationFrame(() => console.log('b (cancelled in a)'));
const c = requestAnimationFrame(() => console.log('c (cancelled by the script)'));
requestAnimationFrame(() => {
  console.log('d');
  cancelAnimationFrame(99999);
  const e = requestAnimationFrame(() => console.log('e (cancelled right away)'));
  cancelAnimationFrame(e);
  requestAnimationFrame(() => console.log('END'));
});
cancelAnimationFrame(c);
// SPDX-License-Identifier: MIT
