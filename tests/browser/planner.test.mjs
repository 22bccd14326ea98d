// The planner view and its JS API. The view opens and draws; a TP that does not divide the
// attention heads, typed with the keyboard, is explained in plain words (mirrored into the page's
// aria-live text); a layout search runs in the page on a button click, reports the layouts it
// evaluated, and clicking its best row loads that layout into the editor. plan() and search() of
// site/sizer.mjs in Node return the same documents as `sizer plan|search` (search_s, a wall-clock
// time, excluded) and throw an Error with `issues` on invalid input. The in-page search time of a
// dense 1T model on 4,096 devices is logged (docs/budgets.md), not asserted.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compareJson } from './api.test.mjs';
import { assert, assertClean, clickWidget, drawnFraction, frames, openPage, resultsText, screenshot, scrollIntoView, typeIntoWidget, untilText,
         waitForFirstFrame, widgetRect } from './lib.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = process.env.SIZER_CLI || path.join(repo, 'build/cli/sizer');
const sameOrigin = (origin) => (url) => url.startsWith(origin + '/');
const kViewport = { width: 1440, height: 900 };

// A search small enough to run in a moment, with a range of device counts and a price.
export const kSmallSearch = {
  model: 'dense-1t', device: 'gb200', system: 'gb200-nvl72',
  training: { layout: { dp: 2, global_batch: 1024 }, search: { devices: [256, 1024], top: 5, objective: 'cost' } },
};
// The budget case of docs/budgets.md: every layout of a dense 1T model on 4,096 GB200s.
export const kBudgetSearch = { model: 'dense-1t', device: 'gb200', training: { layout: { dp: 8, global_batch: 4096 }, search: { devices: 4096 } } };

async function openPlanner(browser, origin, options = {}) {
  const opened = await openPage(browser, { allow: sameOrigin(origin), viewport: kViewport, shared: true, ...options });
  await opened.page.goto(`${origin}/index.html`);
  await waitForFirstFrame(opened.page);
  await clickWidget(opened.page, 'tab:Planner');
  await frames(opened.page, 4);
  return opened;
}

function cliJson(command, scenario) {
  return JSON.parse(execFileSync(cli, [command, '-'], { input: JSON.stringify(scenario), encoding: 'utf8', maxBuffer: 1 << 26 }));
}

function sameDocument(got, expected, where) {
  const cmp = compareJson(got, expected);
  assert(cmp.mismatches.length === 0, `${where} differs from the CLI:\n  ${cmp.mismatches.slice(0, 8).join('\n  ')}`);
}

