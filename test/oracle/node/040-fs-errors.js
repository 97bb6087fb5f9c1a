// oracle: node10 node11 node
// fs errors arrive in the callback as err.code; nothing is thrown. The calls
// run one after another so the order of the lines is fixed.
const fs = require('fs');
const missing = 'oracle-missing-' + process.pid + '/nothing-here.txt';
fs.readFile(missing, (err, data) => {
  console.log('readFile missing:', err.code, 'data:', data === undefined);
  fs.stat(missing, (err) => {
    console.log('stat missing:', err.code);
    fs.unlink(missing, (err) => {
      console.log('unlink missing:', err.code);
      fs.readdir(missing, (err) => {
        console.log('readdir missing:', err.code);
        fs.readdir(__filename, (err) => {
          console.log('readdir of a file:', err.code);
          fs.writeFile(missing, 'x', (err) => console.log('writeFile into missing dir:', err.code));
        });
      });
    });
  });
});
// SPDX-License-Identifier: MIT
