#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// html_view_browser.cjs -- opens a page written by `phaseloop trace view` in real
// headless Chromium and checks it: it loads from file:// with no network,
// logs no console error and throws nothing; it draws (body data-ready),
// holds the number of slices and flows the trace has (body data-slices,
// data-flows), paints the canvas. Then each feature, through the mouse and
// keyboard as a reader would use them, measured on the canvas's pixels:
//  - the activity view is on (idle polls dominate the trace): a callback is
//    several times wider than in real time, the poll phase much narrower, a
//    fold band is painted and hovering it says "folded ... idle"; f turns
//    it off and on;
//  - track titles name the program and the loop's role, the busiest first;
//  - tooltips are key/value lines (no JSON) with the expected keys;
//  - every colour painted is in the legend, in every view; the counters
//    are labelled, and show the value under the pointer;
//  - search finds callbacks by name and by handle address, counts them,
//    Enter moves the view to centre the match, Escape clears;
//  - keys zoom, pan, reset and focus the search box; the wheel and a drag
//    still zoom and pan.
// Optionally saves screenshots of the page in a directory.
//
// Usage: node html_view_browser.cjs PAGE.html SLICES FLOWS PROGRAM [SCREENSHOT_DIR]
// PAGE.html must be the page of test/observe/html_view.sh's program (its
// name is PROGRAM): a loop on another thread busier than the main loop, a
// 60 ms timer callback there, idle polls most of the time.
// Environment: PHASELOOP_CHROMIUM (default /usr/bin/chromium),
// PHASELOOP_BROWSER_ORACLE_DIR (where playwright-core is; default
// <repo>/.oracle/browser).
// Exit status: 0 when every check holds, 1 when one fails, 2 on usage or a
// browser that cannot start.
'use strict';

const fs = require('fs');
const path = require('path');

