// SPDX-License-Identifier: MIT
// Node's hello-world HTTP server, for bench/fixed-load.py: the server a
// Node user starts first, on the Node of the machine's Debian release
// (its real libuv, or phaseloop's drop-in).
//
//   node http_hello.js [--tick MS] [--workers N]
//
// Prints "listening on 127.0.0.1:PORT" once it accepts connections.
// --tick MS: a repeating timer that refreshes a cached wall-clock second,
// as servers keep one for their logs (the idle measurement). --workers N:
// N worker processes of the cluster module, which by default on Linux
// hands connections out from the primary process (one loop per core);
// the port line comes once every worker listens. SIGTERM stops it with
// exit status 0.
'use strict';
const cluster = require('cluster');
const http = require('http');

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  if (i < 0) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isInteger(v) || v < 1) {
    console.error(`http_hello: ${name} needs a positive whole number`);
    process.exit(2);
  }
  return v;
}

const tick = option('--tick', 0);
const workers = option('--workers', 1);

if (workers > 1 && cluster.isPrimary) {
  let port = 0;
  let ready = 0;
  for (let i = 0; i < workers; i++) {
    cluster.fork().on('listening', (address) => {
      port = address.port;
      if (++ready === workers) console.log(`listening on 127.0.0.1:${port}`);
    });
  }
  process.on('SIGTERM', () => {
    for (const w of Object.values(cluster.workers)) w.kill('SIGTERM');
    cluster.on('exit', () => {
      if (Object.keys(cluster.workers).length === 0) process.exit(0);
    });
  });
} else {
  let second = 0;
  if (tick > 0) setInterval(() => { second = Math.floor(Date.now() / 1000); }, tick);
  const server = http.createServer((req, res) => {
    res.setHeader('Content-Type', 'text/plain');
    res.end('hello\n');
  });
  // Port 0 in the workers of a cluster: the primary gives all of them the
  // same port.
  server.listen(0, '127.0.0.1', () => {
    if (workers === 1) console.log(`listening on 127.0.0.1:${server.address().port}`);
  });
  process.on('SIGTERM', () => {
    server.close(() => process.exit(second >= 0 ? 0 : 1));
    server.closeAllConnections();
  });
}
