// oracle: browser
// An exception in one animation frame callback does not stop the other
// callbacks of the frame; an exception in an idle callback does not stop the
// next idle callback (each exception is reported to window.onerror, which
// prints a fixed line).
window.onerror = () => { console.log('onerror'); return true; };
requestAnimationFrame(() => { console.log('raf 1 throws'); throw new Error('from raf 1'); });
requestAnimationFrame(() => console.log('raf 2'));
requestIdleCallback(() => { console.log('idle 1 throws'); throw new Error('from idle 1'); });
requestIdleCallback(() => { console.log('idle 2'); setTimeout(() => console.log('END'), 0); });
// SPDX-License-Identifier: MIT
