// require('fs').promises (Node 10+) and require('fs/promises') (Node 14+):
// the promise forms of the fs functions the runner has, each one the same
// requests as its callback form.
//
// Where a promise settles matters next to other promise jobs: each real
// Node wraps its native request's promise in an async function, and every
// await and return of a promise there is a turn of the microtask queue
// (checked against real Node 10, 11 and 20: test/oracle/node/108). After
// the request completes, the caller's reaction runs
//   - Node 10 and 11, `return binding.f()`: 2 turns later;
//   - Node 10 and 11, `const r = await binding.f(); return r` (readdir,
//     stat): 3 turns later (V8 before 7.2 spends 3 turns on an await);
//   - Node 20, `return await binding.f().then(undefined, rethrow)`: 3
//     turns later, or 5 on an error (the rethrow returns a rejected
//     promise, which costs two more).
// The single-request functions below are shaped that way; readFile,
// writeFile and appendFile, which are several requests in real Node, keep
// their callback form's requests.
'use strict';

const fs = require('fs');
const v8Before72 = internal.mode === 'node10' || internal.mode === 'node11';

// The native request's promise: settled from its completion callback.
function request(fn, args) {
  return new Promise((resolve, reject) => {
    fn(...args, (err, value) => (err ? reject(err) : resolve(value)));
  });
}

// Node 20's handleErrorFromBinding: the error again, as a rejected promise.
function rethrow(err) {
  return Promise.reject(err);
}

function shaped(name, awaited) {
  const fn = fs[name];
  let wrapped;
  if (!v8Before72) {
    wrapped = async (...args) => await request(fn, args).then(undefined, rethrow);
  } else if (awaited) {
    // An await as V8 before 7.2 does it: a promise of its own, resolved with
    // the awaited one, then awaited.
    wrapped = async (...args) => {
      const result = await new Promise((resolve) => resolve(request(fn, args)));
      return result;
    };
  } else {
    wrapped = async (...args) => request(fn, args);
  }
  return { [name]: (...args) => wrapped(...args) }[name];
}

function promised(name) {
  const fn = fs[name];
  return {
    [name](...args) {
      return request(fn, args);
    },
  }[name];
}

for (const name of ['access', 'copyFile', 'rename', 'rmdir', 'mkdir', 'unlink']) {
  exports[name] = shaped(name, false);
}
for (const name of ['readdir', 'stat']) {
  exports[name] = shaped(name, true);
}
for (const name of ['writeFile', 'appendFile', 'readFile']) {
  exports[name] = promised(name);
}
// SPDX-License-Identifier: MIT
