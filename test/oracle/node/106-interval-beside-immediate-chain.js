// oracle: node10 node11 node
// A 2 ms setInterval whose callback runs 4 ms, beside a chain of
// setImmediate callbacks (issue 34's listed "interval beside an immediate
// chain"): every Node runs one interval callback per loop iteration,
// between the immediates, since the interval is due again by the time the
// next iteration's timers come. First with both started by one timeout's
// callback, then with the chain started by the interval's third run.
'use strict';
const W = new Int32Array(new SharedArrayBuffer(4));
const busy = (ms) => Atomics.wait(W, 0, 0, ms);

function both(done) {
  let n = 0;
  let k = 0;
  const iv = setInterval(() => {
    n++;
    console.log('A interval', n);
    busy(4);
    if (n === 5) clearInterval(iv);
  }, 2);
  const chain = () => {
    k++;
    console.log('A immediate', k);
    busy(1);
    if (k < 8) setImmediate(chain); else done();
  };
  setImmediate(chain);
  busy(4);
}

function fromTheInterval() {
  let n = 0;
  let k = 0;
  const chain = () => {
    k++;
    console.log('B immediate', k);
    busy(1);
    if (k < 6) setImmediate(chain);
  };
  const iv = setInterval(() => {
    n++;
    console.log('B interval', n);
    if (n === 3) setImmediate(chain);
    busy(4);
    if (n === 7) clearInterval(iv);
  }, 2);
}

setTimeout(() => both(() => setTimeout(fromTheInterval, 1)), 1);
// SPDX-License-Identifier: MIT
