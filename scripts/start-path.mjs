// Reports how much of the app's WebAssembly code runs before its first frame; asserts nothing.
//   node scripts/start-path.mjs [BUILD_DIR] [TOP]      (defaults: build-web, 20)
//
// Why: a browser compiles each WebAssembly function whole the first time it is called (lazy
// compilation), so every function the first frame calls is compiled before that frame, at about
// 0.14 ms per KB on the development machine (docs/budgets.md). Unlike the first-frame time, which
// moves by tens of milliseconds with the load on a shared machine, this count is exact and repeats.
//
// How: the app is linked again with function names (--profiling-funcs, from the build's own link
// command), every function entry is instrumented with wasm-opt's --log-execution, and the page is
// loaded in headless Chromium with that wasm; the functions entered before <html data-sizer="ready">
// (the first frame) are summed by their size in the uninstrumented, named build.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from './static-server.mjs';
import { launchBrowser } from '../tests/browser/lib.mjs';
import { functions, relinkWithNames } from './wasm-functions.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const build = path.resolve(process.argv[2] || path.join(repo, 'build-web'));
const top = Number(process.argv[3] || 20);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sizer-start-path-'));

// 1. The hosted app relinked with names; every function entry logged in a copy.
const named = relinkWithNames(build, 'sizer_web', path.join(work, 'index.js'));
const logged = path.join(work, 'logged.wasm');
const features = ['--enable-bulk-memory', '--enable-sign-ext', '--enable-nontrapping-float-to-int', '--enable-mutable-globals'];
execFileSync('wasm-opt', ['-g', ...features, '--log-execution', named, '-o', logged]);

// 2. Function names and code sizes of the named build; the instrumented build's log ids.
const sizeOf = new Map();
const all = functions(named);
for (const f of all) sizeOf.set(f.name, (sizeOf.get(f.name) || 0) + f.size);
// --log-execution calls log_execution(id) at each function entry (and loop); the id of an entry is
// the first call in the function's body. Read from the text form, where calls are named.
const wat = execFileSync('wasm-dis', [logged], { maxBuffer: 1 << 30 }).toString();
const idToName = new Map();
for (const part of wat.split('\n (func ').slice(1)) {
  const name = part.match(/^\S+/)[0].replace(/^\$/, '').replace(/\\([0-9a-f]{2})/g, (m, h) => String.fromCharCode(parseInt(h, 16)));
  for (const m of part.matchAll(/\(call \$log_execution\s*\(i32\.const (\d+)\)/g)) idToName.set(Number(m[1]), name);
}

// 3. The page with the instrumented wasm; the ids seen when the first frame is published.
const site = path.join(work, 'site');
fs.cpSync(path.join(build, 'site'), site, { recursive: true });
for (const f of fs.readdirSync(site)) if (f.endsWith('.gz')) fs.rmSync(path.join(site, f));
fs.copyFileSync(path.join(work, 'index.js'), path.join(site, 'index.js'));
fs.copyFileSync(logged, path.join(site, 'index.wasm'));
const server = await serveStatic(site, 0);
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await launchBrowser();
const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
await context.addInitScript(() => {
  const seen = new Set();
  new MutationObserver(() => {
    if (document.documentElement.dataset.sizer === 'ready' && !window.__firstFrameIds) window.__firstFrameIds = [...seen];
  }).observe(document, { attributes: true, subtree: true });
  const withLog = (imports) => ({ ...imports, env: { log_execution: (id) => { seen.add(id); } } });
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = function (m, imports) { return instantiate.call(this, m, withLog(imports)); };
});
const page = await context.newPage();
await page.goto(`${origin}/index.html`);
await page.waitForFunction(() => window.__firstFrameIds, null, { timeout: 60000 });
const ids = await page.evaluate(() => window.__firstFrameIds);
await browser.close();
server.close();
fs.rmSync(work, { recursive: true, force: true });

const ran = new Set(ids.map((id) => idToName.get(id)).filter(Boolean));
const total = all.reduce((s, f) => s + f.size, 0);
const before = [...ran].reduce((s, n) => s + (sizeOf.get(n) || 0), 0);
console.log(`WebAssembly code: ${total} bytes in ${all.length} functions; run before the first frame: ${before} bytes ` +
            `(${(100 * before / total).toFixed(0)}%) in ${ran.size} functions`);
const sized = (n) => sizeOf.get(n) || 0;
for (const n of [...ran].sort((a, b) => sized(b) - sized(a)).slice(0, top)) {
  console.log(String(sized(n)).padStart(8), n.length > 120 ? n.slice(0, 117) + '...' : n);
}
