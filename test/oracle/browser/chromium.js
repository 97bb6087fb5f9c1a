#!/usr/bin/env node
// chromium.js -- run one browser scenario in real headless Chromium and print
// its console.log lines, in order, on stdout.
//
// Usage: node chromium.js SCENARIO.js
//        node chromium.js --runs N SCENARIO.js...   (N runs of each, one
//                                                     browser; check-stable.sh)
//        node chromium.js --version              (prints "Chromium X.Y.Z.W")
//
// The page: a tiny HTTP server on 127.0.0.1 (random port) serves a blank
// document. Once it has loaded and the load event's work is over, the harness
// inserts <script src="/scenario.js">: the scenario then runs as an ordinary
// task of a settled page (fetched like any script, evaluated as a classic
// script, with a microtask checkpoint after it and the normal rendering and
// idle periods after that), not inside page load, where Chromium holds back
// frames and runs load-time tasks of its own.
//
// Completion: a scenario ends by printing the line `END` (console.log('END'))
// once nothing of it is pending any more. The harness stops at that line, then
// waits a short grace period (PHASELOOP_BROWSER_GRACE_MS, default 150) and
// fails if anything is printed after it. No harness timer or animation frame
// runs in the page while the scenario does: each line leaves the page as it
// is printed, through a CDP binding (Runtime.addBinding), an IPC message that
// queues nothing in the page's event loop.
//
// With --runs N every run gets a fresh browser context (its own renderer
// process) in one browser, and stdout holds, per run, a line "=== run I",
// the run's lines, and "[exit 0]" or "[exit 1] REASON". With several
// scenarios (--runs N is then required; tools/fuzz-oracle), each runs N
// times in the one browser and its runs are headed "=== FILE run I".
//
// Failures (exit 1, message on stderr, the lines so far on stdout):
//   - no END within PHASELOOP_BROWSER_TIMEOUT_MS (default 10000);
//   - an uncaught exception, unless the scenario set window.onerror (then the
//     scenario decides what to print);
//   - an unhandled promise rejection, unless the scenario set
//     window.onunhandledrejection;
//   - console.log of anything but strings, numbers, booleans, null,
//     undefined and bigints (their formatting would be the console's, not
//     the scenario's);
//   - output after END.
// Exit 2: usage, or Chromium / playwright-core missing or failing to start.
//
// Environment:
//   PHASELOOP_CHROMIUM             the browser (default /usr/bin/chromium)
//   PHASELOOP_BROWSER_ORACLE_DIR   where tools/install-browser-oracle put
//                                  playwright-core (default <repo>/.oracle/browser)
//   PHASELOOP_BROWSER_TIMEOUT_MS   cap on waiting for END (default 10000)
//   PHASELOOP_BROWSER_GRACE_MS     quiet time required after END (default 150)
'use strict';

const fs = require('fs');
const http = require('http');
const path = require('path');

const repo = path.resolve(__dirname, '..', '..', '..');
const oracleDir = process.env.PHASELOOP_BROWSER_ORACLE_DIR || path.join(repo, '.oracle', 'browser');
const chromiumPath = process.env.PHASELOOP_CHROMIUM || '/usr/bin/chromium';
const timeoutMs = Number(process.env.PHASELOOP_BROWSER_TIMEOUT_MS || 10000);
const graceMs = Number(process.env.PHASELOOP_BROWSER_GRACE_MS || 150);
const END = 'END';

// The flags this kind of machine needs: no sandbox (tests run as root), no
// GPU, and no background connections to the closed network (without them
// Chromium keeps retrying Google's hosts). Playwright adds --headless and its automation defaults, among them
// the switches that stop Chromium from throttling timers of background pages.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const USAGE = 'usage: node chromium.js [--runs N] SCENARIO.js | node chromium.js --runs N SCENARIO.js... | node chromium.js --version';

function fail(code, msg) {
  process.stderr.write(`chromium.js: ${msg}\n`);
  process.exit(code);
}

function loadPlaywright() {
  try {
    return require(path.join(oracleDir, 'node_modules', 'playwright-core'));
  } catch (e) {
    fail(2, `playwright-core not found under ${oracleDir} (${e.code || e.message}); run tools/install-browser-oracle`);
  }
}

