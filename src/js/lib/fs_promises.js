// require('fs').promises (Node 10+) and require('fs/promises') (Node 14+):
// the promise forms of the fs functions the runner has, each one the same
// requests as its callback form.
'use strict';

const fs = require('fs');

function promised(name) {
  const fn = fs[name];
  const wrapped = {
    [name](...args) {
      return new Promise((resolve, reject) => {
        fn(...args, (err, value) => (err ? reject(err) : resolve(value)));
      });
    },
  }[name];
  return wrapped;
}

for (const name of ['access', 'copyFile', 'rename', 'rmdir', 'mkdir', 'readdir', 'stat', 'unlink', 'writeFile',
  'appendFile', 'readFile']) {
  exports[name] = promised(name);
}
