// The Reliability & cost view (issue 12), driven with real input: a click (a tap on the phone)
// opens the view and switches goodput to predicted, a purchase price and a storage capacity are
// typed, a grid region is picked from its combo; the numbers the page shows (its text mirror)
// equal sizer.evaluate() of the linked scenario, and hovering each chart shows the value under
// the pointer. At desktop size (1× and 2×) and phone size with touch, with screenshots.
import path from 'node:path';
import { assert, assertClean, clickWidget, frames, openPage, press, resultsText, screenshot, scrollInputs, scrollIntoView, sweepHover, waitText,
  waitForFirstFrame, typeInto } from './lib.mjs';

const sameOrigin = (origin) => (url) => url.startsWith(origin + '/');
const kTab = 'tab:Reliability & cost';
const kSizes = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 },
  { name: 'phone', viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, hasTouch: true },
];
const kDesktop2x = { name: 'desktop-2x', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 2 };

// At 2× on the desktop: the view drawn down its length, for people to look at.
async function screenshots2x(browser, origin, shots) {
  const { page, watch } = await openPage(browser, { allow: sameOrigin(origin), viewport: kDesktop2x.viewport,
                                                    deviceScaleFactor: 2, shared: true });
  await page.goto(`${origin}/index.html`);
  await waitForFirstFrame(page);
  await clickWidget(page, kTab);
  for (const name of ['chart:ops-interval', 'chart:ops-breakeven', 'chart:ops-tornado']) {
    await scrollIntoView(page, name, kDesktop2x.viewport, kTab);
    await page.mouse.move(2, 2);
    await frames(page, 3);
    await screenshot(page, path.join(shots, `ops-${name.slice(10)}-desktop-2x.png`));
  }
  assertClean(watch);
  await watch.close();
}

// "$1.99" "$47,920" "$53.6M" "16.5 h" "6.00 min" "97.86%" "21,350" "29.6M" "942 kB/s" -> number (SI units).
export function parseShown(text) {
  const m = /(-?[\d,]*\.?\d+(?:e[+-]?\d+)?)\s*([kMBTGP]?)(%| ?(?:s|ms|min|h|days|TB|GB|PB|MB|kB|B)\b)?/.exec(text.replace(/\$/g, ''));
  if (!m) return NaN;
  let v = Number(m[1].replace(/,/g, ''));
  v *= { '': 1, k: 1e3, M: 1e6, B: 1e9, T: 1e12, G: 1e9, P: 1e15 }[m[2]];
  const unit = (m[3] || '').trim();
  const scale = { '%': 0.01, ms: 1e-3, min: 60, h: 3600, days: 86400, TB: 1e12, GB: 1e9, PB: 1e15, MB: 1e6, kB: 1e3 }[unit];
  return scale ? v * scale : v;
}

// `shown` is `want` rounded for display (3 or 4 significant digits).
function close(shown, want, what) {
  const v = parseShown(shown);
  assert(Number.isFinite(v) && Math.abs(v - want) <= Math.abs(want) * 0.006 + 1e-9, `${what}: shown "${shown}" (${v}), API ${want}`);
}

const lineOf = (text, label) => {
  const l = text.split('\n').find((x) => x.startsWith(`${label}: `));
  assert(l, `no "${label}" line in the mirror:\n${text}`);
  return l.slice(label.length + 2);
};


// The scenario in the page's link once `check(scenario)` holds (the link is written half a second
// after the last edit), read once a frame for up to 20 s.
async function linked(page, check, what) {
  let s = null;
  const end = Date.now() + 20000;
  for (let first = true; first || Date.now() < end; first = false) {
    const hash = await page.evaluate((wait) => new Promise((resolve) => {
      if (wait) requestAnimationFrame(() => resolve(location.hash));
      else resolve(location.hash);
    }), !first);
    s = hash.startsWith('#s1.') ? JSON.parse(Buffer.from(hash.slice(4), 'base64url').toString('utf8')) : null;
    if (s && check(s)) return s;
  }
  throw new Error(`${what}: the link never had what was entered: ${JSON.stringify(s)}`);
}

