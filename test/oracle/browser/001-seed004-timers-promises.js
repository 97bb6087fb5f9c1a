// oracle: browser
// Seed 004's browser example, verbatim: two 0 ms timers, each resolving a
// promise. Each timer is its own task and a microtask checkpoint follows
// every task (HTML 8.1.7.3 "event loop processing model", step "perform a
// microtask checkpoint"), so each promise runs before the next timer.
// Seed's expected browser output: timer1 promise1 timer2 promise2
// (Node 10 printed timer1 timer2 promise1 promise2.)
setTimeout(()=>{
    console.log('timer1')
    Promise.resolve().then(function() {
        console.log('promise1')
    })
}, 0)
setTimeout(()=>{
    console.log('timer2')
    Promise.resolve().then(function() {
        console.log('promise2')
    })
}, 0)
// Oracle end marker: a third 0 ms timer runs after the two above.
setTimeout(() => console.log('END'), 0);
// SPDX-License-Identifier: MIT
