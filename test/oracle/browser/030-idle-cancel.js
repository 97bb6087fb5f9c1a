// oracle: browser
// cancelIdleCallback: a callback cancelled before its idle period, or by an
// earlier callback of the same idle period, never runs (requestIdleCallback
// "invoke idle callbacks": a cancelled handle is removed from both lists).
let b;
requestIdleCallback(() => { console.log('a cancels b'); cancelIdleCallback(b); cancelIdleCallback(424242); });
b = requestIdleCallback(() => console.log('b (cancelled)'));
const c = requestIdleCallback(() => console.log('c (cancelled by the script)'));
cancelIdleCallback(c);
requestIdleCallback(() => { console.log('d'); console.log('END'); });
// SPDX-License-Identifier: MIT
