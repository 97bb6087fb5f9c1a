// oracle: browser
// Timers created in reverse order of their delays fire by due time; equal
// delays fire in creation order (HTML timer initialization steps: "wait until
// any invocations of this algorithm that had the same method context, that
// started before this one, and whose timeout is equal to or less than this
// one's, have completed"). Each timer is one task with its own checkpoint.
for (const d of [12, 8, 4, 8, 0, 12]) {
  setTimeout(() => {
    console.log('timer', d);
    Promise.resolve().then(() => console.log('  micro after', d));
  }, d);
}
setTimeout(() => console.log('END'), 30);
// SPDX-License-Identifier: MIT
