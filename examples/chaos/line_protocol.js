// SPDX-License-Identifier: MIT
// The key-value line protocol of line_protocol.c in Node: a server and its
// client on the loopback. The same real ordering bug: the server takes
// each 'data' chunk as whole lines, so a command the kernel hands over in
// two reads is read as two bad commands. It passes on a quiet machine (the
// client's one write arrives as one chunk) and fails under chaos mode,
// with Debian's node (linked to libuv.so.1) on phaseloop's drop-in:
//
//   phaseloop chaos -- node examples/chaos/line_protocol.js
//
// The fix: keep what follows a chunk's last newline for the next chunk
// (--fixed does that, and passes under every seed).
'use strict';
const net = require('net');

const fixed = process.argv.includes('--fixed');
const store = new Map();
let commands = 0;
let bad = 0;

function command(line) {
  if (line === '') return;
  commands++;
  let m;
  if ((m = /^PUT (\S+) (\S+)$/.exec(line))) {
    store.set(m[1], m[2]);
  } else if ((m = /^GET (\S+)$/.exec(line))) {
    if (!store.has(m[1])) {
      console.log(`GET ${m[1]}: no such key`);
      bad++;
    }
  } else {
    console.log(`bad command: '${line}'`);
    bad++;
  }
}

const server = net.createServer((socket) => {
  let partial = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk) => {
    if (fixed) {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop();
      lines.forEach(command);
    } else {
      // The bug: every chunk is taken as whole lines.
      chunk.split('\n').forEach(command);
    }
  });
  socket.on('end', () => {
    server.close();
    console.log(`${commands} commands, ${bad} bad`);
    process.exitCode = commands === 32 && bad === 0 ? 0 : 1;
  });
});

server.listen(0, '127.0.0.1', () => {
  let script = '';
  for (let i = 0; i < 16; i++) script += `PUT key${i} value${i}\nGET key${i}\n`;
  const client = net.connect(server.address().port, '127.0.0.1', () => {
    client.end(script);
  });
});
