// A schedule no cluster meets, as a user meets it: a share link for Llama 3.1 405B on A100s in 60
// days with predicted goodput (at the lowest MFU point failures outpace the devices added). The
// overview cards, the per-MFU table and the text mirror say "out of reach" for that point and
// never $0 or 0 devices; the numbers at the other points equal sizer.evaluate() of the link.
// Then the schedule is typed longer with the keyboard (a tap first on the phone) and every point
// comes within reach. At desktop size and on a phone with touch at devicePixelRatio 3.
import path from 'node:path';
import { assert, assertClean, frames, openPage, press, resultsText, screenshot, scrollInputs, typeInto, waitForFirstFrame, waitText,
  widgetRect, widgetText } from './lib.mjs';

const sameOrigin = (origin) => (url) => url.startsWith(origin + '/');
const kScenario = { model: 'llama-3.1-405b', device: 'a100', training: { days: 60, goodput: 'predicted' } };
const kSizes = [
  { name: 'desktop', viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 },
  { name: 'phone', viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, hasTouch: true },
];

const lineOf = (text, label) => {
  const l = text.split('\n').find((x) => x.startsWith(`${label}: `));
  assert(l, `no "${label}" line in the mirror:\n${text}`);
  return l.slice(label.length + 2);
};

async function drive(browser, origin, shots, size) {
  const where = (w) => `${size.name}: ${w}`;
  const touch = Boolean(size.hasTouch);
  const { page, watch } = await openPage(browser, { allow: sameOrigin(origin), viewport: size.viewport,
                                                    deviceScaleFactor: size.deviceScaleFactor, hasTouch: touch, shared: true });
  await page.goto(`${origin}/index.html#s1.${Buffer.from(JSON.stringify(kScenario)).toString('base64url')}`);
  await waitForFirstFrame(page);
  await frames(page, 8);
  await page.mouse.move(2, 2);
  await screenshot(page, path.join(shots, `unmeetable-${size.name}.png`));

  const api = await page.evaluate(async (s) => {
    const { default: createSizer } = await import('./sizer.mjs');
    const sizer = await (window.__sizerApi || (window.__sizerApi = createSizer()));
    return sizer.evaluate(s);
  }, kScenario);
  const c = api.training.compute;
  assert(c.cluster_devices[0] === null && c.cluster_devices[1] > 0, where(`API cluster_devices ${JSON.stringify(c.cluster_devices)}`));
  assert(api.nulls.some((n) => n.path === 'training.compute.cluster_devices' && /no cluster meets/.test(n.why)),
         where('no nulls entry for the cluster'));

  // The cards: the range over the points in reach as the value, the point out of reach named in
  // the detail beneath it.
  const card = await widgetText(page, 'card:Devices for the schedule');
  const lo = Math.min(...c.cluster_devices.filter((x) => x !== null));
  const hi = Math.max(...c.cluster_devices.filter((x) => x !== null));
  assert(card && card.replace(/,/g, '') === `${lo} – ${hi}`, where(`devices card "${card}", want ${lo} – ${hi}`));
  for (const title of ['Devices for the schedule', 'Cluster rented for the schedule', 'Facility power', 'Training emissions']) {
    const detail = await widgetText(page, `card-detail:${title}`);
    assert(detail && detail.startsWith('Out of reach at 38% MFU: no cluster meets 60 days at the predicted goodput; '),
           where(`${title} detail "${detail}"`));
    const value = await widgetText(page, `card:${title}`);
    assert(value && !value.startsWith('$0') && !/^0\b/.test(value), where(`${title} card "${value}"`));
  }

  // The mirror: the per-MFU table's first row and the devices line.
  const text = await resultsText(page);
  assert(lineOf(text, 'Devices for 60 days').includes('out of reach'), where('the devices line'));
  const row = text.split('\n').find((l) => l.startsWith('38% | '));
  assert(row && row.includes('out of reach') && !/\|\s*\$0\s*\|/.test(row) && !/\|\s*0\s*\|/.test(row),
         where(`the 38% row: ${row}`));
  assert(!/\bnan\b|\binf/i.test(text), where('NaN or inf in the mirror'));

  // The Compare chips table (desktop: as wide as the screen): the scenario's chip at 38% MFU.
  if (!touch) {
    await press(page, 'tab:Compare chips', touch);
    await page.waitForFunction(() => (window.sizerUi || {})['header:compare:0'], null, { timeout: 10000 });
    const table = await widgetRect(page, 'header:compare:0');
    let cell;
    for (let i = 0; i < 30 && cell === undefined; i++) {  // the wheel down the table until the A100 rows are drawn
      cell = await widgetText(page, 'cell:compare:cluster@38');
      if (cell !== undefined) break;
      await page.mouse.move(table.x + 200, table.y + 120);
      await page.mouse.wheel(0, 120);
      await frames(page, 4);
    }
    assert(cell === 'out of reach', where(`the Compare table's 38% A100 cell "${cell}"`));
    await screenshot(page, path.join(shots, `unmeetable-compare-${size.name}.png`));
    await press(page, 'tab:Overview', touch);
    await frames(page, 4);
  }

  // A longer schedule, typed: every point comes within reach.
  await scrollInputs(page, 'input:training.days', size);
  await typeInto(page, 'input:training.days', '365', touch);
  const after = await waitText(page, /^Devices for 365 days: [\d,]+ to [\d,]+$/, where('365 days in reach'), 15000);
  assert(!after.includes('out of reach'), where('still out of reach at 365 days'));
  const detail365 = await widgetText(page, 'card-detail:Devices for the schedule');
  assert(detail365 && !detail365.includes('Out of reach'), where(`devices detail at 365 days "${detail365}"`));
  await frames(page, 3);
  await screenshot(page, path.join(shots, `unmeetable-365-days-${size.name}.png`));
  assertClean(watch);
  await watch.close();
}

export const tests = [
  ['a schedule out of reach reads "out of reach" in cards, table and mirror, never $0; typed longer, it is met (click and tap)',
    async ({ browser, origin, shots }) => {
      for (const size of kSizes) await drive(browser, origin, shots, size);
    }],
];
