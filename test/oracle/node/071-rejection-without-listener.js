// oracle: node10 node11 node
// A rejection nobody handles and no 'unhandledRejection' listener: Node
// 10 and 11 emit warnings (three 'warning' events the first time) and go
// on; Node 15+ make it an uncaught exception, here taken by
// process.on('uncaughtException') with the origin 'unhandledRejection' --
// an Error as it is, another value wrapped in an UnhandledPromiseRejection
// error. A late handler then gives Node 10 and 11 one more warning.
process.on('uncaughtException', (err, origin) => {
  console.log('uncaughtException', err.name, err.code, err.message, origin);
});
process.on('warning', (w) => console.log('warning', w.name, w.code, w.message.split('\n')[0]));
const p = Promise.reject(new Error('an error'));
Promise.reject(42);
setTimeout(() => {
  console.log('timer');
  p.catch(() => console.log('handled late'));
}, 1);
process.on('exit', (code) => console.log('exit', code));
// SPDX-License-Identifier: MIT
