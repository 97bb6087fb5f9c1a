// oracle: node10 node11 node
// SharedArrayBuffer and Atomics, with Atomics.wait blocking the main
// thread, as Node allows (a browser page that is not cross-origin isolated
// has no SharedArrayBuffer). (Found by tools/fuzz-oracle, whose programs
// wait for the thread pool with Atomics.wait.)
const sab = new SharedArrayBuffer(8);
const a = new Int32Array(sab);
console.log(typeof SharedArrayBuffer, sab.byteLength, Object.prototype.toString.call(sab));
console.log(Atomics.add(a, 0, 5), Atomics.load(a, 0), Atomics.compareExchange(a, 0, 5, 7), a[0]);
console.log(Atomics.wait(a, 1, 1, 10));
const t0 = Date.now();
console.log(Atomics.wait(a, 1, 0, 20), Date.now() - t0 >= 19);
console.log(Atomics.notify(a, 1, 1));
setTimeout(() => console.log('timer after the waits'), 1);
// SPDX-License-Identifier: MIT
