// oracle: node10 node11 node
// Each mode offers the globals its Node version had: no global
// `performance` before Node 16 (perf_hooks only), no globalThis before
// Node 12, no queueMicrotask before Node 11.
console.log('performance', typeof performance);
console.log('globalThis', typeof globalThis);
console.log('queueMicrotask', typeof queueMicrotask);
console.log('setImmediate', typeof setImmediate, 'process', typeof process, 'global', typeof global);
// SPDX-License-Identifier: MIT
