// oracle: node11 node
// After Node's timers callback re-arms its core timer from the loop's
// cached time, a promise job that starts a timeout reads the clock (Node's
// getLibuvNow): if the callback ran past the next timeout's expiry, the
// core timer is due again at once, and libuv before 1.48 (Node 20 has
// 1.46) runs it again in the same timers pass -- before the immediate
// that was waiting. Without such a read the timeout waits for the next
// iteration, after the immediate. (Found by the generator: node seed 5500.)
'use strict';
const W = new Int32Array(new SharedArrayBuffer(4));
const busy = (ms) => Atomics.wait(W, 0, 0, ms);

function round(name, readClock, then) {
  setTimeout(() => {
    console.log(name, 'timeout');
    Promise.resolve().then(() => {
      console.log(name, 'promise job');
      if (readClock) setTimeout(() => { console.log(name, 'later'); then(); }, 150);
    });
    setTimeout(() => {
      console.log(name, 'next timeout');
      if (!readClock) then();
    }, 0);
    busy(3);
  }, 1);
  setImmediate(() => {
    console.log(name, 'immediate');
  });
  busy(3);
}

// The second round starts from an immediate: its timeout comes due in the
// timers pass of the same iteration, as the first round's does.
round('with a read', true, () => setImmediate(() => round('without', false, () => {})));
// (Not node10: real Node 10, whose lists have a core timer each, gives
// either order from run to run here.)
// SPDX-License-Identifier: MIT
