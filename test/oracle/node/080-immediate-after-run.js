// oracle: node10 node11 node
// An Immediate once it ran or was cleared: hasRef() (Node 11+) is false in
// its own callback, afterwards and once cleared, and ref()/unref() still
// return it without bringing it back. A cleared immediate never runs, one
// cleared by an earlier immediate of the same pass included; one unref'd
// still runs while the loop has other work; `this` in the callback is the
// Immediate; extra arguments reach the callback.
const has = (im) => (typeof im.hasRef === 'function' ? im.hasRef() : 'n/a');
const log = [];
const a = setImmediate(function (x, y) {
  log.push('a this=' + (this === a) + ' args=' + x + ',' + y + ' hasRef=' + has(a));
  clearImmediate(b);
  setImmediate(() => {
    log.push('later a.hasRef=' + has(a) + ' ref=' + (a.ref() === a) + ' unref=' + (a.unref() === a) +
      ' hasRef=' + has(a));
    log.push('c ran=' + cRan + ' hasRef=' + has(c));
    setTimeout(() => console.log(log.join('\n')), 5);
  });
}, 1, 2);
const b = setImmediate(() => log.push('b ran (wrong)'));
let cRan = false;
const c = setImmediate(() => { cRan = true; });
c.unref();
const d = setImmediate(() => log.push('d ran (wrong)'));
clearImmediate(d);
log.push('d cleared hasRef=' + has(d) + ' c unref hasRef=' + has(c));
clearImmediate(d);
clearImmediate(undefined);
// SPDX-License-Identifier: MIT
