// Helpers the planner's browser tests share: opening the planner at a viewport size, the
// step breakdown mirrored into the page, the share link's scenario, plan() of it in the page,
// hovering the step bar and picking from a planner list with the pointer.
import path from 'node:path';
import { assert, clickWidget, frames, openPage, resultsText, screenshot, scrollIntoView, untilText, waitForFirstFrame, widgetRect } from './lib.mjs';

export const sameOrigin = (origin) => (url) => url.startsWith(origin + '/');
export const kDesktop = { name: 'desktop', viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 };
export const kPhone = { name: 'phone', viewport: { width: 390, height: 844 }, deviceScaleFactor: 3 };
export const kPhoneTouch = { ...kPhone, hasTouch: true };  // taps with the touchscreen
export const kUnits = { 'µs': 1e-6, ms: 1e-3, s: 1, min: 60, h: 3600, days: 86400 };

export async function openPlanner(browser, origin, size, hash = '') {
  const opened = await openPage(browser, { allow: sameOrigin(origin), viewport: size.viewport, deviceScaleFactor: size.deviceScaleFactor,
                                           hasTouch: Boolean(size.hasTouch), shared: true });
  await opened.page.goto(`${origin}/index.html${hash}`);
  await waitForFirstFrame(opened.page);
  await frames(opened.page, 6);  // a link's "Opened the scenario" line moves the tabs down first
  await clickWidget(opened.page, 'tab:Planner');
  await frames(opened.page, 4);
  await widgetRect(opened.page, 'chart:step-bar');  // the planner view is open
  return opened;
}

// Opens the planner on `scenario` (as a share link), scrolls the planner field `field` into view and
// takes the screenshot `<shotName>-<size>.png`: how a switch's test starts.
export async function openPlannerAt(browser, origin, size, scenario, field, shots, shotName) {
  const opened = await openPlanner(browser, origin, size, '#s1.' + Buffer.from(JSON.stringify(scenario)).toString('base64url'));
  await scrollIntoView(opened.page, field, size.viewport);
  await frames(opened.page, 3);
  await screenshot(opened.page, path.join(shots, `${shotName}-${size.name}.png`));
  return opened;
}

// The scenario in the address bar (#s1.<base64url JSON>), or null before the first edit.
export async function linkedScenario(page) {
  const hash = await page.evaluate(() => location.hash);
  if (!hash.startsWith('#s1.')) return null;
  return JSON.parse(Buffer.from(hash.slice(4), 'base64url').toString('utf8'));
}

// Waits until the address bar's scenario has `value` at the dotted `key` (the app writes the link
// half a second after the last edit), then returns that scenario.
export async function linkWith(page, key, value, what) {
  try {
    await page.waitForFunction(({ key, value }) => {
      const h = location.hash;
      if (!h.startsWith('#s1.')) return false;
      const bin = atob(h.slice(4).replace(/-/g, '+').replace(/_/g, '/'));
      const s = JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))));
      const got = key.split('.').reduce((o, k) => (o == null ? undefined : o[k]), s);
      return value === undefined ? got !== true : got === value;
    }, { key, value }, { timeout: 10000 });
  } catch {
    throw new Error(`${what}: the link never got ${key} = ${value}; it has ${JSON.stringify((await linkedScenario(page)) || null)}`);
  }
  return linkedScenario(page);
}

// "Planner step time: GEMM 1.23 s, attention 456 ms, ..." as { label: seconds }, plus the whole line;
// the parts hidden by TP overlap and by an interleaved pipeline as 'TP hidden' and 'PP hidden'.
export async function stepTerms(page) {
  const text = await resultsText(page);
  const line = (text.match(/^Planner step time: (.*)$/m) || [])[1];
  assert(line, `no step breakdown in the results text:\n${text}`);
  const terms = { line };
  for (const m of line.matchAll(/([A-Za-z][A-Za-z /-]*?) (-?[\d.]+) (µs|ms|s|min|h|days)(?: \(([\d.]+) (µs|ms|s|min|h|days) hidden by (TP overlap|interleaving)\))?/g)) {
    terms[m[1]] = Number(m[2]) * kUnits[m[3]];
    if (m[4]) terms[m[6] === 'TP overlap' ? 'TP hidden' : 'PP hidden'] = Number(m[4]) * kUnits[m[5]];
  }
  const step = text.match(/^Planner: .*?, step ([\d.]+) (µs|ms|s|min|h|days),/m);
  assert(step, `no planner headline:\n${text}`);
  terms.step = Number(step[1]) * kUnits[step[2]];
  return terms;
}

// Waits until the results text changes from `before` (the app mirrors it once the edit applied).
export async function textChanged(page, before, what) {
  try {
    await untilText(page, (t) => t !== before, what);
  } catch {
    throw new Error(`${what}: the results text did not change:\n${before}`);
  }
}

// sizer.mjs plan() of `scenario`, run in the page: its layout, step terms and memory.
export function planInPage(page, scenario) {
  return page.evaluate(async (s) => {
    const { default: createSizer } = await import('./sizer.mjs');
    const sizer = await (window.__sizerApi || (window.__sizerApi = createSizer()));
    const r = sizer.plan(s);
    return { layout: r.layout, step: r.result.step, memory: r.result.memory, valid: r.result.valid, accuracy: r.result.accuracy,
             explanations: r.result.explanations, throughput: r.result.throughput };
  }, scenario);
}

export const near = (a, b, rel = 0.006) => Math.abs(a - b) <= rel * Math.max(Math.abs(a), Math.abs(b));

