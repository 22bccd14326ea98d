// Runs the browser tests against a built site: node tests/browser/run.mjs [BUILD_DIR]
// (default: build-web). Screenshots go to BUILD_DIR/screenshots/. Exits non-zero on failure.
// SIZER_TEST_FILTER=regex runs only the tests whose names match.
// SIZER_TEST_JOBS=n (default 2) runs the tests in n worker processes at once, each with its own
// browser and server, taking the next test when done (the long ones first). A browser draws all
// its pages on one GPU thread (SwiftShader), so one browser leaves a two-core machine part idle;
// two keep it busy. With 1 they run here, one after another, in the listed order.
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
import { execFileSync, fork } from 'node:child_process';
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
// (Worked out once, by the process that starts the workers, and handed to them.)
function cliExamples() {
  const exampleDir = path.join(repo, 'docs/examples');
  const examples = {};
  for (const f of fs.readdirSync(exampleDir).filter((n) => n.endsWith('.json')).sort()) {
    const file = path.join(exampleDir, f);
    examples[f] = { text: fs.readFileSync(file, 'utf8'),
                    expected: JSON.parse(execFileSync(cli, ['eval', file], { encoding: 'utf8', maxBuffer: 1 << 26 })) };
  }
  return examples;
}

const all = [...glyphTests, ...pageTests, ...appTests, ...uiTests, ...keyboardTests, ...inputTests, ...offlineTests, ...apiTests,
             ...lzmaTests, ...plannerTests, ...plannerLayoutTests, ...plannerPipelineTests, ...plannerFp8AttentionTests,
             ...plannerMoeDispatchTests, ...plannerAttentionBlocksTests, ...plannerSearchTests, ...servePlannerTests, ...opsTests,
             ...honestTests, ...touchTests, ...mirrorTests, ...pasteTests, ...touchPressTests, ...softKeyboardTests, ...tabsTests,
             ...labelsTests, ...unmeetableTests, ...shareTests, ...hostileTests, ...apiCliTests];
const byName = new Map(all);
if (byName.size !== all.length) throw new Error('two browser tests have the same name');
const selected = all.filter(([n]) => !process.env.SIZER_TEST_FILTER || new RegExp(process.env.SIZER_TEST_FILTER).test(n));
const jobs = Math.max(1, Math.min(Number(process.env.SIZER_TEST_JOBS || 2), selected.length));

// A browser and a server for running tests one at a time; run() returns { ok, ms, error }.
async function startRunner(examples) {
  const server = await serveStatic(site, 0);
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await launchBrowser();
  const ctx = { browser, site, origin, shots, examples, cli };
  return {
    async run(name) {
      const t0 = Date.now();
      try {
        await byName.get(name)(ctx);
        return { ok: true, ms: Date.now() - t0 };
      } catch (e) {
        await closeTestPages(browser);  // the next test starts from pages in a known state
        return { ok: false, error: String(e.message || e) };
      }
    },
    async close() {
      await browser.close();
      server.close();
    },
  };
}

const line = (name, r) => (r.ok ? `ok    ${name} (${r.ms} ms)` : `FAIL  ${name}\n      ${r.error.replace(/\n/g, '\n      ')}`);

// The tests that take longest (the desktop-and-phone ones of the planner, serving, reliability,
// sharing and pasting, the touch drags) go to the workers first, so none is left running alone
// at the end.
const kLongFirst = [/^serving planner/, /^reliability & cost/, /^share: a link round-trips/, /^a schedule out of reach/, /^planner: /,
                    /^labels: no label/, /^paste/, /^share: /, /^touch: a one-finger drag/, /^mirror \(phone\)/, /^tabs: /, /^keyboard/];
const rank = (name) => { const i = kLongFirst.findIndex((re) => re.test(name)); return i < 0 ? kLongFirst.length : i; };

let passed = 0;
let failed = 0;
if (process.env.SIZER_TEST_WORKER) {
  // A worker: runs the tests it is sent and sends back each result with what the test logged.
  let runner = null;
  process.on('message', async (m) => {
    if (m.examples) {
      runner = await startRunner(m.examples);
      process.send({ ready: true });
    } else if (m.run) {
      const logged = [];
      const log = console.log;
      console.log = (...a) => logged.push(a.join(' '));
      const r = await runner.run(m.run);
      console.log = log;
      process.send({ name: m.run, r, logged });
    } else {
      await runner.close();
      process.disconnect();
    }
  });
} else {
  const examples = cliExamples();
  if (jobs === 1) {
    const runner = await startRunner(examples);
    for (const [name] of selected) {
      const r = await runner.run(name);
      r.ok ? passed++ : failed++;
      console.log(line(name, r));
    }
    await runner.close();
  } else {
    const queue = selected.map(([n]) => n).sort((a, b) => rank(a) - rank(b));
    await Promise.all(Array.from({ length: jobs }, () => new Promise((resolve) => {
      const worker = fork(fileURLToPath(import.meta.url), process.argv.slice(2), { env: { ...process.env, SIZER_TEST_WORKER: '1' } });
      let current = null;
      const next = () => {
        current = queue.shift();
        worker.send(current ? { run: current } : { done: true });
      };
      worker.on('message', (m) => {
        if (m.r) {
          for (const l of m.logged) console.log(l);
          m.r.ok ? passed++ : failed++;
          console.log(line(m.name, m.r));
        }
        next();
      });
      worker.on('exit', (code) => {
        if (current) {  // it died in a test
          failed++;
          console.log(line(current, { ok: false, error: `the worker process exited (${code}) during the test` }));
        }
        resolve();
      });
      worker.send({ examples });
    })));
  }
  console.log(`screenshots in ${shots}`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}
