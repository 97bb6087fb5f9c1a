// oracle: browser
// A callback requested while the animation frame callbacks run waits for the
// next frame: "run the animation frame callbacks" takes the map's callbacks
// as they are when it starts (HTML 8.1.7.3 update the rendering). Tasks
// queued from a frame callback (a 0 ms timer, a message) run before the next
// frame, which is about 16.7 ms away.
const ch = new MessageChannel();
ch.port1.onmessage = (e) => console.log('message', e.data);
requestAnimationFrame(() => {
  console.log('frame 1: raf A');
  requestAnimationFrame(() => {
    console.log('frame 2: raf C (requested in frame 1)');
    requestAnimationFrame(() => { ch.port1.close(); console.log('END'); });
  });
  setTimeout(() => console.log('timeout from frame 1'), 0);
  ch.port2.postMessage('from frame 1');
});
requestAnimationFrame(() => console.log('frame 1: raf B'));
// SPDX-License-Identifier: MIT
