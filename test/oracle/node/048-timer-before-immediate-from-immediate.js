// oracle: node10 node11 node
// From an immediate, a due timer runs before an immediate queued in the same
// callback: the timers phase comes before the next check phase.
setImmediate(() => {
  console.log('immediate');
  setImmediate(() => console.log('immediate from immediate'));
  setTimeout(() => console.log('timeout from immediate'), 1);
  const s = Date.now(); while (Date.now() - s < 5) {}
});
// SPDX-License-Identifier: MIT
