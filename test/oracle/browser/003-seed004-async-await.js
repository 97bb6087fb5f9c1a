// oracle: browser
// Seed 004's async/await example, verbatim. Since Chrome 73 (the current
// ECMAScript await), `await async2()` on a native promise takes one
// microtask, so 'async1 end' precedes 'promise1'. The timer is a task after
// the script's microtask checkpoint (HTML 8.1.7.3).
// Seed's expected output (Chrome >= 73): script start, async2 end, Promise,
// script end, async1 end, promise1, promise2, setTimeout
console.log('script start')

async function async1() {
  await async2()
  console.log('async1 end')
}
async function async2() {
  console.log('async2 end')
}
async1()

setTimeout(function() {
  console.log('setTimeout')
}, 0)

new Promise(resolve => {
  console.log('Promise')
  resolve()
})
  .then(function() {
    console.log('promise1')
  })
  .then(function() {
    console.log('promise2')
  })

console.log('script end')
// Oracle end marker: runs after the timer above (same delay, FIFO).
setTimeout(() => console.log('END'), 0);
// SPDX-License-Identifier: MIT
