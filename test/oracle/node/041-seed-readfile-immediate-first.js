// oracle: node10 node11 node
// Seed 004: inside an I/O callback, setImmediate always beats setTimeout(0),
// since the check phase comes right after the poll phase.
const fs = require('fs');
fs.readFile(__filename, () => {
  setTimeout(() => {
    console.log('timeout');
  }, 0);
  setImmediate(() => {
    console.log('immediate');
  });
});
// SPDX-License-Identifier: MIT
