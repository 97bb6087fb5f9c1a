// oracle: node10 node11 node
// util.inspect (console.log) and Symbol.toStringTag: a tag that differs
// from the constructor's name follows it, "Foo [Tag] {}", in Node 10 and
// 11 as in 20, for classes and built-ins (Math, JSON, Atomics, generator
// objects, iterators) alike; Node 20 leaves the tag out when it is an own
// enumerable property, printed among the keys anyway. (Listed in issue 34:
// node10 and node11 printed no tag.)
class Foo { get [Symbol.toStringTag]() { return 'Tag'; } }
console.log(new Foo());
class Bar {}
Bar.prototype[Symbol.toStringTag] = 'Own';
console.log(new Bar());
console.log({ [Symbol.toStringTag]: 'Plain', a: 1 });
class Same { get [Symbol.toStringTag]() { return 'Same'; } }
console.log(new Same());
console.log(Object.create(null, { [Symbol.toStringTag]: { value: 'Nul' } }));
console.log(Math);
console.log(JSON);
console.log(Atomics);
console.log(new Map([[1, 2]]), new Set([1]));
console.log(Promise.resolve(1));
console.log((function* g() {})());
console.log(async function af() {}, function* gf() {});
console.log([1, 2][Symbol.iterator]());
class T extends Map { get [Symbol.toStringTag]() { return 'TM'; } }
console.log(new T([[3, 4]]));
class A extends Array { get [Symbol.toStringTag]() { return 'TA'; } }
console.log(A.from([1]));
// SPDX-License-Identifier: MIT
