// The Serving view's planner section, driven with real input: a click adds a workload, typing a
// TPOT target changes the prediction and the link, a click runs the serving search, and the
// mirrored results equal sizer.serveSearch() of the linked scenario; hovering the chart shows a
// Pareto point. At desktop and phone size, with screenshots.
import path from 'node:path';
import { assert, assertClean, clickWidget, frames, openPage, resultsText, screenshot, scrollIntoView, sweepHover, waitText, typeIntoWidget,
  waitForFirstFrame } from './lib.mjs';

const sameOrigin = (origin) => (url) => url.startsWith(origin + '/');
const kDesktop = { name: 'desktop', viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 };
const kPhone = { name: 'phone', viewport: { width: 390, height: 844 }, deviceScaleFactor: 3 };

// The scenario in the address bar (null before the first edit), after `afterFrames` animation frames.
async function linked(page, afterFrames = 0) {
  const hash = await page.evaluate((count) => new Promise((resolve) => {
    let left = count;
    const step = () => (--left <= 0 ? resolve(location.hash) : requestAnimationFrame(step));
    if (count > 0) requestAnimationFrame(step);
    else resolve(location.hash);
  }), afterFrames);
  return hash.startsWith('#s1.') ? JSON.parse(Buffer.from(hash.slice(4), 'base64url').toString('utf8')) : null;
}

// Waits, reading it once a frame for up to 10 s, until the scenario in the address bar passes
// `test` (the app writes the link half a second after the last edit). Returns quietly on a
// timeout: the caller's assertion on the link then says what it holds.
async function linkHolds(page, test) {
  for (let s = await linked(page), end = Date.now() + 10000; !(s && test(s)) && Date.now() < end;) s = await linked(page, 1);
}

// Points along a chart, left to right, at the heights `fys` (fractions of its height) at each step.
const across = (chart, steps, fys) => Array.from({ length: steps + 1 }, (_, i) => fys.map((fy) =>
  [chart.x + chart.w * (0.05 + 0.9 * i / steps), chart.y + chart.h * fy])).flat();


