// oracle: node10 node11 node
// The errors Node throws for a callback that is not a function, as each
// version made them: Node 10 and 11 a TypeError named
// "TypeError [ERR_INVALID_CALLBACK]" with the code on its prototype and the
// message "Callback must be a function"; Node 20 ERR_INVALID_ARG_TYPE with
// an own code, the name TypeError, a message that names what it received,
// and a toString that adds the code.
const calls = [
  ['setTimeout', () => setTimeout('x')],
  ['setInterval', () => setInterval(null, 1)],
  ['setImmediate', () => setImmediate()],
  ['nextTick', () => process.nextTick(1)],
  ['nextTick({})', () => process.nextTick({})],
];
for (const [what, call] of calls) {
  try {
    call();
    console.log(what, 'did not throw');
  } catch (e) {
    console.log(what, e instanceof TypeError, JSON.stringify(e.name), e.code, JSON.stringify(e.message));
    console.log('  own code', Object.prototype.hasOwnProperty.call(e, 'code'),
                'own name', Object.prototype.hasOwnProperty.call(e, 'name'),
                'keys', JSON.stringify(Object.keys(e)));
    console.log('  ' + String(e));
  }
}
// SPDX-License-Identifier: MIT
