// Runs the browser tests against a built site: node tests/browser/run.mjs [BUILD_DIR]
// (default: build-web). Screenshots go to BUILD_DIR/screenshots/. Exits non-zero on failure.
import fs from 'node:fs';
import path from 'node:path';
import { serveStatic } from '../../scripts/static-server.mjs';
import { launchBrowser } from './lib.mjs';
import { tests as appTests } from './app.test.mjs';
import { tests as offlineTests } from './offline.test.mjs';
import { tests as apiTests } from './api.test.mjs';

const build = path.resolve(process.argv[2] || process.env.SIZER_BUILD_DIR || 'build-web');
const site = path.join(build, 'site');
const shots = path.join(build, 'screenshots');
for (const f of ['index.html', 'sizer-offline.html', 'sizer.mjs']) {
  if (!fs.existsSync(path.join(site, f))) {
    console.error(`missing ${path.join(site, f)}: build first (scripts/build-web.sh ${build})`);
    process.exit(2);
  }
}
fs.mkdirSync(shots, { recursive: true });

const server = await serveStatic(site, 0);
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await launchBrowser();
const ctx = { browser, site, origin, shots };
let passed = 0;
let failed = 0;
for (const [name, fn] of [...appTests, ...offlineTests, ...apiTests]) {
  const t0 = Date.now();
  try {
    await fn(ctx);
    passed++;
    console.log(`ok    ${name} (${Date.now() - t0} ms)`);
  } catch (e) {
    failed++;
    console.log(`FAIL  ${name}\n      ${String(e.message || e).replace(/\n/g, '\n      ')}`);
  }
}
await browser.close();
server.close();
console.log(`screenshots in ${shots}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
