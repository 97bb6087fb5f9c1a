// oracle: browser
// Chromium's TypeErrors for missing arguments and for callbacks that are
// not functions (WebIDL: "1 argument required, but only 0 present.",
// "parameter 1 is not of type 'Function'."), and for the other argument
// mistakes a snippet makes. setTimeout and setInterval take any value as
// their handler (a non-function is code), so they complain only when
// given nothing.
const calls = [
  ['setTimeout()', () => setTimeout()],
  ['setInterval()', () => setInterval()],
  ['requestAnimationFrame()', () => requestAnimationFrame()],
  ['requestAnimationFrame(5)', () => requestAnimationFrame(5)],
  ['requestIdleCallback()', () => requestIdleCallback()],
  ["requestIdleCallback('x')", () => requestIdleCallback('x')],
  ['requestIdleCallback(f, 5)', () => requestIdleCallback(() => {}, 5)],
  ['queueMicrotask()', () => queueMicrotask()],
  ['queueMicrotask(null)', () => queueMicrotask(null)],
  ['cancelAnimationFrame()', () => cancelAnimationFrame()],
  ['cancelIdleCallback()', () => cancelIdleCallback()],
  ['MessageChannel()', () => MessageChannel()],
  ['port.postMessage()', () => new MessageChannel().port1.postMessage()],
];
for (const [what, call] of calls) {
  try {
    call();
    console.log(what, 'did not throw');
  } catch (e) {
    console.log(what, e instanceof TypeError, e.name + ': ' + e.message);
  }
}
console.log('END');
// SPDX-License-Identifier: MIT