async function drive(browser, origin, shots, size) {
  const where = (w) => `${size.name}: ${w}`;
  const { page, watch } = await openPage(browser, { allow: sameOrigin(origin), viewport: size.viewport, deviceScaleFactor: size.deviceScaleFactor,
                                                    shared: true });
  await page.goto(`${origin}/index.html`);
  await waitForFirstFrame(page);
  await clickWidget(page, 'tab:Serving');
  await frames(page, 4);
  assert(!/^Serving model:/m.test(await resultsText(page)), where('a prediction before any workload'));
  await scrollIntoView(page, 'button:serve-add-workload', size.viewport, 'tab:Serving');
  await clickWidget(page, 'button:serve-add-workload');
  let text = await waitText(page, /^Serving model: .*TTFT/, where('add a workload'));
  // A TPOT target of 20 ms typed into its field (shown in ms, stored in seconds).
  await scrollIntoView(page, 'planner:serving.slo.tpot_s', size.viewport, 'tab:Serving');
  await typeIntoWidget(page, 'planner:serving.slo.tpot_s', '20');
  await page.waitForFunction(() => location.hash.startsWith('#s1.'), null, { timeout: 10000 });
  // The link is written half a second after the last edit.
  await linkHolds(page, (s) => s.serving && s.serving.slo && Math.abs(s.serving.slo.tpot_s - 0.02) < 1e-12);
  const scenario = await linked(page);
  assert(scenario && scenario.serving && scenario.serving.slo && Math.abs(scenario.serving.slo.tpot_s - 0.02) < 1e-12,
         where(`the link lacks serving.slo.tpot_s = 0.02: ${JSON.stringify(scenario && scenario.serving)}`));
  text = await resultsText(page);
  // The prediction equals sizer.serve() of the linked scenario.
  const api = await page.evaluate(async (s) => {
    const { default: createSizer } = await import('./sizer.mjs');
    const sizer = await (window.__sizerApi || (window.__sizerApi = createSizer()));
    return { perf: sizer.serve(s), search: sizer.serveSearch(s) };
  }, scenario);
  const meets = api.perf.meets_slo ? 'yes' : 'no';
  assert(new RegExp(`^Serving model: .*meets the SLO: ${meets}$`, 'm').test(text), where(`prediction line vs serve(): ${text}`));
  // The search, clicked.
  await scrollIntoView(page, 'button:serve-search', size.viewport, 'tab:Serving');
  await clickWidget(page, 'button:serve-search');
  text = await waitText(page, /^Serving search: /, where('search'));
  const count = new Intl.NumberFormat('en-US').format(api.search.configs_evaluated);
  assert(text.includes(`Serving search: ${count} configurations, a Pareto front of ${api.search.pareto.length} points`),
         where(`search line vs serveSearch(): ${count} configs, ${api.search.pareto.length} points\n${text}`));
  if (api.search.best) {
    const b = api.search.best;
    assert(text.includes(`${new Intl.NumberFormat('en-US').format(b.concurrency)} requests in flight`),
           where(`best concurrency ${b.concurrency} not in: ${text}`));
    assert(text.includes(`fleet ${new Intl.NumberFormat('en-US').format(api.search.fleet.replicas)} replicas`), where(`fleet: ${text}`));
  } else {
    assert(/no configuration meets the SLO: serving\.slo/.test(text), where(`no best, no reason: ${text}`));
  }
  // Aggregated against disaggregated: each kind's best, as serveSearch() gives it.
  const nf = new Intl.NumberFormat('en-US');
  for (const [label, best] of [['Best aggregated', api.search.best_aggregated], ['Best disaggregated', api.search.best_disaggregated]]) {
    const line = (text.match(new RegExp(`^${label}: .*$`, 'm')) || [''])[0];
    if (best) {
      const perDevice = nf.format(Math.round(best.performance ? best.performance.output_tokens_per_s_per_device
                                                                : best.output_tokens_per_s_per_device));
      assert(line.includes(`${perDevice} output tokens/s per device`), where(`${label} vs serveSearch(): ${line} / ${perDevice}`));
    } else {
      assert(line.endsWith('none meets the SLO'), where(`${label}: ${line}`));
    }
  }
  if (api.search.best_aggregated || api.search.best_disaggregated) {
    await scrollIntoView(page, 'table:serve-kinds', size.viewport, 'tab:Serving');
  }
  // Hovering along the chart finds a Pareto point's tooltip.
  const chart = await scrollIntoView(page, 'chart:serve-pareto', size.viewport, 'tab:Serving');
  const tip = await sweepHover(page, across(chart, 60, [0.1, 0.3, 0.5, 0.7, 0.85]), (t) => t.startsWith('Pareto point'));
  assert(tip.startsWith('Pareto point') && /output tokens\/s per device/.test(tip), where(`no Pareto point under the pointer: ${tip}`));
  await screenshot(page, path.join(shots, `serve-planner-${size.name}.png`));
  if (size.name === 'desktop') await compareChips(page, scenario, where, size, shots);
  await editLayoutAndRange(page, where, size);
  assertClean(watch);
  await watch.close();
}

