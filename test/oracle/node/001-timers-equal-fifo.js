// oracle: node10 node11 node
// Timers created with the same duration fire in the order they were created.
for (const name of ['first', 'second', 'third', 'fourth']) {
  setTimeout(() => console.log(name), 10);
}
console.log('main done');
// SPDX-License-Identifier: MIT
