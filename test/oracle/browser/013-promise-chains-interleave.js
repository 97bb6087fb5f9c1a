// oracle: browser
// Two promise chains advance one link per microtask each, alternating; a
// promise resolved with another promise takes two extra microtasks
// (ECMAScript NewPromiseResolveThenableJob, then the inner then); all of it
// finishes in the checkpoint after the script task (HTML 8.1.7.3).
const a = Promise.resolve();
const b = Promise.resolve();
a.then(() => console.log('a1')).then(() => console.log('a2')).then(() => console.log('a3'));
b.then(() => console.log('b1')).then(() => console.log('b2')).then(() => console.log('b3'));
new Promise((r) => r(Promise.resolve('inner'))).then((v) => console.log('resolved with a promise:', v));
Promise.resolve('direct').then((v) => console.log('resolved directly:', v));
setTimeout(() => console.log('END'), 0);
// SPDX-License-Identifier: MIT