// The replica layout and the search range, typed: the link gets the whole layout (the degrees not
// typed keep what was shown) and the range; the prediction and the search follow them.
async function editLayoutAndRange(page, where, size) {
  await scrollIntoView(page, 'planner:serving.layout.pp', size.viewport, 'tab:Serving');
  await typeIntoWidget(page, 'planner:serving.layout.pp', '2');
  await page.waitForFunction(() => {
    const h = location.hash;
    if (!h.startsWith('#s1.')) return false;
    const s = JSON.parse(atob(h.slice(4).replace(/-/g, '+').replace(/_/g, '/')));
    return s.serving && s.serving.layout && s.serving.layout.pp === 2;
  }, null, { timeout: 10000 });
  const after = await linked(page);
  const l = after.serving.layout;
  assert(l.pp === 2 && l.tp >= 1 && l.dp >= 1 && l.ep >= 1, where(`layout in the link: ${JSON.stringify(l)}`));
  const text = await waitText(page, /^Serving model: TP \d+ × PP 2/, where('prediction after PP 2'));
  const api = await page.evaluate(async (s) => (await window.__sizerApi).serve(s), after);
  assert(text.includes(`${new Intl.NumberFormat('en-US').format(Math.round(api.output_tokens_per_s_per_device))} output tokens/s per device`),
         where(`prediction vs serve() after PP 2: ${api.output_tokens_per_s_per_device}`));
  // The search range's upper end, typed; the search, clicked, covers 1 … 16 devices per replica.
  await scrollIntoView(page, 'planner:serving.search.devices[1]', size.viewport, 'tab:Serving');
  await typeIntoWidget(page, 'planner:serving.search.devices[1]', '16');
  await page.waitForFunction(() => {
    const h = location.hash;
    if (!h.startsWith('#s1.')) return false;
    const s = JSON.parse(atob(h.slice(4).replace(/-/g, '+').replace(/_/g, '/')));
    return s.serving && s.serving.search && Array.isArray(s.serving.search.devices) && s.serving.search.devices[1] === 16;
  }, null, { timeout: 10000 });
  const ranged = await linked(page);
  await scrollIntoView(page, 'button:serve-search', size.viewport, 'tab:Serving');
  await clickWidget(page, 'button:serve-search');
  const search = await page.evaluate(async (s) => (await window.__sizerApi).serveSearch(s), ranged);
  assert(search.search.devices_max === 16, where(`range in serveSearch(): ${JSON.stringify(search.search)}`));
  const count = new Intl.NumberFormat('en-US').format(search.configs_evaluated);
  await waitText(page, new RegExp(`^Serving search: ${count} configurations`), where(`search over 1–16 devices (${count})`));
}

// "Compare every chip", clicked: one front per chip, and each chip's best as
// sizer.serveSearchChips() gives it; hovering the chart names a chip.
async function compareChips(page, scenario, where, size, shots) {
  await scrollIntoView(page, 'button:serve-chips', size.viewport, 'tab:Serving');
  await clickWidget(page, 'button:serve-chips');
  const text = await waitText(page, /^Chip comparison: \d+ chips$/, where('chip comparison'));
  const api = await page.evaluate(async (s) => {
    const sizer = await window.__sizerApi;
    return sizer.serveSearchChips(s);
  }, scenario);
  assert(api && Array.isArray(api.chips) && api.chips.length > 10, where(`serveSearchChips: ${JSON.stringify(api).slice(0, 200)}`));
  assert(text.includes(`Chip comparison: ${api.chips.length} chips`), where(`chip count vs the API: ${api.chips.length}`));
  const nf = new Intl.NumberFormat('en-US');
  for (const c of api.chips) {
    const line = (text.match(new RegExp(`^Chip ${c.device}: .*$`, 'm')) || [''])[0];
    if (c.best) {
      const perDevice = nf.format(Math.round(c.best.output_tokens_per_s_per_device));
      assert(line.includes(`${perDevice} output tokens/s per device`) && line.includes(`fleet ${nf.format(c.fleet.devices)} devices`),
             where(`${c.device} vs serveSearchChips(): ${line} / ${perDevice}`));
    } else {
      assert(line.endsWith('none meets the SLO'), where(`${c.device}: ${line}`));
    }
  }
  const chart = await scrollIntoView(page, 'chart:serve-chips', size.viewport, 'tab:Serving');
  const tip = await sweepHover(page, across(chart, 60, [0.15, 0.35, 0.55, 0.75, 0.85]), (t) => t.startsWith('Chip front'));
  assert(tip.startsWith('Chip front') && /output tokens\/s per device/.test(tip), where(`no chip point under the pointer: ${tip}`));
  await screenshot(page, path.join(shots, `serve-chips-${size.name}.png`));
}

export const tests = [
  ['serving planner: add a workload, type a TPOT target, search, hover the front (desktop and phone)', async ({ browser, origin, shots }) => {
    await drive(browser, origin, shots, kDesktop);
    await drive(browser, origin, shots, kPhone);
  }],
];
