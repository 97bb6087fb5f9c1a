// oracle: node10 node11 node
// A rejection left unhandled by a promise job of an 'exit' listener, and no
// 'unhandledRejection' listener: Node 10 and 11 would warn in a nextTick,
// which is dropped once the process is ending, so the status stays 0; Node
// 20 reports it as an uncaught exception and exits with status 1.
process.on('exit', (code) => {
  console.log('exit', code);
  Promise.resolve().then(() => {
    console.log('promise job queued in exit');
    Promise.reject(new Error('rejected in exit'));
  });
});
console.log('main');
// SPDX-License-Identifier: MIT
