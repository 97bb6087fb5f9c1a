// oracle: node10 node11 node
// process.exitCode sets the status of a normal exit; the last assignment wins
// and the loop still runs to completion.
process.exitCode = 9;
setImmediate(() => {
  console.log('immediate still runs');
  setTimeout(() => {
    console.log('timer still runs, sets exitCode 3');
    process.exitCode = 3;
  }, 5);
});
console.log('main sets exitCode 9');
// SPDX-License-Identifier: MIT
