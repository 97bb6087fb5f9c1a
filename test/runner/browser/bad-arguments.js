// The bindings' TypeErrors for bad arguments, worded as Chromium's.
const ch = new MessageChannel();
const cases = [
  ['requestAnimationFrame(1)', () => requestAnimationFrame(1)],
  ["requestIdleCallback('x')", () => requestIdleCallback('x')],
  ['queueMicrotask(5)', () => queueMicrotask(5)],
  ['MessageChannel()', () => MessageChannel()],
  ['postMessage()', () => ch.port1.postMessage()],
  ['requestIdleCallback(f, 5)', () => requestIdleCallback(() => {}, 5)],
];
for (const [what, f] of cases) {
  try {
    f();
    console.log(what, 'did not throw');
  } catch (e) {
    console.log(what, '->', e.name + ': ' + e.message);
  }
}
// SPDX-License-Identifier: MIT
