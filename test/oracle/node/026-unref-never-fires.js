// oracle: node10 node11 node
// An unref'd timer does not keep the process alive: once the last ref'd
// timer has run, the process exits without firing it.
const lazy = setTimeout(() => console.log('unref timer (must not run)'), 5000);
lazy.unref();
const lazyInterval = setInterval(() => console.log('unref interval (must not run)'), 4000);
lazyInterval.unref();
setTimeout(() => console.log('ref timer runs, then the process exits'), 10);
console.log('unref returns the timer:', lazy.unref() === lazy);
// SPDX-License-Identifier: MIT
