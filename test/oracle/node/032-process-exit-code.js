// oracle: node10 node11 node
// process.exit(code) from a nextTick inside an immediate: the code wins over
// process.exitCode and nothing after it prints.
process.exitCode = 2;
setImmediate(() => {
  console.log('immediate');
  process.nextTick(() => {
    console.log('tick calls exit(5)');
    process.exit(5);
  });
  Promise.resolve().then(() => console.log('promise (must not run)'));
});
setTimeout(() => console.log('timer (must not run)'), 1000);
// SPDX-License-Identifier: MIT
