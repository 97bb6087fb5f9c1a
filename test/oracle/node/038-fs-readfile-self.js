// oracle: node10 node11 node
// fs.readFile of this very file: the callback comes after the main module,
// its ticks and its promises; print the first line and the line count.
const fs = require('fs');
fs.readFile(__filename, 'utf8', (err, text) => {
  if (err) throw err;
  const lines = text.split('\n');
  console.log('first line:', lines[0]);
  console.log('line count:', lines.length);
  process.nextTick(() => console.log('tick inside the callback'));
  fs.readFile(__filename, (err, buf) => {
    console.log('as a buffer, first byte:', buf[0], 'same length:', buf.length === text.length);
  });
});
process.nextTick(() => console.log('tick from main'));
Promise.resolve().then(() => console.log('promise from main'));
console.log('main');
// SPDX-License-Identifier: MIT
