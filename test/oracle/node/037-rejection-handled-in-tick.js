// oracle: node10 node11 node
// A rejection whose handler is attached from a nextTick (before microtasks
// drain) counts as handled in every version.
const p = Promise.reject(new Error('late but in time'));
process.nextTick(() => {
  p.catch((e) => console.log('caught:', e.message));
});
setTimeout(() => console.log('timer runs, exit 0'), 5);
// SPDX-License-Identifier: MIT
