// oracle: browser
// Each idle callback is its own task ("invoke idle callbacks" queues a task
// per callback): its microtasks run right after it, and a 0 ms timer queued
// by the first callback runs before the second. A callback requested during
// an idle period waits for the next one (it goes to the idle request list,
// not the runnable list).
requestIdleCallback(() => {
  console.log('idle 1');
  setTimeout(() => console.log('timeout from idle 1'), 0);
  Promise.resolve().then(() => console.log('  microtask of idle 1'));
});
requestIdleCallback(() => {
  console.log('idle 2');
  requestIdleCallback(() => {
    console.log('idle 3 (requested in idle 2)');
    setTimeout(() => console.log('END'), 0);
  });
});
// SPDX-License-Identifier: MIT
