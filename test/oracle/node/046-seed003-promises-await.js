// oracle: node
// Seed 003's demo without the browser APIs (MutationObserver, rAF, idle
// callbacks): timers, promises and an async arrow function awaiting a promise.
// The await makes it engine-dependent, so only current Node is the oracle.
setTimeout(() => {
  console.log('setTimeout callback');
});
Promise.resolve().then(() => {
  console.log('promise callback before');
});
console.log('script');
Promise.resolve(555).then(() => {
  console.log('promise callback after');
});
const dd = async () => {
  console.log('before: await');
  const q = Promise.resolve(55).then(() => {
    console.log('then q');
  });
  await q;
  console.log('after: await q');
  q.then(() => {
    console.log('after: await q then');
  });
};
dd();
setTimeout(() => {
  console.log('second timer');
});
setTimeout(() => {
  console.log('third timer');
});
// SPDX-License-Identifier: MIT
