// oracle: node11 node
// Timeout.hasRef() follows ref() and unref() (Node 10 has no hasRef).
const t = setTimeout(() => console.log('fired, hasRef =', t.hasRef()), 5);
console.log('new timer:', t.hasRef());
t.unref();
console.log('after unref:', t.hasRef());
t.ref();
console.log('after ref:', t.hasRef());
const u = setTimeout(() => {}, 1000);
u.unref();
console.log('other timer unref\'d:', u.hasRef());
// SPDX-License-Identifier: MIT
