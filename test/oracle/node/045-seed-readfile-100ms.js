// oracle: node10 node11 node
// Seed 004's timers example: a 100 ms timer and a readFile whose callback
// busy-waits 10 ms. Delays and even the order of the two callbacks depend on
// the machine's load, so each callback only records a fact and the facts are
// printed, in a fixed order, once both have run. The timer never fires early
// (99 because Date.now and the loop clock round differently).
const fs = require('fs');
const facts = {};
function record(key, value) {
  facts[key] = value;
  if ('timer' in facts && 'file' in facts) {
    console.log('readFile callback ran, its 10 ms of work done:', facts.file);
    console.log('timer ran after at least 99 ms:', facts.timer);
  }
}
const scheduled = Date.now();
setTimeout(() => {
  const delay = Date.now() - scheduled;
  record('timer', delay >= 99);
}, 100);
fs.readFile(__filename, () => {
  const started = Date.now();
  while (Date.now() - started < 10) {}
  record('file', Date.now() - started >= 10);
});
// SPDX-License-Identifier: MIT
