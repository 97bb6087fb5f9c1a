// oracle: node10 node11 node
// Two promise chains advance one step at a time, alternating.
Promise.resolve()
  .then(() => console.log('a1'))
  .then(() => console.log('a2'))
  .then(() => console.log('a3'))
  .then(() => console.log('a4'));
Promise.resolve()
  .then(() => console.log('b1'))
  .then(() => console.log('b2'))
  .then(() => console.log('b3'));
new Promise((resolve) => {
  console.log('executor runs synchronously');
  resolve('c');
}).then((v) => console.log(v + '1'));
// SPDX-License-Identifier: MIT
