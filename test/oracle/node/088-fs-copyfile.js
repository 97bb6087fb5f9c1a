// oracle: node10 node11 node
// fs.copyFile, fs.copyFileSync and fs.promises.copyFile: one request each,
// the destination replaced unless COPYFILE_EXCL (1) is given, errors naming
// both paths. (fs.copyFile was missing; found by tools/fuzz-oracle.)
const fs = require('fs');
fs.writeFileSync('a', 'alpha');
fs.copyFile('a', 'b', (err) => {
  console.log('copyFile a b:', err, fs.readFileSync('b', 'utf8'));
  fs.copyFile('missing', 'c', (err2) => {
    console.log('copyFile missing c:', err2.code, err2.syscall, err2.message);
    fs.copyFile('a', 'b', 1, (err3) => {
      console.log('copyFile a b EXCL:', err3.code, err3.message);
      try {
        fs.copyFileSync('missing', 'd');
      } catch (e) {
        console.log('copyFileSync missing d:', e.code, e.message);
      }
      fs.copyFileSync('b', 'd');
      console.log('copyFileSync b d:', fs.readFileSync('d', 'utf8'));
      fs.promises.copyFile('d', 'e').then(() => {
        console.log('promises.copyFile d e:', fs.readFileSync('e', 'utf8'));
        return fs.promises.copyFile('nope', 'f');
      }).catch((e) => console.log('promises.copyFile nope f:', e.code, e.message));
    });
  });
});
// SPDX-License-Identifier: MIT
