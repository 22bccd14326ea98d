// Reports the web budgets (docs/budgets.md); asserts nothing. Needs a built site.
//   node scripts/bench-web.mjs [BUILD_DIR] [RUNS]     (defaults: build-web, 5)
// Measures: sizes of the offline single file (raw and gzip -9) and of the hosted files; time from
// navigation to the first drawn frame, and from a key press that changes an input to the first
// frame showing the new results, for the served site and the offline file (median of RUNS, in
// headless Chromium with SwiftShader, i.e. software WebGL); the app's own recompute time after an
// input change (parse + evaluate + text mirror, timed in WebAssembly); sizer.mjs evaluate()
// per call in Node (JSON in and out included); and a full layout search (dense 1T, 4,096 GB200s)
// with sizer.mjs search() in the page.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { serveStatic } from './static-server.mjs';
import { clickWidget, frames, launchBrowser, openPage } from '../tests/browser/lib.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const build = path.resolve(process.argv[2] || path.join(repo, 'build-web'));
const runs = Number(process.argv[3] || 5);
const site = path.join(build, 'site');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (n) => `${(n / 1024).toFixed(0)} KB`;

function sizes() {
  const file = (f) => fs.readFileSync(path.join(site, f));
  const offline = file('sizer-offline.html');
  const gz = (b) => zlib.gzipSync(b, { level: 9 }).length;
  const hosted = ['index.html', 'index.js', 'index.wasm'].map(file);  // the page inlines its style and boot script
  return {
    offlineRaw: offline.length, offlineGzip: gz(offline),
    hostedRaw: hosted.reduce((s, b) => s + b.length, 0), hostedGzip: hosted.reduce((s, b) => s + gz(b), 0),
    apiRaw: file('sizer.mjs').length, apiGzip: gz(file('sizer.mjs')),
  };
}

async function timeOne(browser, url, allow) {
  const { page, watch } = await openPage(browser, { allow, viewport: { width: 1440, height: 900 } });
  await page.goto(url);
  await page.waitForFunction(() => document.documentElement.dataset.sizer === 'ready', null, { timeout: 30000 });
  const firstFrame = await page.evaluate(() => window.sizerFirstFrameMs);
  const startup = await page.evaluate(() => window.sizerStartup);
  await frames(page, 5);
  // Focus the schedule field, select its text and type "6"; then time the Enter that applies it
  // (a field applies on Enter, Tab or leaving it, never while half-typed).
  await clickWidget(page, 'input:training.days');
  await page.keyboard.press('Control+A');
  await frames(page, 2);
  await page.keyboard.type('6');
  await frames(page, 3);
  await page.evaluate(() => {
    const b = (window.__bench = {});
    addEventListener('keydown', (e) => { b.key = e.timeStamp; }, true);
    const el = document.getElementById('results-text');
    new MutationObserver(() => {
      if (!/Devices for 6 days/.test(el.textContent)) return;
      b.revision = window.sizerStats.revision;
      b.recomputeMs = window.sizerStats.recomputeMs;
      requestAnimationFrame(() => { b.settled = performance.now(); });
    }).observe(el, { childList: true, characterData: true, subtree: true });
  });
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.__bench.settled, null, { timeout: 10000 });
  const b = await page.evaluate(() => window.__bench);
  await watch.context.close();
  return { firstFrame, startup, inputToSettled: b.settled - b.key, recomputeMs: b.recomputeMs };
}

// The start-up timeline (window.sizerStartup: shell/boot.js and web/src/main.cpp mark when each
// step ends, ms since navigation): the median length of each step over the runs.
// The offline file's wasm text and loader come before its boot script (the wasm is compiled while
// boot.js makes the WebGL2 context), so its first two steps are those.
const kSteps = [['parsed', 'offline page up to its wasm text parsed'], ['unpacked', 'its 7-bit text unpacked'],
  ['boot', 'page and boot script'], ['context', 'WebGL2 context (boot.js, while the wasm compiles)'],
  ['runtime', 'wasm fetched or inflated, compiled, runtime up'], ['main', 'to main()'],
  ['tables', 'bundled tables parsed'], ['app', 'default scenario parsed and evaluated (the text mirror follows the first frame)'],
  ['webgl', 'GLFW window on the context'], ['imgui', 'ImGui and page hooks'],
  ['fonts', 'font atlas built and uploaded'], ['ui', 'first frame laid out (ImGui)'],
  ['gl', 'drawn (WebGL)'], ['frame', 'published to the page']];
