// require('fs') in a scratch directory given as argv[2]. One operation at
// a time, so that the output is the same on every run.
const fs = require('fs');
const dir = process.argv[2];
const rel = (p) => p.split(dir).join('DIR');
const steps = [
  (next) => fs.writeFile(dir + '/b.txt', 'héllo\n', (e) => { console.log('writeFile', e); next(); }),
  (next) => fs.writeFile(dir + '/a.txt', new Uint8Array([104, 105]), (e) => { console.log('writeFile bytes', e); next(); }),
  (next) => fs.readFile(dir + '/b.txt', 'utf8', (e, d) => { console.log('readFile utf8', e, JSON.stringify(d)); next(); }),
  (next) => fs.readFile(dir + '/b.txt', (e, b) => {
    console.log('readFile', e, b.length, b.toString(), b.toString('hex'), b.toString('base64'), b);
    next();
  }),
  (next) => fs.readFile(dir + '/a.txt', { encoding: 'latin1' }, (e, d) => { console.log('readFile options', d); next(); }),
  (next) => fs.stat(dir + '/b.txt', (e, s) => {
    console.log('stat', e, s.isFile(), s.isDirectory(), s.size, typeof s.mode, typeof s.mtimeMs);
    next();
  }),
  (next) => fs.stat(dir, (e, s) => { console.log('stat dir', s.isFile(), s.isDirectory()); next(); }),
  (next) => fs.readdir(dir, (e, names) => { console.log('readdir', e, names); next(); }),
  (next) => fs.unlink(dir + '/a.txt', (e) => { console.log('unlink', e); next(); }),
  (next) => fs.unlink(dir + '/a.txt', (e) => {
    console.log(rel(e.message), e.code, e.errno, e.syscall, rel(e.path), Object.keys(e));
    next();
  }),
  (next) => fs.readFile(dir + '/none', (e) => { console.log(rel(e.message)); next(); }),
  (next) => fs.readFile(dir, (e) => { console.log(e.message, Object.keys(e)); next(); }),
  (next) => fs.stat(dir + '/none', (e) => { console.log(rel(e.message)); next(); }),
  (next) => fs.readdir(dir + '/none', (e) => { console.log(rel(e.message)); next(); }),
  (next) => fs.writeFile(dir + '/none/x', 'x', (e) => { console.log(rel(e.message)); next(); }),
];
let i = 0;
const next = () => { if (i < steps.length) steps[i++](next); };
next();
try {
  require('nope');
} catch (e) {
  console.log(e.message.split('\n')[0], e.code);
}
// SPDX-License-Identifier: MIT
