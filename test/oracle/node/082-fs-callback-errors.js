// oracle: node10 node11 node
// An fs function called without a function where its callback goes: Node
// 10 and 11 say "Callback must be a function"; Node 20 names "cb" and
// shows the value it took for the callback -- the last argument, or the
// options before it (`callback ||= options` in readFile, writeFile and
// appendFile; the options when they are a function in stat, readdir,
// mkdir, rmdir and access).
const fs = require('fs');
const calls = {
  'readFile(f)': () => fs.readFile(__filename),
  "readFile(f, 'utf8')": () => fs.readFile(__filename, 'utf8'),
  "readFile(f, 'utf8', 5)": () => fs.readFile(__filename, 'utf8', 5),
  "writeFile(p, 'a')": () => fs.writeFile('/nonexistent/x', 'a'),
  "writeFile(p, 'a', {})": () => fs.writeFile('/nonexistent/x', 'a', {}),
  "appendFile(p, 'a', 'utf8')": () => fs.appendFile('/nonexistent/x', 'a', 'utf8'),
  'stat(f)': () => fs.stat(__filename),
  'stat(f, {})': () => fs.stat(__filename, {}),
  "readdir(d, 'utf8')": () => fs.readdir(__dirname, 'utf8'),
  'unlink(p)': () => fs.unlink('/nonexistent/x'),
  'unlink(p, null)': () => fs.unlink('/nonexistent/x', null),
  "rename(a, b, 'c')": () => fs.rename('/nonexistent/x', '/nonexistent/y', 'c'),
  'mkdir(p, 0o777)': () => fs.mkdir('/nonexistent/x', 0o777),
  'access(f, 4)': () => fs.access(__filename, 4),
  'rmdir(p)': () => fs.rmdir('/nonexistent/x'),
};
for (const [name, f] of Object.entries(calls)) {
  try {
    f();
    console.log(name, 'no error');
  } catch (e) {
    console.log(name, '->', e.name, e.code, e.message);
  }
}
// SPDX-License-Identifier: MIT