// Runs in the page before the scenario (served as /harness.js). It records
// console.log lines and watches for errors. Every line, and the first
// failure, goes out at once through the binding __phaseloopOracleReport(JSON)
// (an IPC message to the harness, nothing queued in the page); the binding is
// removed from the global object before the scenario can see it.
const HARNESS = `(() => {
  'use strict';
  const report = globalThis.__phaseloopOracleReport;
  delete globalThis.__phaseloopOracleReport;
  let state = 'running';
  const send = (kind, text) => report(JSON.stringify({ kind, text }));
  const fmt = (v) => {
    switch (typeof v) {
      case 'string': return v;
      case 'number': return Object.is(v, -0) ? '-0' : String(v);
      case 'bigint': return String(v) + 'n';
      case 'boolean': case 'undefined': return String(v);
      default:
        if (v === null) return 'null';
        throw new TypeError('oracle scenarios log primitives only, got ' + typeof v);
    }
  };
  const stop = (text) => {
    if (state === 'failed') return;
    state = 'failed';
    send('error', text);
  };
  console.log = function log(...args) {
    let line;
    try { line = args.map(fmt).join(' '); } catch (e) { stop(e.message); throw e; }
    if (state === 'failed') return;
    if (state === 'ended') { stop('output after ${END}: ' + JSON.stringify(line) + ' (the scenario left work pending)'); return; }
    send('line', line);
    if (line === ${JSON.stringify(END)}) state = 'ended';
  };
  addEventListener('error', (e) => {
    // A scenario that sets window.onerror handles its own errors.
    if (typeof window.onerror === 'function') return;
    const where = e.filename ? ' (' + e.filename.replace(/^.*\\//, '') + ':' + e.lineno + ')' : '';
    stop((e.message || 'Uncaught ' + String(e.error)) + where);
  });
  addEventListener('unhandledrejection', (e) => {
    // A scenario that sets window.onunhandledrejection handles its own.
    if (typeof window.onunhandledrejection === 'function') return;
    const r = e.reason;
    stop('unhandled rejection: ' + (r && r.stack ? r.stack : String(r)));
  });
})();`;

const PAGE = '<!doctype html><html><head><meta charset="utf-8"><title>phaseloop oracle</title>' +
  '<script src="/harness.js"></script></head><body></body></html>';

