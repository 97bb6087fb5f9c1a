// Idle callbacks: cancelling one, and the deadline the callback gets.
cancelIdleCallback(98765);
const c = requestIdleCallback(() => console.log('a cancelled idle callback ran'));
cancelIdleCallback(c);
requestIdleCallback((d) => {
  const r = d.timeRemaining();
  console.log('idle', typeof r, r > 0, r <= 50, d.didTimeout);
});
// SPDX-License-Identifier: MIT