// A signed percentage as the views write it ("+23.4%", "−10.1%") as a fraction.
export const signedPercent = (text) => Number(text.replace('−', '-').replace('%', '')) / 100;

// The mirrored accuracy line ("Planner accuracy: 80% of N held-out published <label> runs took −A%
// to +B% of the step time predicted for them: lo to hi") agrees with plan()'s result.accuracy
// (step_ratio_p10/p90 = 1 + the signed percentages); returns its label.
export async function sameBand(page, plan, where) {
  const text = await resultsText(page);
  const m = text.match(/^Planner accuracy: 80% of ([\d,]+) held-out published (.+) runs took ([−+][\d.]+%) to ([−+][\d.]+%) of the step time predicted for them: ([\d.]+) (µs|ms|s|min|h|days) to ([\d.]+) (µs|ms|s|min|h|days)$/m);
  assert(m, `${where}: no accuracy line:\n${text}`);
  const a = plan.accuracy;
  assert(a && Number(m[1].replace(/,/g, '')) === a.held_out_runs, `${where}: ${m[1]} runs shown, plan() has ${JSON.stringify(a)}`);
  assert(Math.abs(1 + signedPercent(m[3]) - a.step_ratio_p10) <= 0.005 && Math.abs(1 + signedPercent(m[4]) - a.step_ratio_p90) <= 0.005,
         `${where}: ${m[3]} to ${m[4]} shown, plan() has ${a.step_ratio_p10} to ${a.step_ratio_p90}`);
  assert(signedPercent(m[3]) < 0 && signedPercent(m[4]) > 0, `${where}: the band ${m[3]} to ${m[4]} does not straddle the prediction`);
  assert(near(Number(m[5]) * kUnits[m[6]], a.step_s_low) && near(Number(m[7]) * kUnits[m[8]], a.step_s_high),
         `${where}: ${m[5]} ${m[6]} to ${m[7]} ${m[8]} shown, plan() has ${a.step_s_low} to ${a.step_s_high} s`);
  return m[2];
}

// The mirrored step breakdown agrees with plan() of the linked scenario (3 significant figures).
export function sameAsPlan(terms, plan, where) {
  const s = plan.step;
  const pairs = [['step', s.step_s], ['GEMM', s.compute_s - s.attention_s], ['attention', s.attention_s],
                 ['TP', s.tp_comm_s], ['PP send/recv', s.pp_p2p_s], ['overheads', s.overhead_s]];
  for (const [label, want] of pairs) {
    const got = terms[label] || 0;
    assert(near(got, want), `${where}: ${label} shown ${got} s, plan() gives ${want} s\n  ${terms.line}`);
  }
  assert(near(terms['TP hidden'] || 0, s.tp_comm_hidden_s), `${where}: TP hidden shown ${terms['TP hidden']} s, plan() gives ${s.tp_comm_hidden_s} s`);
  assert(near(terms['PP hidden'] || 0, s.pp_p2p_hidden_s), `${where}: PP hidden shown ${terms['PP hidden']} s, plan() gives ${s.pp_p2p_hidden_s} s`);
}

export async function shot(page, shots, file) {
  await page.mouse.move(2, 2);
  await frames(page, 4);
  await screenshot(page, path.join(shots, file));
}

// The step bar's segments in drawing order, with their seconds in a plan() result's step.
export const segmentsOf = (st) => [
  ['GEMM', st.compute_s - st.attention_s], ['attention', st.attention_s], ['memory-bound', st.memory_bound_s],
  ['TP', st.tp_comm_s], ['experts', st.expert_compute_s + st.moe_permute_s], ['EP', st.ep_comm_s], ['CP', st.cp_comm_s],
  ['PP send/recv', st.pp_p2p_s], ['bubble', st.pp_bubble_s], ['exposed DP', st.dp_comm_exposed_s],
  ['optimizer', st.optimizer_s], ['overheads', st.overhead_s]];

// Hovers the middle of the named segment of the step bar (where plan() puts it) and returns the
// tooltip's text.
export async function hoverSegment(page, step, label) {
  const bar = await widgetRect(page, 'chart:step-bar');
  let start = 0;
  for (const [name, seconds] of segmentsOf(step)) {
    if (name === label) {
      assert(seconds > 0, `no ${label} segment to hover: ${JSON.stringify(step)}`);
      await page.mouse.move(bar.x + bar.w * (start + seconds / 2) / step.step_s, bar.y + bar.h / 2);
      await frames(page, 3);
      return page.evaluate(() => window.sizerHover || '');
    }
    if (seconds > 0) start += seconds;
  }
  throw new Error(`no segment ${label}`);
}

// Picks `id` from the planner list at dotted `key` with the pointer (a click, or a tap on a phone):
// opens the list (screenshot `openShot` while open, when given), clicks the entry, waits for the
// results to change and for the link to carry it; returns the step terms, the linked scenario and
// plan() of it.
export async function pickFromList(page, size, key, id, what, openShot) {
  const field = `planner:${key}`;
  const text = await resultsText(page);
  await scrollIntoView(page, field, size.viewport);
  await clickWidget(page, field);
  await frames(page, 3);
  if (openShot) await screenshot(page, openShot);
  await clickWidget(page, `${field}=${id}`);
  await textChanged(page, text, what);
  const terms = await stepTerms(page);
  const scenario = await linkWith(page, key, id, what);
  const plan = await planInPage(page, scenario);
  assert(plan.valid, `${what}: plan() of the link is not valid`);
  return { terms, scenario, plan };
}
