// A posted message is a structured clone, taken when it is posted.
const ch = new MessageChannel();
const msg = { a: 1, nested: { list: [1, 2, { deep: true }] }, m: new Map([['k', [1, 2]]]) };
ch.port1.onmessage = function (e) {
  const d = e.data;
  console.log('a', d.a, 'extra', d.extra);
  console.log('list', d.nested.list.length, d.nested.list[2].deep);
  console.log('map', d.m instanceof Map, d.m.get('k').join(','));
  console.log('copy', d !== msg, e.target === ch.port1, this === ch.port1);
  ch.port1.close();
};
ch.port2.postMessage(msg);
msg.a = 99;
msg.extra = 'added';
msg.nested.list.push(4);
msg.m.set('k', []);
try {
  ch.port2.postMessage(() => 1);
  console.log('posting a function did not throw');
} catch (e) {
  console.log('posting a function threw');
}
// SPDX-License-Identifier: MIT
