// oracle: browser
// A chain of nested 0 ms timers against posted messages. Each timer posts a
// message right after scheduling the next timer; tasks of the timer and the
// posted-message sources run in the order they were queued, so an unclamped
// next timer runs before the message. The timer created inside the callback
// at nesting level 6 is clamped to 4 ms (HTML timer initialization steps:
// "if nesting level is greater than 5, and timeout is less than 4, then set
// timeout to 4"), so from there on the messages overtake the timers.
// Chromium 156 clamps exactly as the spec says (level > 5), not one earlier.
const ch = new MessageChannel();
let level = 0;
ch.port1.onmessage = (e) => console.log('message posted at level', e.data);
function step() {
  level++;
  console.log('timer at nesting level', level);
  if (level < 9) {
    setTimeout(step, 0);
    ch.port2.postMessage(level);
  } else {
    ch.port1.close();
    console.log('END');
  }
}
setTimeout(step, 0);
// SPDX-License-Identifier: MIT
