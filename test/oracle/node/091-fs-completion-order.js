// oracle: node
// Node 20.11.1 and later turn libuv's io_uring off unless UV_USE_IO_URING
// is set: every file request goes to the threadpool, and requests that are
// all done before the loop polls call back in the order they were made,
// whichever libuv would have handed to io_uring (rename, stat, unlink,
// mkdir) or not (copyfile, access, scandir). (Found by tools/fuzz-oracle.)
const fs = require('fs');
const settle = () => { const t = Date.now() + 40; while (Date.now() < t); };  // long enough on a loaded machine
const log = (what) => (e) => console.log(what, e ? e.code : 'ok');
fs.rename('f0', 'f1', log('rename')); settle();
fs.copyFile('f1', 'f0', log('copyFile')); settle();
fs.stat('f1', log('stat')); settle();
fs.unlink('f1', log('unlink')); settle();
fs.access('f1', log('access')); settle();
fs.readdir('f1', log('readdir')); settle();
fs.mkdir('d', log('mkdir')); settle();
fs.rmdir('d', log('rmdir')); settle();
// SPDX-License-Identifier: MIT
