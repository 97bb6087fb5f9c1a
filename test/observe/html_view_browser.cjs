#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// html_view_browser.cjs -- opens a page written by `phaseloop trace view` in real
// headless Chromium and checks it: it loads from file:// with no network,
// logs no console error and throws nothing; it draws (body data-ready),
// holds the number of slices and flows the trace has (body data-slices,
// data-flows), paints the
// canvas; zooming with the wheel, panning and hovering a slice keep it
// error-free and show a tooltip. Optionally saves a screenshot.
//
// Usage: node html_view_browser.cjs PAGE.html SLICES FLOWS [SCREENSHOT.png]
// Environment: PHASELOOP_CHROMIUM (default /usr/bin/chromium),
// PHASELOOP_BROWSER_ORACLE_DIR (where playwright-core is; default
// <repo>/.oracle/browser).
// Exit status: 0 when every check holds, 1 when one fails, 2 on usage or a
// browser that cannot start.
'use strict';

const path = require('path');

const [pagePath, slicesText, flowsText, shot] = process.argv.slice(2);
if (!pagePath || !/^[0-9]+$/.test(slicesText || '') || !/^[0-9]+$/.test(flowsText || '')) {
  process.stderr.write('usage: node html_view_browser.cjs PAGE.html SLICES FLOWS [SCREENSHOT.png]\n');
  process.exit(2);
}
const repo = path.resolve(__dirname, '..', '..');
const oracleDir = process.env.PHASELOOP_BROWSER_ORACLE_DIR || path.join(repo, '.oracle', 'browser');
let playwright;
try {
  playwright = require(path.join(oracleDir, 'node_modules', 'playwright-core'));
} catch (e) {
  process.stderr.write(`html_view_browser.cjs: no playwright-core under ${oracleDir}: run tools/install-browser-oracle\n`);
  process.exit(2);
}

async function main() {
  const browser = await playwright.chromium.launch({
    executablePath: process.env.PHASELOOP_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    timeout: 30000,
  });
  const problems = [];
  let requests = 0;
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    page.on('console', m => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
    page.on('pageerror', e => problems.push(`uncaught: ${e.message}`));
    page.on('request', r => { if (!r.url().startsWith('file:')) requests++; });
    await page.goto('file://' + path.resolve(pagePath));
    await page.waitForSelector('body[data-ready="1"]', { timeout: 10000 });
    const facts = await page.evaluate(() => {
      const c = document.getElementById('view');
      const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let painted = 0;
      for (let i = 0; i < px.length; i += 4) if (px[i + 3] !== 0) painted++;
      return { slices: Number(document.body.dataset.slices), tracks: Number(document.body.dataset.tracks),
               flows: Number(document.body.dataset.flows),
               painted, tables: document.querySelectorAll('#summary table').length,
               width: c.width, height: c.height };
    });
    const want = Number(slicesText);
    if (facts.slices !== want) problems.push(`the page holds ${facts.slices} slices, the trace ${want}`);
    if (facts.flows !== Number(flowsText)) problems.push(`the page holds ${facts.flows} flows, the trace ${flowsText}`);
    if (!(facts.tracks >= 1)) problems.push(`no track drawn (${facts.tracks})`);
    if (facts.painted < 1000) problems.push(`the canvas is nearly empty (${facts.painted} painted pixels)`);
    if (facts.tables < 3) problems.push(`the summary has ${facts.tables} tables, wanted 3 per track`);
    // Interaction: hover the first phase slice, zoom at it, pan.
    const box = await page.locator('#view').boundingBox();
    const y = box.y + 24 + 16 + 9;  // the first track's phase row
    let tip = false;
    for (let x = box.x + 200; x < box.x + box.width - 10 && !tip; x += 6) {
      await page.mouse.move(x, y);
      tip = await page.evaluate(() => getComputedStyle(document.getElementById('tip')).display !== 'none');
    }
    if (!tip) problems.push('hovering the phase row showed no tooltip');
    await page.mouse.wheel(0, -400);
    await page.mouse.down();
    await page.mouse.move(box.x + 400, y, { steps: 4 });
    await page.mouse.up();
    await page.click('#reset');
    if (shot) await page.screenshot({ path: shot, fullPage: false });
    if (requests) problems.push(`${requests} requests outside the file`);
    console.log(`ok: ${facts.slices} slices, ${facts.flows} flows, ${facts.tracks} tracks, ${facts.painted} painted pixels, ${facts.tables} tables`);
  } finally {
    await browser.close();
  }
  if (problems.length) {
    for (const p of problems) console.log('FAIL: ' + p);
    process.exit(1);
  }
}

main().catch(e => {
  process.stderr.write(`html_view_browser.cjs: ${e.stack || e}\n`);
  process.exit(2);
});
