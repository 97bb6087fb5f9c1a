// oracle: browser
// await ordering (current ECMAScript): await of a native promise or a plain
// value takes one microtask; await of a thenable takes two (the thenable job,
// then its then); an async function returning a promise resolves its own
// promise two microtasks later. Everything runs in the script task's
// microtask checkpoint, before the timer (HTML 8.1.7.3).
async function plain() { await 1; console.log('after await 1'); }
async function native() { await Promise.resolve(); console.log('after await promise'); }
async function thenable() {
  await { then(r) { console.log('thenable.then called'); r(); } };
  console.log('after await thenable');
}
async function returnsPromise() { return Promise.resolve('v'); }
async function returnsValue() { return 'v'; }
setTimeout(() => console.log('timeout'), 0);
plain();
native();
thenable();
returnsPromise().then(() => console.log('returnsPromise settled'));
returnsValue().then(() => console.log('returnsValue settled'));
Promise.resolve().then(() => console.log('p1')).then(() => console.log('p2')).then(() => console.log('p3')).then(() => console.log('p4'));
console.log('script end');
setTimeout(() => console.log('END'), 0);
// SPDX-License-Identifier: MIT