export const tests = [
  ['planner view opens, draws and mirrors its headline', async ({ browser, origin, shots }) => {
    const { page, watch } = await openPlanner(browser, origin);
    await page.mouse.move(5, 5);
    await frames(page, 4);
    const png = await screenshot(page, path.join(shots, 'planner.png'));
    const drawn = await drawnFraction(browser, png);
    assert(drawn > 0.02, `planner view looks empty (${(drawn * 100).toFixed(2)}% drawn pixels)`);
    for (const name of ['planner:training.layout.tp', 'chart:step-bar', 'chart:memory-bar', 'chart:layout-diagram',
                        'button:planner-search']) {
      const r = await widgetRect(page, name);
      assert(r.w > 0 && r.h > 0, `${name} not drawn`);
    }
    const text = await resultsText(page);
    assert(/Planner: TP 8 × PP 64 × DP 6 = 3,072 devices, step [\d.]+ s, predicted MFU [\d.]+%/.test(text), `no planner headline:\n${text}`);
    assert(/Planner memory per device: .* usable \((fits|does not fit)\)/.test(text), `no planner memory line:\n${text}`);
    // The headline numbers show their working on hover.
    const r = await widgetRect(page, 'value:plan.result.throughput.mfu_predicted');
    await page.mouse.move(r.x + r.w / 2, r.y + r.h / 2);
    await frames(page, 6);
    await screenshot(page, path.join(shots, 'planner-working.png'));
    assertClean(watch);
    await watch.close();
  }],

  ['a TP that does not divide the heads, typed with the keyboard, is refused and explained', async ({ browser, origin, shots }) => {
    // Issue 8 item 9: the planner view refuses what `sizer eval` and `sizer plan` refuse, naming
    // the field, and keeps the last valid layout's results.
    const { page, watch } = await openPlanner(browser, origin);
    await typeIntoWidget(page, 'planner:training.layout.tp', '7');
    const text = await untilText(page, (t) => /training\.layout\.tp: TP 7 does not divide the 160 attention heads/.test(t),
                                 'the refusal names the field');
    assert(/The input has 1 problem .*the last valid ones/.test(text), `refusal not reported:\n${text}`);
    assert(/Planner: TP 8 × PP 64 × DP 6 = 3,072 devices/.test(text), `last valid layout not kept:\n${text}`);
    assert(!/NaN/.test(text), `NaN in the results:\n${text}`);
    await page.mouse.move(5, 5);
    await frames(page, 3);
    await screenshot(page, path.join(shots, 'planner-explained.png'));
    assertClean(watch);
    await watch.close();
  }],

  ['a layout search runs in the page; clicking its best row loads it', async ({ browser, origin, shots }) => {
    const { page, watch } = await openPlanner(browser, origin);
    // As a person does: scroll down to the search's fields and button before using them.
    await scrollIntoView(page, 'planner:training.search.devices[0]', kViewport);
    await typeIntoWidget(page, 'planner:training.search.devices[0]', '1024');
    await typeIntoWidget(page, 'planner:training.search.devices[1]', '8192');
    await scrollIntoView(page, 'button:planner-search', kViewport);
    await clickWidget(page, 'button:planner-search');
    await untilText(page, (t) => /Planner search: [\d,]+ layouts evaluated/.test(t), 'the search summary', 20000);
    const text = await resultsText(page);
    const m = text.match(/Planner search: ([\d,]+) layouts evaluated, ([\d,]+) valid, in ([\d.]+) ms; best (.*?), step/);
    assert(m, `search summary not mirrored:\n${text}`);
    assert(Number(m[1].replace(/,/g, '')) > 1000, `too few layouts evaluated: ${m[1]}`);
    console.log(`      default scenario on 1,024 to 8,192 devices: ${m[1]} layouts evaluated in ${m[3]} ms in the page`);
    await page.mouse.move(5, 5);
    await frames(page, 4);
    await screenshot(page, path.join(shots, 'planner-search.png'));
    const best = m[4];
    await clickWidget(page, 'planner:row:1');
    await untilText(page, (t) => t.includes(`Planner: ${best} =`), 'the picked layout');
    assertClean(watch);
    await watch.close();
  }],

  ['planner view in the light theme', async ({ browser, origin, shots }) => {
    const { page, watch } = await openPlanner(browser, origin, { colorScheme: 'light' });
    await page.mouse.move(5, 5);
    await frames(page, 4);
    const png = await screenshot(page, path.join(shots, 'planner-light.png'));
    const drawn = await drawnFraction(browser, png);
    assert(drawn > 0.02, `light planner view looks empty (${(drawn * 100).toFixed(2)}% drawn pixels)`);
    assertClean(watch);
    await watch.close();
  }],

  ['sizer.mjs plan() and search() in Node equal `sizer plan|search`', async ({ site }) => {
    const { default: createSizer } = await import(pathToFileURL(path.join(site, 'sizer.mjs')).href);
    const sizer = await createSizer();
    const example = fs.readFileSync(path.join(repo, 'docs/examples/megatron-3072-a100.json'), 'utf8');
    sameDocument(sizer.plan(example), cliJson('plan', JSON.parse(example)), 'plan(megatron-3072-a100)');
    sameDocument(sizer.plan(JSON.parse(example)), cliJson('plan', JSON.parse(example)), 'plan(object)');
    const strip = (doc) => {
      assert(typeof doc.search_s === 'number' && doc.search_s >= 0, `search_s not filled: ${doc.search_s}`);
      const { search_s: _, ...rest } = doc;
      return rest;
    };
    const got = sizer.search(kSmallSearch);
    assert(got.top.length === 5 && got.layouts_evaluated > 0, `small search: ${got.top.length} rows, ${got.layouts_evaluated} evaluated`);
    sameDocument(strip(got), strip(cliJson('search', kSmallSearch)), 'search(small)');
    sameDocument(strip(sizer.search(example)), strip(cliJson('search', JSON.parse(example))), 'search(megatron-3072-a100)');
    for (const fn of ['plan', 'search']) {
      let error;
      try {
        sizer[fn]({ training: { layout: { tp: 0 }, search: { objective: 'fastest' } } });
      } catch (e) {
        error = e;
      }
      assert(error instanceof Error && Array.isArray(error.issues), `${fn}: invalid input did not throw an Error with issues`);
      const paths = error.issues.map((i) => i.path);
      assert(paths.includes('training.layout.tp') && paths.includes('training.search.objective'), `${fn}: issues ${JSON.stringify(error.issues)}`);
      assert(/training\.layout\.tp: /.test(error.message), `${fn}: message ${error.message}`);
      let bad;
      try {
        sizer[fn](42);
      } catch (e) {
        bad = e;
      }
      assert(bad && bad.issues, `${fn}: a number is not a scenario`);
    }
    assert(sizer.plan('{}').schema === 'sizer.plan.v1', 'module broken after invalid input');
  }],

  ['search() in the page: dense 1T on 4,096 devices (time logged, not asserted)', async ({ browser, origin }) => {
    const { page, watch } = await openPage(browser, { allow: sameOrigin(origin), shared: true });
    await page.goto(`${origin}/index.html`);
    const out = await page.evaluate(async (scenario) => {
      const { default: createSizer } = await import('./sizer.mjs');
      const sizer = await createSizer();
      const t0 = performance.now();
      const r = sizer.search(scenario);
      return { wallMs: performance.now() - t0, searchMs: r.search_s * 1e3, evaluated: r.layouts_evaluated, top: r.top.length };
    }, kBudgetSearch);
    assert(out.evaluated > 0 && out.top > 0, `search found nothing: ${JSON.stringify(out)}`);
    console.log(`      ${out.evaluated} layouts evaluated: search ${out.searchMs.toFixed(1)} ms, ` +
                `${out.wallMs.toFixed(1)} ms with JSON in and out (budget 1 s)`);
    assertClean(watch);
    await watch.close();
  }],
];