// Moves the pointer along a chart until window.sizerHover starts with `prefix`.
async function hoverChart(page, name, size, prefix, fy = [0.5, 0.3, 0.7]) {
  const r = await scrollIntoView(page, name, size.viewport, kTab);
  const points = Array.from({ length: 21 }, (_, i) => fy.map((y) => [r.x + r.w * (0.15 + 0.7 * i / 20), r.y + r.h * y])).flat();
  const tip = await sweepHover(page, points, (t) => Boolean(t) && t.startsWith(prefix));
  if (tip && tip.startsWith(prefix)) return tip;
  throw new Error(`${name}: no "${prefix}" tooltip under the pointer: ${await page.evaluate(() => window.sizerHover)}`);
}

async function drive(browser, origin, shots, size) {
  const where = (w) => `${size.name}: ${w}`;
  const touch = !!size.hasTouch;
  const { page, watch } = await openPage(browser, { allow: sameOrigin(origin), viewport: size.viewport,
                                                    deviceScaleFactor: size.deviceScaleFactor, hasTouch: touch, shared: true });
  await page.goto(`${origin}/index.html`);
  await waitForFirstFrame(page);
  await press(page, kTab, touch);
  await page.mouse.move(2, 2);
  await frames(page, 4);
  await screenshot(page, path.join(shots, `ops-${size.name}.png`));
  assert(/^Goodput: 90% assumed \(used\)/m.test(await resultsText(page)), where('goodput not assumed at first'));
  // Goodput: predicted.
  await scrollInputs(page, 'radio:training.goodput=predicted', size);
  await press(page, 'radio:training.goodput=predicted', touch);
  await waitText(page, /^Goodput: predicted .* \(used\)/, where('goodput predicted'), 10000);
  // A purchase price and a storage capacity (100 TB: short of the checkpoints plus the data).
  await scrollInputs(page, 'input:ownership.usd_per_device', size);
  await typeInto(page, 'input:ownership.usd_per_device', '30000', touch);
  await scrollInputs(page, 'input:training.storage.capacity_bytes', size);
  await typeInto(page, 'input:training.storage.capacity_bytes', '0.1', touch);
  await waitText(page, /^Storage capacity needed: .*have 100 TB: short$/, where('storage capacity'), 10000);
  // A grid region from the combo.
  await scrollInputs(page, 'combo:carbon.region', size);
  await press(page, 'combo:carbon.region', touch);
  await frames(page, 4);
  await screenshot(page, path.join(shots, `ops-regions-${size.name}.png`));
  await press(page, 'option:carbon.region=fr', touch);
  await waitText(page, /^Grid: France, /, where('grid region'), 10000);
  const scenario = await linked(page, (s) => s.training && s.training.goodput === 'predicted' && s.ownership &&
                                      s.ownership.usd_per_device === 30000 && s.training.storage &&
                                      s.training.storage.capacity_bytes === 1e14 && s.carbon && s.carbon.region === 'fr',
                                where('the link'));
  const text = await resultsText(page);
  const api = await page.evaluate(async (s) => {
    const { default: createSizer } = await import('./sizer.mjs');
    const sizer = await (window.__sizerApi || (window.__sizerApi = createSizer()));
    return sizer.evaluate(s);
  }, scenario);
  const rel = api.training.reliability;
  close(lineOf(text, 'Goodput').replace(/^predicted /, ''), rel.goodput_predicted, where('predicted goodput'));
  close(lineOf(text, 'Job MTBF'), rel.job_mtbf_s, where('job MTBF'));
  assert(parseShown(lineOf(text, 'Interruptions expected over the run')) === Math.round(rel.expected_interruptions),
         where(`interruptions ${lineOf(text, 'Interruptions expected over the run')} vs ${rel.expected_interruptions}`));
  const ckpt = lineOf(text, 'Checkpoint');
  close(ckpt, rel.checkpoint_bytes, where('checkpoint size'));
  close(/every ([^(]+)/.exec(ckpt)[1], rel.checkpoint_interval_s, where('checkpoint interval'));
  const used = lineOf(text, 'Goodput used per MFU point').split(' to ').map(parseShown);
  close(`${used[0] * 100}%`, Math.min(...rel.goodput_used), where('goodput used, lowest'));
  assert(api.training.storage.capacity_verdict === 'short', where(`capacity verdict ${api.training.storage.capacity_verdict}`));
  close(lineOf(text, 'Storage capacity needed'), api.training.storage.total_capacity_bytes, where('storage needed'));
  const own = api.ownership;
  close(lineOf(text, 'Owned cost per device-hour'), own.usd_per_device_hour_owned, where('owned $/device-hour'));
  const breakeven = text.split('\n').filter((l) => l.startsWith('Break-even utilisation against '));
  assert(breakeven.length === own.offers.length, where(`${breakeven.length} break-even lines for ${own.offers.length} offers`));
  own.offers.forEach((o, i) => {
    const [label, value] = breakeven[i].split(': ');
    assert(label.startsWith(`Break-even utilisation against ${o.provider} ${o.offer_kind.replace(/_/g, ' ')} at $`), where(`offer ${i}: ${label}`));
    close(label.replace(/^.* at /, ''), o.usd_per_device_hour, where(`rent of ${o.offer}`));
    if (o.breakeven_utilisation <= 1) close(value, o.breakeven_utilisation, where(`break-even ${o.offer}`));
    else assert(/^never/.test(value), where(`break-even ${o.offer}: ${value}`));
  });
  const owned = lineOf(text, 'Training cluster owned').split(';')[0].split(' to ');
  close(owned[0], Math.min(...own.training_cost_owned_usd), where('training owned, low'));
  close(lineOf(text, 'Grid').split(', ')[1], api.carbon.g_co2e_per_kwh, where('grid intensity'));
  const tco2 = lineOf(text, 'Training emissions (operational)').replace(' t CO2e', '').split(' to ');
  close(tco2[1], Math.max(...api.carbon.training_kg_co2e) / 1000, where('training emissions, high'));
  const q = api.intervals.devices_quantiles;
  const dev = lineOf(text, `Interval p10 to p90 of the devices for ${scenario.training && scenario.training.days || 90} days`);
  const [p10, p90] = dev.replace(/ \(.*$/, '').split(' to ');
  for (const [shown, want, what] of [[p10, q.p10, 'p10'], [p90 ?? p10, q.p90, 'p90']]) {
    if (want === null) assert(shown === 'out of reach', where(`devices ${what}: ${shown} for an infinite quantile`));
    else assert(parseShown(shown) === Math.ceil(want), where(`devices ${what}: ${shown} vs ${want}`));
  }
  assert(!/\b(inf|nan)\b/i.test(text), where(`inf or NaN shown:\n${text}`));
  // The charts, hovered: the value under the pointer.
  const tipI = await hoverChart(page, 'chart:ops-interval', size, 'Checkpoint every');
  assert(/predicted goodput \d/.test(tipI), where(`interval tooltip: ${tipI}`));
  await screenshot(page, path.join(shots, `ops-interval-${size.name}.png`));
  const tipD = await hoverChart(page, 'chart:ops-devices', size, '');
  assert(/devices\npredicted goodput \d/.test(tipD), where(`devices tooltip: ${tipD}`));
  await screenshot(page, path.join(shots, `ops-devices-${size.name}.png`));
  const tipB = await hoverChart(page, 'chart:ops-breakeven', size, 'At ');
  close(/owned: (\S+) per device-year/.exec(tipB)[1], own.usd_per_device_hour_owned * 8760, where(`break-even tooltip: ${tipB}`));
  await screenshot(page, path.join(shots, `ops-breakeven-${size.name}.png`));
  if (api.intervals.sensitivity.length) {
    const tipT = await hoverChart(page, 'chart:ops-tornado', size, '', [0.2, 0.4, 0.6, 0.8]);
    assert(/alone at its low and high end/.test(tipT), where(`tornado tooltip: ${tipT}`));
    await screenshot(page, path.join(shots, `ops-tornado-${size.name}.png`));
  }
  // The overview cards carry the intervals and the carbon card.
  await press(page, 'tab:Overview', touch);
  await page.mouse.move(2, 2);
  await frames(page, 4);
  await screenshot(page, path.join(shots, `ops-overview-${size.name}.png`));
  assertClean(watch);
  await watch.close();
}

export const tests = [
  ['reliability & cost: goodput predicted, a purchase price, storage and a grid region typed and picked; numbers equal evaluate(); charts hovered (desktop, phone with touch; 2x screenshots)',
   async ({ browser, origin, shots }) => {
     for (const size of kSizes) await drive(browser, origin, shots, size);
     await screenshots2x(browser, origin, shots);
   }],
];
