// oracle: node10 node11 node
// Returning a promise from then() costs two extra jobs before the chain goes
// on; a rejection skips to the next catch; finally passes the value through.
Promise.resolve()
  .then(() => Promise.resolve('inner'))
  .then((v) => console.log('resolved with', v));
Promise.resolve()
  .then(() => console.log('x1'))
  .then(() => console.log('x2'))
  .then(() => console.log('x3'))
  .then(() => console.log('x4'));
Promise.reject(new Error('nope'))
  .then(() => console.log('skipped'))
  .catch((e) => console.log('caught', e.message))
  .finally(() => console.log('finally'))
  .then((v) => console.log('after finally', v));
// SPDX-License-Identifier: MIT
