// Three 5 ms timers, the middle one unref'd. Node 10 moves an unref'd timer
// out of its list onto a core timer of its own, so it fires after the list;
// Node 11+ only drops its reference and it keeps its place.
setTimeout(() => console.log('A'), 5);
setTimeout(() => console.log('B (unref)'), 5).unref();
setTimeout(() => console.log('C'), 5);
// All three must be due together when the loop runs them (a millisecond
// boundary between the calls would otherwise split them).
const start = Date.now();
while (Date.now() - start < 10) {}
// SPDX-License-Identifier: MIT
