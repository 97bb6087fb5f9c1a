// oracle: node10 node11 node
// The warning for too many listeners, as each Node words it: Node 20 names
// the limit ("MaxListeners is 10."), Node 10 and 11 do not; the emitter is
// named by its class; a listener of a Symbol event, and a limit of 0, warn
// never.
const EventEmitter = require('events');
process.on('warning', (w) => console.log(w.name + ': ' + w.message));
const e = new EventEmitter();
for (let i = 0; i < 11; i++) e.on('foo', () => {});
class My extends EventEmitter {}
const m = new My();
m.setMaxListeners(2);
for (let i = 0; i < 3; i++) m.on(Symbol('s'), () => {});
for (let i = 0; i < 3; i++) m.on('bar', () => {});
const none = new EventEmitter();
none.setMaxListeners(0);
for (let i = 0; i < 20; i++) none.on('many', () => {});
console.log('added');
// SPDX-License-Identifier: MIT
