// oracle: node10 node11 node
// An async timer callback awaits: the rest runs as a microtask. Only the
// timer/microtask interleaving is observed (no other promise job competes),
// so the engine's await tick count does not matter: Node 10 differs by its
// timer lists alone.
setTimeout(async () => {
  console.log('t1 before await');
  await null;
  console.log('t1 after await');
}, 3);
setTimeout(async () => {
  console.log('t2 before await');
  await undefined;
  console.log('t2 after await');
}, 3);
const s = Date.now(); while (Date.now() - s < 15) {}
// SPDX-License-Identifier: MIT
