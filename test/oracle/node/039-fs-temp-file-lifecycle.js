// oracle: node10 node11 node
// writeFile, stat, readFile, readdir, unlink on a temporary file in the
// current directory, one after the other; each step checks the last.
const fs = require('fs');
const base = __filename.split('/').pop().replace(/\.js$/, '');
const name = 'oracle-' + base + '-' + process.pid + '.tmp';
const content = 'line one\nline two\n';

fs.writeFile(name, content, (err) => {
  console.log('writeFile:', err ? err.code : 'ok');
  fs.stat(name, (err, st) => {
    console.log('stat:', err ? err.code : 'ok', 'file:', st.isFile(), 'size:', st.size);
    fs.readFile(name, 'utf8', (err, text) => {
      console.log('readFile:', err ? err.code : 'ok', 'same content:', text === content);
      fs.readdir('.', (err, names) => {
        console.log('readdir:', err ? err.code : 'ok', 'listed:', names.indexOf(name) >= 0);
        fs.unlink(name, (err) => {
          console.log('unlink:', err ? err.code : 'ok');
          fs.readdir('.', (err, names) => {
            console.log('after unlink, listed:', names.indexOf(name) >= 0);
          });
        });
      });
    });
  });
});
// SPDX-License-Identifier: MIT
