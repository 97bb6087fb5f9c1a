// oracle: browser
// Seed 003's requestIdleCallback demo with span = 200, made deterministic:
// `window.` prefixes dropped, the comment-only MutationObserver wording kept,
// the final cancel timer moved from 2000 to 300 ms, and a 100 ms busy loop
// added at the end of the script so a rendering opportunity is due when the
// script task ends: "update the rendering" then runs the animation frame
// callback before the 0 ms timer (HTML 8.1.7.3: rendering happens after the
// task's microtask checkpoint when a rendering opportunity is due). The two
// idle callbacks run in the first idle period, after the timer (the start an
// idle period algorithm runs only when no task is runnable), long before
// the 200 ms timer that cancels the (already run) animation frame.
// Seed's expected output for span = 200 (it notes the rAF line may move):
// before trigger rAF, promise callback before rAF, promise callback after
// MutationObserver, execute rAF, setTimeout callback, execute
// requestIdleCallback, execute requestIdleCallback 2, calcel rAF, calcel
// requestIdleCallback
const span = 200
setTimeout(() => {
    console.log('setTimeout callback')
})

Promise.resolve().then(() => {
    console.log('promise callback before rAF')
})

console.log('before trigger rAF')

const rAF = requestAnimationFrame(() => {
    console.log('execute rAF')
})

const idle = requestIdleCallback(() => {
    console.log('execute requestIdleCallback')
}, {timeout: 2000})

const idle2 = requestIdleCallback(() => {
    console.log('execute requestIdleCallback 2')
}, {timeout: 2000})

Promise.resolve().then(() => {
    console.log('promise callback after MutationObserver')
})

setTimeout(() => {
    cancelAnimationFrame(rAF)
    console.log('calcel rAF')
},span)
setTimeout(() => {
    cancelIdleCallback(idle)
    cancelIdleCallback(idle2)
    console.log('calcel requestIdleCallback')
    console.log('END')
}, 300)
const busyStart = performance.now(); while (performance.now() - busyStart < 100) {}
// SPDX-License-Identifier: MIT