const [pagePath, slicesText, flowsText, program, shots] = process.argv.slice(2);
if (!pagePath || !/^[0-9]+$/.test(slicesText || '') || !/^[0-9]+$/.test(flowsText || '') || !program) {
  process.stderr.write('usage: node html_view_browser.cjs PAGE.html SLICES FLOWS PROGRAM [SCREENSHOT_DIR]\n');
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

// The page's layout (src/cli/trace_view.html): the axis, then per track a
// title and rows of ROW pixels; the label column is LABEL_W wide.
const AXIS_H = 24, TITLE_H = 16, ROW = 18, LABEL_W = 190;
const FIRST_PHASES_Y = AXIS_H + TITLE_H + ROW / 2, FIRST_CALLBACKS_Y = FIRST_PHASES_Y + ROW;

const problems = [];
function check(ok, what) {
  if (!ok) problems.push(what);
  return ok;
}
function micros(text) {  // "20.25 ms" -> 20250
  const m = /([0-9.]+) (\u00b5s|ms|s)\b/.exec(text || '');
  return m ? Number(m[1]) * { '\u00b5s': 1, ms: 1e3, s: 1e6 }[m[2]] : NaN;
}

// ---- reading the page -----------------------------------------------------------
async function view(page) {
  return page.evaluate(() => ({ start: Number(document.body.dataset.viewStart), end: Number(document.body.dataset.viewEnd),
                                folded: document.body.dataset.folded }));
}
async function tipText(page) {
  return page.evaluate(() => {
    const t = document.getElementById('tip');
    return getComputedStyle(t).display === 'none' ? null : t.innerText;
  });
}
// The colour of a legend entry, by its label.
async function legendColor(page, label) {
  return page.evaluate(l => {
    const it = [...document.querySelectorAll('#legend .item')].find(i => i.textContent.trim() === l);
    return it ? it.querySelector('[data-color]').dataset.color : null;
  }, label);
}
// The horizontal runs of one colour ("#rrggbb") on the canvas, one per
// shape (its widest line), widest first: { x, w, y } in pixels.
async function runs(page, hex) {
  return page.evaluate(h => {
    const rgb = [1, 3, 5].map(i => parseInt(h.slice(i, i + 2), 16));
    const c = document.getElementById('view'), px = window.canvasPixels();
    const found = new Map();  // x where a run starts -> the widest run starting there
    for (let y = 0; y < c.height; y++) {
      for (let x = 0; x < c.width; x++) {
        let w = 0;
        for (let i = (y * c.width + x) * 4; x + w < c.width && px[i] === rgb[0] && px[i + 1] === rgb[1] &&
             px[i + 2] === rgb[2] && px[i + 3] === 255; i += 4) w++;
        if (w > 0 && w > ((found.get(x) || {}).w || 0)) found.set(x, { x, w, y });
        x += w;
      }
    }
    return [...found.values()].sort((a, b) => b.w - a.w);
  }, hex);
}
async function widest(page, hex) { return (await runs(page, hex))[0] || { x: 0, w: 0, y: 0 }; }
// Colours painted as solid blocks (4 by 3 pixels, right of the labels: text
// is never that solid) that no legend swatch has.
async function unexplainedColors(page) {
  return page.evaluate(labelW => {
    const legend = [...document.querySelectorAll('#legend [data-color]')].map(sw => {
      const cs = getComputedStyle(sw);
      const m = (sw.classList.contains('line') ? cs.borderTopColor : cs.backgroundColor).match(/[0-9.]+/g);
      return m.slice(0, 3).map(Number);
    });
    const c = document.getElementById('view'), px = window.canvasPixels();
    const at = (x, y) => (y * c.width + x) * 4;
    const seen = new Set();
    for (let y = 0; y + 3 <= c.height; y++) {
      for (let x = labelW; x + 4 <= c.width; x++) {
        const i = at(x, y);
        if (px[i + 3] !== 255) continue;
        let solid = true;
        for (let dy = 0; dy < 3 && solid; dy++)
          for (let dx = 0; dx < 4 && solid; dx++) {
            const j = at(x + dx, y + dy);
            solid = px[j] === px[i] && px[j + 1] === px[i + 1] && px[j + 2] === px[i + 2] && px[j + 3] === 255;
          }
        if (solid) seen.add(px[i] + ',' + px[i + 1] + ',' + px[i + 2]);
      }
    }
    return [...seen].filter(k => {
      const rgb = k.split(',').map(Number);
      return !legend.some(l => l.every((v, n) => Math.abs(v - rgb[n]) <= 2));
    });
  }, LABEL_W);
}
async function legendExplains(page, state) {
  const missing = await unexplainedColors(page);
  check(missing.length === 0, `${state}: colours painted that the legend does not list: ${missing.join(' ')}`);
}
// Moves the pointer along a line of the canvas until the tooltip's text
// passes `want`; returns that text (or null) and where it was.
async function findTip(page, box, points, want) {
  for (const [x, y] of points) {
    await page.mouse.move(box.x + x, box.y + y);
    const text = await tipText(page);
    if (text && want(text)) return { text, x, y };
  }
  return { text: null };
}
const along = (y, from, to, stepPx = 3) => Array.from({ length: Math.floor((to - from) / stepPx) }, (_, i) => [from + i * stepPx, y]);
const down = (x, from, to, stepPx = 3) => Array.from({ length: Math.floor((to - from) / stepPx) }, (_, i) => [x, from + i * stepPx]);
async function shot(page, name) {
  if (shots) await page.screenshot({ path: path.join(shots, name), fullPage: false });
}

// ---- the checks -------------------------------------------------------------------
async function checkBasics(page) {
  const facts = await page.evaluate(() => {
    const px = window.canvasPixels();
    let painted = 0;
    for (let i = 0; i < px.length; i += 4) if (px[i + 3] !== 0) painted++;
    return { slices: Number(document.body.dataset.slices), tracks: Number(document.body.dataset.tracks),
             flows: Number(document.body.dataset.flows), mode: document.compatMode,
             painted, tables: document.querySelectorAll('#summary table').length };
  });
  check(facts.slices === Number(slicesText), `the page holds ${facts.slices} slices, the trace ${slicesText}`);
  check(facts.flows === Number(flowsText), `the page holds ${facts.flows} flows, the trace ${flowsText}`);
  check(facts.tracks >= 1, `no track drawn (${facts.tracks})`);
  check(facts.painted >= 1000, `the canvas is nearly empty (${facts.painted} painted pixels)`);
  check(facts.tables >= 3, `the summary has ${facts.tables} tables, wanted 3 per track`);
  check(facts.mode === 'CSS1Compat', `the page renders in ${facts.mode}, not standards mode`);
  return facts;
}

async function checkTitles(page) {
  const titles = await page.$$eval('.track-title', els => els.map(e => e.textContent));
  const loops = titles.filter(t => / loop /.test(t));
  check(loops.length === 2, `wanted 2 loop tracks, titles: ${JSON.stringify(titles)}`);
  check(loops.every(t => t.includes(program)), `loop titles without the program's name ${program}: ${JSON.stringify(loops)}`);
  check(/worker loop/.test(titles[0] || ''), `the busiest loop (the worker loop's 60 ms callback) is not first: ${JSON.stringify(titles)}`);
  check(loops.some(t => /main loop/.test(t)), `no track is the main loop: ${JSON.stringify(titles)}`);
  check(micros(loops[0]) >= micros(loops[1]), `tracks not busiest first: ${JSON.stringify(loops)}`);
  return titles;
}

async function checkFolding(page, box) {
  const v = await view(page);
  check(v.folded === '1', 'the activity view is not on by default, though idle polls dominate the trace');
  const note = await page.textContent('#fold-note');
  check(/time axis folded/.test(note), `the page does not say its time axis is folded: "${note}"`);
  const [timer, fold] = await Promise.all(['timer', 'folded idle poll wait'].map(l => legendColor(page, l)));
  if (!check(timer && fold, `legend entries missing: timer ${timer}, folded ${fold}`)) return;
  // The worker loop's 60 ms timer callback is the widest timer callback;
  // the main loop's last one comes 750 ms later, after a long idle poll:
  // the pixels between them are that idle time.
  const measure = async () => {
    const timers = (await runs(page, timer)).filter(r => r.w >= 3);
    const busy = timers[0] || { x: 0, w: 0 }, last = timers.reduce((l, r) => (r.x > l.x ? r : l), busy);
    return { timer: busy, idle: last.x - (busy.x + busy.w), fold: await widest(page, fold) };
  };
  const folded = await measure();
  check(folded.fold.w > 0, 'no fold band painted');
  // The fold's tooltip.
  const f = await findTip(page, box, [[folded.fold.x + folded.fold.w / 2, FIRST_PHASES_Y]], t => /folded/.test(t));
  check(f.text && /folded .*idle/.test(f.text), `hovering a fold band shows no "folded ... idle" tooltip: ${f.text}`);
  await legendExplains(page, 'activity view, whole trace');
  await page.mouse.move(box.x + 5, box.y - 5);  // no tooltip in the picture
  await shot(page, 'trace-view.png');
  await page.keyboard.press('f');
  const real = await measure();
  check((await view(page)).folded === '0', 'f did not turn the activity view off');
  check(real.fold.w === 0, 'a fold band is painted in real time');
  check(folded.timer.w > 100 && folded.timer.w > 3 * real.timer.w,
        `folding did not widen the work: the timer callback is ${folded.timer.w} px folded, ${real.timer.w} px in real time`);
  check(real.idle > 0 && folded.idle * 4 < real.idle,
        `folding did not narrow the idle poll: ${folded.idle} px folded, ${real.idle} px in real time`);
  await legendExplains(page, 'real time, whole trace');
  await shot(page, 'trace-view-real-time.png');
  await page.keyboard.press('f');
  check((await view(page)).folded === '1', 'f did not turn the activity view back on');
  console.log(`ok: activity view: the 60 ms callback ${real.timer.w} px -> ${folded.timer.w} px, ` +
              `the idle poll after it ${real.idle} px -> ${folded.idle} px`);
}

async function checkTooltips(page, box) {
  const noJson = (t, what) => check(!/[{}"]/.test(t), `the ${what} tooltip looks like raw JSON: ${JSON.stringify(t)}`);
  const phase = await findTip(page, box, along(FIRST_PHASES_Y, LABEL_W + 2, box.width - 10), t => / phase\n/.test(t));
  if (check(phase.text, 'hovering the phase row showed no phase tooltip')) {
    noJson(phase.text, 'phase');
    for (const key of ['track', 'began', 'duration', 'iteration', 'callbacks'])
      check(new RegExp('^' + key + '\\b', 'm').test(phase.text), `the phase tooltip has no "${key}" line: ${JSON.stringify(phase.text)}`);
    check(/ (\u00b5s|ms)\b/.test(phase.text), `the phase tooltip gives no unit: ${JSON.stringify(phase.text)}`);
  }
  const cb = await findTip(page, box, along(FIRST_CALLBACKS_Y, LABEL_W + 2, box.width - 10), t => /^timer callback/.test(t));
  let address = null;
  if (check(cb.text, 'hovering the first track\'s callback row showed no timer callback tooltip')) {
    noJson(cb.text, 'callback');
    for (const key of ['duration', 'phase', 'handle'])
      check(new RegExp('^' + key + '\\b', 'm').test(cb.text), `the callback tooltip has no "${key}" line: ${JSON.stringify(cb.text)}`);
    check(micros(/^duration\s*(.*)$/m.exec(cb.text)?.[1]) >= 59000, `the 60 ms callback's tooltip says: ${JSON.stringify(cb.text)}`);
    address = (/^handle\s*timer (0x[0-9a-f]+)/m.exec(cb.text) || [])[1] || null;
    check(address, `the callback tooltip names no timer handle address: ${JSON.stringify(cb.text)}`);
    await page.keyboard.press('+');
    const zoomed = await findTip(page, box, along(FIRST_CALLBACKS_Y, LABEL_W + 2, box.width - 10, 6), t => /^timer callback/.test(t));
    check(zoomed.text, 'zoomed in, the timer callback shows no tooltip');
    await shot(page, 'trace-view-tooltip.png');
    await page.keyboard.press('0');
  }
  // The first track's counters: below its rows, at the callback.
  const counters = await findTip(page, box, down(cb.x || box.width / 2, FIRST_PHASES_Y, FIRST_PHASES_Y + 5 * ROW),
                                 t => /^counters at/.test(t));
  if (check(counters.text, 'hovering the counter row showed no counters tooltip')) {
    noJson(counters.text, 'counters');
    check(/^active handles\s*\d+$/m.test(counters.text), `the counters tooltip has no "active handles N": ${JSON.stringify(counters.text)}`);
    const legend = await page.textContent('#legend');
    check(/active handles = \d+/.test(legend), `the legend does not show the counters under the pointer: ${legend}`);
  }
  await page.mouse.move(box.x + 5, box.y - 5);
  const legend = await page.textContent('#legend');
  for (const c of ['active handles', 'active requests', 'callbacks waiting for the pending phase', 'requests waiting for a threadpool worker'])
    check(new RegExp(c + ' \\(max \\d+\\)').test(legend), `the legend does not label the counter "${c}" with its maximum: ${legend}`);
  return address;
}

async function checkSearch(page, box, address) {
  await page.keyboard.press('0');
  await page.keyboard.press('/');
  check(await page.evaluate(() => document.activeElement.id === 'search'), '/ did not focus the search box');
  await page.keyboard.type('async');
  const count = await page.textContent('#search-count');
  const n = Number((/^(\d+) match/.exec(count) || [])[1]);
  check(n >= 1, `searching "async" counts no match: "${count}"`);
  const before = await view(page);
  await page.keyboard.press('Enter');
  const after = await view(page);
  check(after.start !== before.start || after.end !== before.end, 'Enter on a match did not move the view');
  // The match is at the centre: zoomed in there (a click leaves the search
  // box, + zooms at the centre), the tooltip on one of the rows is it.
  const centre = LABEL_W + (box.width - LABEL_W - 8) / 2;
  await page.mouse.click(box.x + centre, box.y + 2);
  for (let i = 0; i < 5; i++) await page.keyboard.press('+');
  const hit = await findTip(page, box, down(centre, AXIS_H, box.height - 2), t => /^async callback/.test(t));
  check(hit.text, `after Enter, the async callback is not at the centre of the view (${after.start}..${after.end} \u00b5s)`);
  await page.keyboard.press('0');
  await page.fill('#search', 'timer');
  const timers = Number((/^(\d+) match/.exec(await page.textContent('#search-count')) || [])[1]);
  check(timers >= 7, `searching "timer" counts ${timers} matches, the program has at least 7 timer callbacks`);
  await page.keyboard.press('Enter');
  const first = await view(page);
  await page.keyboard.press('Enter');
  const second = await view(page);
  await page.keyboard.press('Shift+Enter');
  const back = await view(page);
  check(first.start !== second.start, 'Enter did not move to the next match');
  check(back.start === first.start, `Shift+Enter did not go back to the previous match (${back.start}, wanted ${first.start})`);
  check(/^match 1 of \d+/.test(await page.textContent('#search-count')), 'the search does not say which match is shown');
  await legendExplains(page, 'search');
  // The matches over the whole trace, the pointer off the canvas.
  await page.mouse.move(box.x + 5, box.y - 5);
  await page.click('#reset');
  await legendExplains(page, 'search, whole trace');
  await shot(page, 'trace-view-search.png');
  if (address) {
    await page.fill('#search', address);
    const byAddress = Number((/^(\d+) match/.exec(await page.textContent('#search-count')) || [])[1]);
    check(byAddress >= 1, `searching the handle address ${address} finds nothing`);
  }
  await page.keyboard.press('Escape');
  check(await page.evaluate(() => document.body.dataset.matches === '0' && document.getElementById('search').value === '' &&
                            document.activeElement.id !== 'search'), 'Escape did not clear and leave the search');
}

async function checkKeys(page) {
  await page.keyboard.press('0');
  const whole = await view(page);
  const span = v => v.end - v.start;
  await page.keyboard.press('+');
  const zin = await view(page);
  check(span(zin) < span(whole) * 0.75, `+ did not zoom in (${span(whole)} -> ${span(zin)} \u00b5s)`);
  await page.keyboard.press('w');
  const zin2 = await view(page);
  check(span(zin2) < span(zin) * 0.75, `w did not zoom in (${span(zin)} -> ${span(zin2)} \u00b5s)`);
  await page.keyboard.press('d');
  const right = await view(page);
  check(right.start > zin2.start, `d did not pan right (${zin2.start} -> ${right.start})`);
  await page.keyboard.press('ArrowLeft');
  const left = await view(page);
  check(left.start < right.start, `ArrowLeft did not pan left (${right.start} -> ${left.start})`);
  await page.keyboard.press('-');
  check(span(await view(page)) > span(left) * 1.5, '- did not zoom out');
  await page.keyboard.press('s');
  await page.keyboard.press('Home');
  const home = await view(page);
  check(home.start === whole.start && home.end === whole.end, `Home did not show the whole trace again (${home.start}..${home.end})`);
  const help = await page.textContent('#keys');
  for (const k of ['+', '-', 'a', 'd', '0', 'f', '/', 'Enter', 'Esc'])
    check(help.includes(k), `the key help line does not mention ${k}`);
}

async function checkMouse(page, box) {
  const before = await view(page);
  await page.mouse.move(box.x + box.width / 2, box.y + FIRST_PHASES_Y);
  await page.mouse.wheel(0, -400);
  await page.waitForFunction(s => Number(document.body.dataset.viewStart) !== s, before.start, { timeout: 2000 })
    .catch(() => check(false, 'the wheel did not zoom'));
  const zoomed = await view(page);
  await page.mouse.down();
  await page.mouse.move(box.x + 400, box.y + FIRST_PHASES_Y, { steps: 4 });
  await page.mouse.up();
  const dragged = await view(page);
  check(dragged.start > zoomed.start, `dragging left did not pan to later time (${zoomed.start} -> ${dragged.start})`);
  await legendExplains(page, 'zoomed and panned');
  await page.click('#reset');
  const reset = await view(page);
  check(reset.start === 0, `Whole trace did not reset the view (${reset.start})`);
}

async function main() {
  const browser = await playwright.chromium.launch({
    executablePath: process.env.PHASELOOP_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    timeout: 30000,
  });
  let requests = 0;
  try {
    if (shots) fs.mkdirSync(shots, { recursive: true });
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    page.on('console', m => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
    page.on('pageerror', e => problems.push(`uncaught: ${e.message}`));
    page.on('request', r => { if (!r.url().startsWith('file:')) requests++; });
    await page.goto('file://' + path.resolve(pagePath));
    await page.waitForSelector('body[data-ready="1"]', { timeout: 10000 });
    // The canvas's pixels, read from a copy: reading the page's own canvas
    // again and again makes Chromium warn on the console.
    await page.evaluate(() => {
      window.canvasPixels = () => {
        const c = document.getElementById('view'), copy = document.createElement('canvas');
        copy.width = c.width;
        copy.height = c.height;
        const cc = copy.getContext('2d', { willReadFrequently: true });
        cc.drawImage(c, 0, 0);
        return cc.getImageData(0, 0, c.width, c.height).data;
      };
    });
    const facts = await checkBasics(page);
    const box = await page.locator('#view').boundingBox();
    const titles = await checkTitles(page);
    await checkFolding(page, box);
    const address = await checkTooltips(page, box);
    await checkSearch(page, box, address);
    await checkKeys(page);
    await checkMouse(page, box);
    check(requests === 0, `${requests} requests outside the file`);
    console.log(`ok: ${facts.slices} slices, ${facts.flows} flows, ${facts.tracks} tracks (${titles[0]} first), ` +
                `${facts.painted} painted pixels, ${facts.tables} tables`);
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
