// oracle: browser
// The timer nesting level when the nesting goes on through a promise job
// (a timer whose promise job sets the next timer) and through an interval
// whose runs set an inner timer: the clamp (4 ms from level 6) shows as
// posted messages overtaking the timers. Chromium and phaseloop agree
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
  const ch2 = new MessageChannel();
  ch2.port1.onmessage = (e) => console.log('m2', e.data);
  const iv = setInterval(() => {
    n++;
    console.log('interval', n);
    setTimeout(() => { console.log('inner of', n); ch2.port2.postMessage(n); }, 0);
    if (n === 7) { clearInterval(iv); setTimeout(() => { ch2.port1.close(); console.log('END'); }, 50); }
  }, 0);
}
