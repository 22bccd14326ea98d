// Runs the browser tests against a built site: node tests/browser/run.mjs [BUILD_DIR]
// (default: build-web). Screenshots go to BUILD_DIR/screenshots/. Exits non-zero on failure.
// SIZER_TEST_FILTER=regex runs only the tests whose names match.
import fs from 'node:fs';
import path from 'node:path';
import { serveStatic } from '../../scripts/static-server.mjs';
import { closeTestPages, launchBrowser } from './lib.mjs';
import { tests as appTests } from './app.test.mjs';
import { tests as offlineTests } from './offline.test.mjs';
import { tests as apiTests } from './api.test.mjs';
import { tests as uiTests } from './ui.test.mjs';
import { tests as shareTests } from './share.test.mjs';
import { tests as apiCliTests } from './api_cli.test.mjs';
import { tests as plannerTests } from './planner.test.mjs';
import { tests as plannerLayoutTests } from './planner_layout.test.mjs';
import { tests as plannerPipelineTests } from './planner_pipeline.test.mjs';
import { tests as plannerFp8AttentionTests } from './planner_fp8_attention.test.mjs';
import { tests as plannerMoeDispatchTests } from './planner_moe_dispatch.test.mjs';
import { tests as plannerAttentionBlocksTests } from './planner_attention_blocks.test.mjs';
import { tests as plannerSearchTests } from './planner_search.test.mjs';
import { tests as hostileTests } from './hostile.test.mjs';
import { tests as glyphTests } from './glyphs.test.mjs';
import { tests as pageTests } from './page.test.mjs';
import { tests as keyboardTests } from './keyboard.test.mjs';
import { tests as inputTests } from './input.test.mjs';
import { tests as servePlannerTests } from './serve_planner.test.mjs';
import { tests as opsTests } from './ops.test.mjs';
import { tests as honestTests } from './honest.test.mjs';
import { tests as touchTests } from './touch.test.mjs';
import { tests as mirrorTests } from './mirror.test.mjs';
import { tests as pasteTests } from './paste.test.mjs';
import { tests as touchPressTests } from './touch_press.test.mjs';
import { tests as softKeyboardTests } from './soft_keyboard.test.mjs';
import { tests as tabsTests } from './tabs.test.mjs';
import { tests as lzmaTests } from './lzma.test.mjs';
import { tests as labelsTests } from './labels.test.mjs';
import { tests as unmeetableTests } from './unmeetable.test.mjs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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

// The native CLI's result for every example scenario: what the JS API must reproduce.
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = process.env.SIZER_CLI || path.join(repo, 'build/cli/sizer');
if (!fs.existsSync(cli)) {
  console.error(`missing native CLI ${cli}: build it (cmake -S . -B build && cmake --build build --target sizer)`);
  process.exit(2);
}
const exampleDir = path.join(repo, 'docs/examples');
const examples = {};
for (const f of fs.readdirSync(exampleDir).filter((n) => n.endsWith('.json')).sort()) {
  const file = path.join(exampleDir, f);
  examples[f] = { text: fs.readFileSync(file, 'utf8'),
                  expected: JSON.parse(execFileSync(cli, ['eval', file], { encoding: 'utf8', maxBuffer: 1 << 26 })) };
}

const server = await serveStatic(site, 0);
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await launchBrowser();
const ctx = { browser, site, origin, shots, examples, cli };
let passed = 0;
let failed = 0;
for (const [name, fn] of [...glyphTests, ...pageTests, ...appTests, ...uiTests, ...keyboardTests, ...inputTests, ...offlineTests, ...apiTests, ...lzmaTests, ...plannerTests, ...plannerLayoutTests, ...plannerPipelineTests, ...plannerFp8AttentionTests, ...plannerMoeDispatchTests, ...plannerAttentionBlocksTests, ...plannerSearchTests, ...servePlannerTests, ...opsTests, ...honestTests, ...touchTests, ...mirrorTests, ...pasteTests, ...touchPressTests, ...softKeyboardTests, ...tabsTests, ...labelsTests, ...unmeetableTests, ...shareTests, ...hostileTests, ...apiCliTests]
                         .filter(([n]) => !process.env.SIZER_TEST_FILTER || new RegExp(process.env.SIZER_TEST_FILTER).test(n))) {
  const t0 = Date.now();
  try {
    await fn(ctx);
    passed++;
    console.log(`ok    ${name} (${Date.now() - t0} ms)`);
  } catch (e) {
    failed++;
    console.log(`FAIL  ${name}\n      ${String(e.message || e).replace(/\n/g, '\n      ')}`);
    await closeTestPages(browser);  // the next test starts from pages in a known state
  }
}
await browser.close();
server.close();
console.log(`screenshots in ${shots}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
