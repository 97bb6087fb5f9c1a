// oracle: node10 node11 node
// process.emitWarning: the 'warning' event comes on a later tick with an
// Error named after the type, its code and detail; Node's own printer is
// one of the listeners from the start.
console.log(process.listenerCount('warning'), process.eventNames(),
  Object.getPrototypeOf(process).constructor.name, typeof process.emitWarning,
  Object.keys(process.memoryUsage()), typeof process.exitCode, process._exiting);
process.on('warning', (w) => console.log('warning event', w.name, w.message, w.code, w.detail));
process.emitWarning('hello');
process.emitWarning('dep', 'DeprecationWarning', 'DEP0999');
process.emitWarning('custom', { type: 'MyWarning', code: 'X1', detail: 'more' });
const e = new Error('obj');
e.name = 'ObjWarning';
process.emitWarning(e);
try {
  process.emitWarning(5);
} catch (err) {
  console.log(err.name, err.code);
}
console.log('sync end');
process.nextTick(() => console.log('tick'));
// SPDX-License-Identifier: MIT
