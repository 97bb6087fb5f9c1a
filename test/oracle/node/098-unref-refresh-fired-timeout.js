// oracle: node10 node11 node
// unref() and then refresh() of a timeout that has fired. Node 10's
// unref() unenrolls a one-shot timeout that has been called, so refresh()
// does nothing; Node 11 and later start it again (unreferenced: another
// timer keeps the loop). (Found by tools/fuzz-oracle, node10 seed 1187.)
// The timers are 90 ms apart or more, so that a loaded machine keeps
// their order.
const t = setTimeout(() => console.log('timeout'), 1);
setTimeout(() => {
  t.unref();
  t.refresh();
  console.log('unref, then refresh, of the fired timeout');
  setTimeout(() => console.log('a later timer'), 300);
}, 10);
// And in its own callback: refresh() puts it back in a list, unref()
// takes it out again in Node 10 (found by tools/fuzz-oracle, node10 seed
// 6104); Node 11+ run it once more.
const u = setTimeout(() => {
  console.log('u runs');
  if (!u.again) {
    u.again = true;
    u.refresh();
    u.unref();
  }
}, 100);
// SPDX-License-Identifier: MIT
