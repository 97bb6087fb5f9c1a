// oracle: node10 node11 node
// The synchronous fs functions scripts use, with Node's errors (message,
// code, errno, syscall, path; rename's dest), fs.promises (Node 10+), the
// callback forms of mkdir (recursive; Node 13.11+ gives the first
// directory made), rmdir, rename, access and appendFile. Runs in a fresh
// scratch directory.
const fs = require('fs');
const current = Number(process.versions.node.split('.')[0]) >= 20;
fs.writeFileSync('a.txt', 'hello');
fs.appendFileSync('a.txt', ' world');
console.log(fs.readFileSync('a.txt', 'utf8'), fs.readFileSync('a.txt').length,
  fs.readFileSync('a.txt', { encoding: 'hex' }), fs.existsSync('a.txt'), fs.existsSync('nope'),
  fs.existsSync());
console.log(fs.statSync('a.txt').size, fs.statSync('a.txt').isFile(), fs.statSync('.').isDirectory());
for (const f of [() => fs.readFileSync('nope'), () => fs.statSync('nope'), () => fs.mkdirSync('a.txt'),
  () => fs.renameSync('nope', 'other'), () => fs.accessSync('nope'), () => fs.readdirSync('a.txt')]) {
  try {
    f();
  } catch (e) {
    console.log(e.message, e.code, e.errno, e.syscall, e.path, e.dest);
  }
}
if (current) console.log('throwIfNoEntry:', fs.statSync('nope', { throwIfNoEntry: false }));
console.log('mkdirSync recursive:', fs.mkdirSync('d/e/f', { recursive: true }),
  fs.mkdirSync('d', { recursive: true }));
fs.writeFileSync('d/z.txt', 'z');
fs.writeFileSync('d/b.txt', Uint8Array.from([104, 105]));
console.log(fs.readdirSync('d'), fs.readFileSync('d/b.txt', 'utf8'));
fs.unlinkSync('d/z.txt');
fs.renameSync('d/b.txt', 'd/c.txt');
console.log(fs.readdirSync('d'));
try {
  fs.rmdirSync('d');
} catch (e) {
  console.log(e.message);
}
fs.accessSync('a.txt');

// The callback forms, one after another (completions of requests in
// flight together come in whatever order the threadpool finishes them).
fs.mkdir('m/n', { recursive: true }, (err, first) => {
  console.log('mkdir callback', err, first);
  fs.rename('m/n', 'm/o', (err2) => {
    console.log('rename callback', err2, fs.readdirSync('m'));
    fs.rmdir('m/o', (err3) => {
      console.log('rmdir callback', err3, fs.readdirSync('m'));
      fs.access('nope', (err4) => {
        console.log('access callback', err4.code);
        fs.appendFile('a.txt', '?', (err5) => {
          console.log('appendFile callback', err5, fs.readFileSync('a.txt', 'utf8'));
          promises();
        });
      });
    });
  });
});
const p = fs.promises;
console.log(typeof p.readFile, typeof p.mkdir);
async function promises() {
  await p.writeFile('p.txt', 'promised');
  console.log(await p.readFile('p.txt', 'utf8'), (await p.readFile('p.txt')).length);
  console.log((await p.stat('p.txt')).size, await p.readdir('d'));
  console.log('mkdir recursive:', await p.mkdir('q/r', { recursive: true }));
  await p.rename('p.txt', 'q/p.txt');
  await p.unlink('q/p.txt');
  await p.rmdir('q/r');
  await p.access('q');
  try {
    await p.readFile('nope');
  } catch (e) {
    console.log('rejects', e.message, e.code);
  }
  await p.appendFile('a.txt', '!');
  console.log(fs.readFileSync('a.txt', 'utf8'));
}
// SPDX-License-Identifier: MIT
