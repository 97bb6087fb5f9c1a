window.onerror = function (message, source, lineno, colno, error) {
  console.log('message', message);
  console.log('source', source);
  console.log('lineno', lineno, 'colno', typeof colno, colno > 0);
  console.log('error', error instanceof Error, error.message, this === window);
  return true;
};
setTimeout(function f() {
  throw new Error('boom');
}, 1);
setTimeout(() => console.log('after'), 5);
// SPDX-License-Identifier: MIT
