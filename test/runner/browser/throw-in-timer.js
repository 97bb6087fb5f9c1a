console.log('before');
function f() {
  throw new Error('boom');
}
setTimeout(f, 1);
setTimeout(() => console.log('after'), 5);
// SPDX-License-Identifier: MIT
