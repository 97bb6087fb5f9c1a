// oracle: browser
// The timer nesting level when the nesting goes on through a promise job
// (a timer whose promise job sets the next timer): the clamp (4 ms from
// level 6) shows as posted messages overtaking the timers. Then an interval
// started at level 10 sets, on each run, a 0 ms and a 3 ms timer; which of
// the two runs first tells whether the 0 ms one was clamped. The answer is
// printed at the end, so the interval's own ticks (which race its inner
// timers on a loaded machine) never show. Chromium and phaseloop agree
// (a behaviour issue 34 listed as differing).
const ch = new MessageChannel();
let level = 0;
ch.port1.onmessage = (e) => console.log('message', e.data);
function step() {
  level++;
  console.log('timer level', level);
  if (level < 10) {
    Promise.resolve().then(() => {
      setTimeout(step, 0);
      ch.port2.postMessage(level);
    });
  } else {
    ch.port1.close();
    startInterval();
  }
}
setTimeout(step, 0);
function startInterval() {
  let n = 0;
  const seen = [];
  const iv = setInterval(() => {
    const k = ++n;
    setTimeout(() => seen.push(k + ':0'), 0);
    setTimeout(() => seen.push(k + ':3'), 3);
    if (k === 8) {
      clearInterval(iv);
      setTimeout(() => {
        for (let j = 1; j <= 8; j++) {
          const a = seen.indexOf(j + ':0'), b = seen.indexOf(j + ':3');
          console.log('interval run', j, a < b ? 'inner 0 ms first' : 'inner 3 ms first (clamped)');
        }
        console.log('END');
      }, 50);
    }
  }, 0);
}
// SPDX-License-Identifier: MIT
