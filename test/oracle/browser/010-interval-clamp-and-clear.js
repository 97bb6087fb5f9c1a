// oracle: browser
// setInterval(0): each repetition is a task one nesting level deeper, so from
// the 7th tick the interval is clamped to 4 ms (HTML timer initialization
// steps with repeat = true re-run the steps with the task's nesting level)
// and the message posted in tick 6 overtakes tick 7. The interval is cleared
// from its own 8th tick: no 9th tick.
const ch = new MessageChannel();
ch.port1.onmessage = (e) => console.log('message from tick', e.data);
let n = 0;
const id = setInterval(() => {
  n++;
  console.log('tick', n);
  ch.port2.postMessage(n);
  if (n === 8) {
    clearInterval(id);
    setTimeout(() => { ch.port1.close(); console.log('END'); }, 10);
  }
}, 0);
// SPDX-License-Identifier: MIT
