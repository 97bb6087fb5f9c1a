// oracle: node
// Seed 004's async/await example. Where 'async1 end' lands depends on the JS
// engine (old V8 took extra ticks per await), so only current Node is the oracle.
console.log('script start');

async function async1() {
  await async2();
  console.log('async1 end');
}
async function async2() {
  console.log('async2 end');
}
async1();

setTimeout(function () {
  console.log('setTimeout');
}, 0);

new Promise((resolve) => {
  console.log('Promise');
  resolve();
})
  .then(function () {
    console.log('promise1');
  })
  .then(function () {
    console.log('promise2');
  });

console.log('script end');
// SPDX-License-Identifier: MIT
