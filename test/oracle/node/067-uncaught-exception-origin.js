// oracle: node10 node11 node
// The arguments of 'uncaughtException': Node 10.17+ and 12+ pass the
// origin ('uncaughtException') as the second, Node 11 only the error.
// queueMicrotask's callback that throws (Node 11+) reaches the handler and
// the rest of the microtasks run. A handler that throws ends the process
// with status 7, without 'exit'.
process.on('exit', (code) => console.log('never: exit', code));
process.on('uncaughtException', function (err, origin) {
  console.log('caught', err.message, arguments.length, origin);
  if (err.message === 'last') throw new Error('thrown by the handler');
});
if (typeof queueMicrotask === 'function') {
  queueMicrotask(() => {
    throw new Error('from queueMicrotask');
  });
}
Promise.resolve().then(() => console.log('next microtask'));
setTimeout(() => {
  throw new Error('last');
}, 1);
setTimeout(() => console.log('never: later timer'), 20);
// SPDX-License-Identifier: MIT
