// oracle: browser
// A thrown value that is not an Error reaches window.onerror with the
// message "Uncaught " and the value's string (a string unquoted, an array
// joined, an object's toString), and as the event's error the value itself.
window.onerror = (message, source, line, column, error) => {
  console.log('onerror:', JSON.stringify(message), typeof source, line > 0, column > 0, typeof error, String(error));
  return true;
};
const values = ['a string', 42, null, undefined, {toString() { return 'an object'; }}, [1, 2], new TypeError('typed')];
// One task per value, each scheduling the next before it throws.
let i = 0;
function next() {
  if (i === values.length) return console.log('END');
  const v = values[i++];
  setTimeout(next, 0);
  throw v;
}
setTimeout(next, 0);
// SPDX-License-Identifier: MIT