function serve(scenarioSource) {
  const bodies = {
    '/': ['text/html; charset=utf-8', PAGE],
    '/harness.js': ['text/javascript; charset=utf-8', HARNESS],
    '/scenario.js': ['text/javascript; charset=utf-8', scenarioSource],
  };
  const server = http.createServer((req, res) => {
    const body = bodies[req.url];
    if (!body) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': body[0], 'Cache-Control': 'no-store' });
    res.end(body[1]);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

// runOnce(browser, base): one scenario run in a fresh browser context (its
// own renderer process and storage). Returns { lines, failure }.
async function runOnce(browser, base) {
  const context = await browser.newContext({ viewport: { width: 800, height: 600 } });
  try {
    const page = await context.newPage();
    // The binding exists in the page before any of its scripts run; each
    // call arrives here as a CDP event, in the order the page made them.
    const cdp = await context.newCDPSession(page);
    const lines = [];
    let failure = null;
    let wake = () => {};
    cdp.on('Runtime.bindingCalled', (ev) => {
      if (ev.name !== '__phaseloopOracleReport') return;
      const r = JSON.parse(ev.payload);
      if (r.kind === 'line') lines.push(r.text);
      else if (failure === null) failure = r.text;
      wake();
    });
    await cdp.send('Runtime.enable');
    await cdp.send('Runtime.addBinding', { name: '__phaseloopOracleReport' });

    await page.goto(base + '/', { waitUntil: 'load' });
    // Let the load event's own work finish before the scenario starts.
    await page.evaluate(() => new Promise((r) => setTimeout(r, 50)));
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.src = '/scenario.js';
      document.head.appendChild(s);
    });

    // until(pred, ms): resolves true once pred() holds, false after ms.
    const until = (pred, ms) => new Promise((resolve) => {
      const timer = setTimeout(() => { wake = () => {}; resolve(pred()); }, ms);
      wake = () => { if (pred()) { clearTimeout(timer); wake = () => {}; resolve(true); } };
      wake();
    });
    const ended = () => failure !== null || lines[lines.length - 1] === END;
    const inTime = await until(ended, timeoutMs);
    // Anything printed after END means the scenario left work pending.
    if (inTime && failure === null) await until(() => failure !== null, graceMs);
    if (failure === null && !inTime) {
      failure = `no ${END} line within ${timeoutMs} ms (a scenario ends by printing ${END})`;
    }
    return { lines, failure };
  } finally {
    await context.close().catch(() => {});
  }
}

async function main() {
  const argv = process.argv.slice(2);
  let runs = 0;  // 0: one run, plain output; N (--runs N): the per-run format
  let versionOnly = false;
  while (argv.length && argv[0].startsWith('--')) {
    const opt = argv.shift();
    if (opt === '--version') versionOnly = true;
    else if (opt === '--runs' && /^[1-9][0-9]*$/.test(argv[0] || '')) runs = Number(argv.shift());
    else fail(2, `unknown option ${opt}\n${USAGE}`);
  }
  if (versionOnly ? argv.length !== 0 : argv.length !== 1 && (runs === 0 || argv.length === 0)) fail(2, USAGE);
  const sources = [];
  if (!versionOnly) {
    for (const file of argv) {
      try {
        sources.push(fs.readFileSync(file, 'utf8'));
      } catch (e) {
        fail(2, `cannot read ${file}: ${e.message}`);
      }
    }
  }
  const { chromium } = loadPlaywright();
  if (!fs.existsSync(chromiumPath)) {
    fail(2, `${chromiumPath} not found; run tools/install-browser-oracle (or set PHASELOOP_CHROMIUM)`);
  }

  let browser;
  let server;
  try {
    try {
      // Playwright gives the browser a new empty --user-data-dir under
      // os.tmpdir(), that is $TMPDIR, and removes it on close.
      browser = await chromium.launch({
        executablePath: chromiumPath,
        headless: true,
        args: CHROMIUM_ARGS,
        timeout: 30000,
      });
    } catch (e) {
      throw Object.assign(new Error(`cannot start ${chromiumPath}: ${e.message.split('\n')[0]}`), { code: 2 });
    }
    if (versionOnly) {
      process.stdout.write(`Chromium ${browser.version()}\n`);
      return 0;
    }
    if (sources.length > 1) {
      // Several scenarios: each on a server of its own, N runs each.
      for (let k = 0; k < sources.length; k++) {
        server = await serve(sources[k]);
        const at = `http://127.0.0.1:${server.address().port}`;
        for (let i = 1; i <= runs; i++) {
          const r = await runOnce(browser, at);
          process.stdout.write(`=== ${argv[k]} run ${i}\n` + r.lines.map((l) => l + '\n').join(''));
          process.stdout.write(r.failure === null ? '[exit 0]\n' : `[exit 1] ${r.failure}\n`);
        }
        server.close();
        server = null;
      }
      return 0;
    }
    server = await serve(sources[0]);
    const base = `http://127.0.0.1:${server.address().port}`;
    if (runs === 0) {
      const r = await runOnce(browser, base);
      process.stdout.write(r.lines.map((l) => l + '\n').join(''));
      if (r.failure !== null) throw Object.assign(new Error(r.failure), { code: 1 });
      return 0;
    }
    // --runs N (check-stable.sh, also N = 1): each run's lines, then its status.
    for (let i = 1; i <= runs; i++) {
      const r = await runOnce(browser, base);
      process.stdout.write(`=== run ${i}\n` + r.lines.map((l) => l + '\n').join(''));
      process.stdout.write(r.failure === null ? '[exit 0]\n' : `[exit 1] ${r.failure}\n`);
    }
    return 0;
  } finally {
    if (server) server.close();
    if (browser) await browser.close().catch(() => {});
  }
}

main().then(
  (code) => process.exit(code),
  (e) => fail(e.code || 1, e.message),
);
// SPDX-License-Identifier: MIT
