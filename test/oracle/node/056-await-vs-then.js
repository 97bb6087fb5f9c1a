// oracle: node
// await interleaved with plain then() chains: the order depends on how many
// microtask ticks an await costs (engine-dependent), so current Node only.
async function worker(name) {
  console.log(name, 'start');
  await Promise.resolve();
  console.log(name, 'after first await');
  await new Promise((resolve) => setImmediate(resolve));
  console.log(name, 'after immediate');
  return name + ' result';
}
worker('w').then((v) => console.log('resolved:', v));
Promise.resolve()
  .then(() => console.log('then 1'))
  .then(() => console.log('then 2'))
  .then(() => console.log('then 3'));
setImmediate(() => console.log('immediate from main'));
console.log('main end');
// SPDX-License-Identifier: MIT