function timeline(all) {
  const rows = [];
  for (let i = 0; i < kSteps.length; i++) {
    const [key, what] = kSteps[i];
    const d = all.map((r) => {  // from the latest earlier step this page has (the offline file has more)
      const prev = kSteps.slice(0, i).map(([k]) => k).filter((k) => r.startup && k in r.startup).pop();
      return r.startup && r.startup[key] - (prev ? r.startup[prev] : 0);
    }).filter((x) => Number.isFinite(x));
    if (d.length) rows.push(`${what} ${median(d).toFixed(0)}`);
  }
  return rows.join(' · ');
}

async function timeMany(browser, url, allow) {
  const all = [];
  for (let i = 0; i < runs; i++) all.push(await timeOne(browser, url, allow));
  return {
    firstFrame: median(all.map((r) => r.firstFrame)),
    inputToSettled: median(all.map((r) => r.inputToSettled)),
    recomputeMs: median(all.map((r) => r.recomputeMs)),
    timeline: timeline(all),
  };
}

async function apiInNode() {
  const { default: createSizer } = await import(pathToFileURL(path.join(site, 'sizer.mjs')).href);
  const sizer = await createSizer();
  const scenario = JSON.stringify({ model: 'dense-1t', device: 'gb200' });
  for (let i = 0; i < 50; i++) sizer.evaluate(scenario);
  const n = 1000;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) sizer.evaluate(scenario);
  return (performance.now() - t0) / n;
}

// Layout search in the page (sizer.mjs's search(), the same WebAssembly core as the app's planner):
// every layout of a dense 1T model on 4,096 GB200s. Median search_s (timed in WebAssembly) and the
// call's wall-clock time with JSON in and out.
async function searchInPage(browser, origin) {
  const { page, watch } = await openPage(browser, { allow: (u) => u.startsWith(origin + '/') });
  await page.goto(`${origin}/index.html`);
  const out = await page.evaluate(async (n) => {
    const { default: createSizer } = await import('./sizer.mjs');
    const sizer = await createSizer();
    const scenario = { model: 'dense-1t', device: 'gb200', training: { layout: { dp: 8, global_batch: 4096 }, search: { devices: 4096 } } };
    const runs = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const r = sizer.search(scenario);
      runs.push({ searchMs: r.search_s * 1e3, callMs: performance.now() - t0, evaluated: r.layouts_evaluated });
    }
    return runs;
  }, runs);
  await watch.context.close();
  return { searchMs: median(out.map((r) => r.searchMs)), callMs: median(out.map((r) => r.callMs)), evaluated: out[0].evaluated };
}

const s = sizes();
const server = await serveStatic(site, 0);
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await launchBrowser();
const served = await timeMany(browser, `${origin}/index.html`, (u) => u.startsWith(origin + '/'));
const offlineUrl = pathToFileURL(path.join(site, 'sizer-offline.html')).href;
const offline = await timeMany(browser, offlineUrl, (u) => u === offlineUrl);
const search = await searchInPage(browser, origin);
await browser.close();
server.close();
const apiMs = await apiInNode();

const ms = (x) => `${x.toFixed(0)} ms`;
console.log(`Sizer web budgets (${new Date().toISOString().slice(0, 10)}, median of ${runs} runs, headless Chromium + SwiftShader)`);
console.log(`sizer-offline.html      ${kb(s.offlineRaw)} raw (test budget 540 KB, target 480 KB), ${kb(s.offlineGzip)} gzipped (target 340 KB)`);
console.log(`hosted app              ${kb(s.hostedRaw)} raw, ${kb(s.hostedGzip)} gzipped (index.html with its style and boot script, index.js, index.wasm; target 320 KB gzipped)`);
console.log(`sizer.mjs               ${kb(s.apiRaw)} raw, ${kb(s.apiGzip)} gzipped (target 160 KB gzipped)`);
console.log(`served:  navigation → first frame ${ms(served.firstFrame)} (target 350 ms quiet); key press → settled frame ${ms(served.inputToSettled)}`);
console.log(`offline: navigation → first frame ${ms(offline.firstFrame)} (target 300 ms quiet); key press → settled frame ${ms(offline.inputToSettled)}`);
console.log(`served start-up, ms per step:  ${served.timeline}`);
console.log(`offline start-up, ms per step: ${offline.timeline}`);
console.log(`recompute after an input change (in the app, WebAssembly): ${served.recomputeMs.toFixed(3)} ms ` +
            `(browser timer resolution ~0.1 ms)`);
console.log(`sizer.evaluate() in Node, JSON in and out:  ${(apiMs * 1000).toFixed(0)} µs per call`);
console.log(`layout search in the page, dense 1T on 4,096 GB200s (${search.evaluated} layouts): ` +
            `${search.searchMs.toFixed(1)} ms search, ${search.callMs.toFixed(1)} ms with JSON in and out (budget 1 s)`);
