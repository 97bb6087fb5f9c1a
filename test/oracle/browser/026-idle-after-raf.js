// oracle: browser
// With an animation frame requested, Chromium runs the frame before the first
// idle callback: idle periods are started after a frame is produced, and an
// idle period's deadline never goes past the next frame (requestIdleCallback
// "start an idle period": deadline bounded by pending animation callbacks).
requestIdleCallback(() => { console.log('idle'); setTimeout(() => console.log('END'), 0); });
requestAnimationFrame(() => console.log('raf'));
Promise.resolve().then(() => console.log('microtask'));
// SPDX-License-Identifier: MIT
