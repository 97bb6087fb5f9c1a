// require('timers'): the global timer functions, and Node 15+'s
// `promises` (require('timers/promises')).
'use strict';

// The old API for objects with an _onTimeout method (deprecated since
// Node 10: DEP0095, DEP0096, DEP0127).
const kTimer = Symbol('timer');
function unenroll(item) {
  if (item[kTimer]) clearTimeout(item[kTimer]);
  item[kTimer] = undefined;
  item._idleTimeout = -1;
}
function enroll(item, msecs) {
  if (typeof msecs !== 'number') throw internal.argTypeError('msecs', 'number', msecs);
  unenroll(item);
  item._idleTimeout = msecs;
}
function active(item, unrefed) {
  if (item[kTimer]) clearTimeout(item[kTimer]);
  if (!(item._idleTimeout >= 0)) return;
  item[kTimer] = setTimeout(() => {
    item[kTimer] = undefined;
    if (typeof item._onTimeout === 'function') item._onTimeout();
  }, item._idleTimeout);
  if (unrefed) item[kTimer].unref();
}

module.exports = {
  _unrefActive: (item) => active(item, true),
  active: (item) => active(item, false),
  enroll,
  unenroll,
  setTimeout,
  clearTimeout,
  setInterval,
  clearInterval,
  setImmediate,
  clearImmediate,
};
if (internal.mode === 'node') {
  Object.defineProperty(module.exports, 'promises', {
    enumerable: true,
    configurable: true,
    get() {
      return require('timers/promises');
    },
  });
}
// SPDX-License-Identifier: MIT
