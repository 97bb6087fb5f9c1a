// A rejection handled later in the same drain is not reported.
const p = Promise.reject(new Error('caught later'));
Promise.resolve().then(() => p.catch((e) => console.log('caught:', e.message)));
console.log('main');
// SPDX-License-Identifier: MIT
