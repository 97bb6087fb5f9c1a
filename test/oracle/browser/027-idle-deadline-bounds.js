// oracle: browser
// IdleDeadline: timeRemaining() starts in (0, 50] (the 50 ms cap of "start an
// idle period") and is 0 once the deadline has passed (a 55 ms busy loop);
// didTimeout is false without a timeout option. A callback requested from an
// idle callback runs in a later idle period, with a fresh deadline.
requestIdleCallback((d) => {
  const r = d.timeRemaining();
  console.log('remaining in (0, 50]', r > 0 && r <= 50, 'didTimeout', d.didTimeout);
  const s = performance.now(); while (performance.now() - s < 55) {}
  console.log('after a 55 ms busy loop', d.timeRemaining());
  requestIdleCallback((d2) => {
    const r2 = d2.timeRemaining();
    console.log('next idle period, remaining in (0, 50]', r2 > 0 && r2 <= 50);
    console.log('END');
  });
});
// SPDX-License-Identifier: MIT
