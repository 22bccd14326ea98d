// Issue 11 items 7 and 10: the page says what its numbers are, driven with real input (mouse, or
// taps on a touch screen; the keyboard for typing) at desktop (1280×800) and phone (390×844) size.
// "Experts per token" is a plain count (no "k") and "Shared experts" says in its help how a wider
// shared MLP is counted; the Compare view labels the minimum devices and
// the replica apart; the automatic replica size is the one its hint shows, and an undersized
// replica is an error, never priced; the offline copy warns that its links are file:// addresses
// and opens its own copy of the method page; an embed naming an unknown model shows an error and
// no numbers; and picking another model preset resets the layout that no longer fits, and says so.
// What the canvas drew is read from the texts the app publishes beside its rectangles (widgetText).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { assert, assertClean, frames, messageAfter, openPage, pixelPage, press, resultsText, screenshot, scrollInputs, scrollIntoView,
         serialOf, sweepHover, waitForFirstFrame, waitText, widgetRect, typeInto, widgetText } from './lib.mjs';

const sameOrigin = (origin) => (url) => url.startsWith(origin + '/');
const link = (json) => 's1.' + Buffer.from(json, 'utf8').toString('base64url');
const kSizes = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 },
  { name: 'phone', viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, hasTouch: true },
];

async function openApp(browser, origin, size, hash = '') {
  const opened = await openPage(browser, { allow: sameOrigin(origin), viewport: size.viewport,
                                           deviceScaleFactor: size.deviceScaleFactor, hasTouch: !!size.hasTouch, shared: true });
  await opened.page.goto(`${origin}/index.html${hash}`);
  await waitForFirstFrame(opened.page);
  return opened;
}

const lineOf = (text, label) => (text.split('\n').find((l) => l.startsWith(`${label}: `)) || '').slice(label.length + 2);

// Share of a screenshot's pixels drawn in the palette's red (errors): red well above green and blue.
async function redFraction(browser, png) {
  return (await pixelPage(browser)).evaluate(async (b64) => {
    const bmp = await createImageBitmap(new Blob([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], { type: 'image/png' }));
    const g = new OffscreenCanvas(bmp.width, bmp.height).getContext('2d');
    g.drawImage(bmp, 0, 0);
    const d = g.getImageData(0, 0, bmp.width, bmp.height).data;
    let red = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] > 150 && d[i] > d[i + 1] + 60 && d[i] > d[i + 2] + 60) red++;
    return red / (d.length / 4);
  }, png.toString('base64'));
}

async function expertsAndCompare(browser, origin, shots, size) {
  const where = (w) => `${size.name}: ${w}`;
  const touch = !!size.hasTouch;
  const { page, watch } = await openApp(browser, origin, size, '#' + link('{"model": "moe-1t"}'));
  await scrollInputs(page, 'input:model.moe.experts_per_token', size);
  // Units the fields draw are published: "per layer" beside the routed experts, nothing beside
  // experts per token (it read "8 k", i.e. 8,000).
  assert(await widgetText(page, 'unit:model.moe.experts') === 'per layer', where('routed experts lost their unit'));
  const unit = await widgetText(page, 'unit:model.moe.experts_per_token');
  assert(unit === undefined, where(`experts per token shows a unit: "${unit}"`));
  await screenshot(page, path.join(shots, `honest-experts-${size.name}.png`));
  // The shared experts' "(?)" says how a shared MLP wider than an expert is counted
  // (docs/contract.md): the pointer over the marker at the label's right end shows it, mirrored as
  // window.sizerHover.
  await scrollInputs(page, 'input:model.moe.shared_experts', size);
  const label = await widgetRect(page, 'label:Shared experts');
  const points = Array.from({ length: 16 }, (_, i) => [0.5, 0.75, 0.25].map((fy) => [label.x + label.w - 2 - 3 * i, label.y + label.h * fy])).flat();
  const tip = await sweepHover(page, points, (t) => t.includes('as wide as a routed expert'), 3);
  assert(tip.includes('each as wide as a routed expert') && tip.includes('Qwen2-57B-A14B'),
         where(`the shared experts' help under the pointer: "${tip}"`));
  await screenshot(page, path.join(shots, `honest-shared-experts-${size.name}.png`));
  await page.mouse.move(5, 5);
  if (size.name === 'desktop') {  // the Compare table is as wide as the desktop
    await press(page, 'tab:Compare chips', touch);
    await page.waitForFunction(() => (window.sizerUi || {})['header:compare:0'], null, { timeout: 10000 });
    const table = await widgetRect(page, 'header:compare:0');
    const seen = new Set();  // the headers drawn while the table scrolls sideways (columns off screen are not)
    for (let i = 0; i < 12 && !seen.has('$ per M tok'); i++) {
      const drawn = await page.evaluate(() => Array.from({ length: 15 }, (_, c) => ((window.sizerUi || {})[`header:compare:${c}`] || [])[4]));
      for (const h of drawn) seen.add(h);  // widgetText of header:compare:0 … 14, read at once
      await page.mouse.move(table.x + 300, table.y + 120);
      await frames(page, 2);
      await page.mouse.wheel(200, 0);
      await frames(page, 4);
    }
    const shown = [...seen];
    for (const h of ['Min. devices (train)', 'Min. devices (serve)', 'Replica', 'Decode tok/s per replica']) {
      assert(shown.includes(h), where(`no "${h}" column: ${shown.filter(Boolean).join(' | ')}`));
    }
    assert(!shown.includes('State floor'), where('the old "State floor" label is back'));
    // The scenario's own row: the minimum and the replica it uses, as the overview and mirror say.
    const text = await resultsText(page);
    const m = /^(\d+) devices, automatic: .* minimum (\d+)/.exec(lineOf(text, 'Serving replica'));
    assert(m, where(`mirror: ${lineOf(text, 'Serving replica')}`));
    assert(await widgetText(page, 'cell:compare:replica') === m[1], where(`Replica cell ${await widgetText(page, 'cell:compare:replica')}, mirror ${m[1]}`));
    assert(await widgetText(page, 'cell:compare:serve-min') === m[2], where(`Min. devices (serve) cell, mirror ${m[2]}`));
    assert(m[1] !== m[2], where('this scenario should have a replica larger than its minimum'));
    await page.mouse.move(2, 2);
    await frames(page, 3);
    await screenshot(page, path.join(shots, 'honest-compare-desktop.png'));
  }
  assertClean(watch);
  await watch.close();
}

async function replicaHintAndError(browser, origin, shots, size) {
  const where = (w) => `${size.name}: ${w}`;
  const touch = !!size.hasTouch;
  const { page, watch } = await openApp(browser, origin, size);
  // Dense 1T on GB200: weights and KV need 11 devices; the automatic replica is 16.
  const text = await resultsText(page);
  const m = /^(\d+) devices, automatic: the smallest power of two ≥ the minimum (\d+)/.exec(lineOf(text, 'Serving replica'));
  assert(m && m[1] === '16' && m[2] === '11', where(`mirror: ${lineOf(text, 'Serving replica')}`));
  await scrollInputs(page, 'input:serving.replica_devices', size);
  const hint = await widgetText(page, 'hint:serving.replica_devices');
  assert(hint === `(0 = auto: ${m[1]})`, where(`the hint says "${hint}", the replica used is ${m[1]}`));
  assert(await widgetText(page, 'card:Serving replica') === `${m[1]} devices`, where('overview card'));
  // Too small a replica: an error in the headline card and the mirror, and nothing priced.
  await typeInto(page, 'input:serving.replica_devices', '4', touch);
  const bad = await waitText(page, /^Serving replica: ERROR: 4 devices is too small: the weights and KV cache need at least 11 devices/,
                             where('undersized replica in the mirror'));
  assert(/^Cost per million tokens: not given: the replica is too small/m.test(bad), where(`cost:\n${bad}`));
  assert(/^Serving fleet: not given: the replica is too small/m.test(bad), where(`fleet:\n${bad}`));
  assert(!/no price/.test(lineOf(bad, 'Cost per million tokens')), where('an undersized replica reads as "no price"'));
  assert(await widgetText(page, 'card-error:Serving replica') === '4 devices: too small', where('replica card not an error'));
  assert(await widgetText(page, 'card-error:Cost per million tokens') === 'not given', where('cost card not an error'));
  assert(await widgetText(page, 'card:Cost per million tokens') === undefined, where('cost card still shows a price'));
  assert(await widgetText(page, 'hint:serving.replica_devices') === undefined, where('hint shown for a set size'));
  const card = await scrollIntoView(page, 'card-error:Serving replica', size.viewport, 'tab:Overview');
  await page.mouse.move(2, 2);
  await frames(page, 3);
  await screenshot(page, path.join(shots, `honest-replica-error-${size.name}.png`));
  const red = await redFraction(browser, await page.screenshot({ clip: { x: card.x, y: card.y, width: card.w, height: card.h } }));
  assert(red > 0.05, where(`the card's "too small" is not drawn in red (${(red * 100).toFixed(1)}% red pixels)`));
  // Back to the automatic size: priced again.
  await scrollInputs(page, 'input:serving.replica_devices', size);
  await typeInto(page, 'input:serving.replica_devices', '0', touch);
  const ok = await waitText(page, /^Serving replica: 16 devices, automatic/, where('automatic replica again'));
  assert(/^Cost per million tokens: \$/m.test(ok), where(`not priced again:\n${ok}`));
  assertClean(watch);
  await watch.close();
}

async function offlineLinkAndMethod(browser, site, shots, size) {
  const where = (w) => `${size.name}: ${w}`;
  const touch = !!size.hasTouch;
  const file = pathToFileURL(path.join(site, 'sizer-offline.html')).href;
  const { page, watch } = await openPage(browser, { allow: (u) => u === file, viewport: size.viewport,
                                                    deviceScaleFactor: size.deviceScaleFactor, hasTouch: touch });
  await page.goto(file);
  await waitForFirstFrame(page);
  await press(page, 'button:copy-link', touch);
  const warning = await widgetText(page, 'warning:link');
  assert(/the link is a file:\/\/ address that opens only on this machine/.test(warning || ''), where(`link warning: ${warning}`));
  await screenshot(page, path.join(shots, `honest-offline-link-${size.name}.png`));
  await press(page, 'link:close', touch);
  await press(page, 'button:method', touch);
  const sources = await widgetText(page, 'menu:sources-page');
  assert(/not in this offline file/.test(sources || ''), where(`sources entry: ${sources}`));
  await screenshot(page, path.join(shots, `honest-offline-method-menu-${size.name}.png`));
  const [popup] = await Promise.all([watch.context.waitForEvent('page', { timeout: 10000 }), press(page, 'menu:method-page', touch)]);
  const popupErrors = [];
  popup.on('console', (msg) => { if (msg.type() === 'error') popupErrors.push(msg.text()); });
  await popup.waitForLoadState('load');
  assert(/^blob:/.test(popup.url()), where(`method page opened at ${popup.url()}, not from the file itself`));
  assert(await popup.title() === 'Sizer — method and sources', where(`method page title "${await popup.title()}"`));
  const look = await popup.evaluate(() => ({ nav: document.querySelector('nav').textContent, rows: document.querySelectorAll('table tr').length,
                                             styled: getComputedStyle(document.body).maxWidth !== 'none' }));
  assert(/offline copy/.test(look.nav) && look.rows > 10, where(`method page content: ${JSON.stringify(look)}`));
  assert(look.styled, where('the method page lost its style sheet'));
  await popup.screenshot({ path: path.join(shots, `honest-offline-method-page-${size.name}.png`) });
  assert(popupErrors.length === 0, where(`method page errors: ${popupErrors.join('; ')}`));
  await popup.close();
  assertClean(watch);
  await watch.close();
}

async function presetResetsLayout(browser, origin, shots, size) {
  const where = (w) => `${size.name}: ${w}`;
  const touch = !!size.hasTouch;
  const scenario = '{"model": "megatron-1t", "device": "gb200", "system": "gb200-nvl72", ' +
                   '"training": {"layout": {"tp": 8, "pp": 64, "dp": 8}}, "serving": {"layout": {"tp": 40, "pp": 1, "dp": 1, "ep": 1}}}';
  const { page, watch } = await openApp(browser, origin, size, '#' + link(scenario));
  await waitText(page, /^Planner: TP 8 × PP 64 × DP 8 /, where('the linked layout'));
  const pick = async (id) => {  // the list opens scrolled to the current preset: wheel to the wanted one
    await press(page, 'combo:model', touch);
    const combo = await widgetRect(page, 'combo:model');
    const top = combo.y + combo.h + 2;
    for (let i = 0; i < 30; i++) {
      const r = await widgetRect(page, `option:model=${id}`);
      if (r.y >= top && r.y + r.h <= size.viewport.height - 4) break;
      await page.mouse.move(r.x + 40, top + 60);
      await frames(page, 2);
      await page.mouse.wheel(0, r.y < top ? -60 : 60);
      await frames(page, 4);
    }
    await press(page, `option:model=${id}`, touch);
  };
  // The same shape (128 layers, 160 heads): the layouts still fit and stay, without a notice.
  let serial = await serialOf(page);
  await pick('dense-1t');
  await waitText(page, /^Dense 1T .* on NVIDIA GB200/, where('Dense 1T picked'));
  assert(/^Planner: TP 8 × PP 64 × DP 8 /m.test(await resultsText(page)), where('a fitting layout was dropped'));
  assert(await serialOf(page) === serial, where('a notice for a layout that still fits'));
  // Llama 3.1 70B (80 layers, 64 heads): PP 64 and serving TP 40 no longer fit.
  serial = await serialOf(page);
  await pick('llama-3.1-70b');
  const note = await messageAfter(page, serial);
  assert(!note.error && /^Layout reset: it does not fit Llama 3\.1 70B/.test(note.text), where(`notice: ${note.text}`));
  assert(/training\.layout \(tp 8, pp 64, dp 8\): training\.layout\.pp does not divide the 80 layers/.test(note.text),
         where(`notice does not name the training layout: ${note.text}`));
  assert(/serving\.layout \(tp 40, pp 1, dp 1, ep 1\): serving\.layout\.tp must divide the 64 attention heads; got 40/.test(note.text),
         where(`notice does not name the serving layout: ${note.text}`));
  // The core's default suits the model (default_training_layout): no "does not fit either".
  assert(/training\.layout \(tp 8, pp 64, dp 8\): [^\n]*; back to the default(\n|$)/m.test(note.text),
         where(`notice does not say the training layout went back to the default: ${note.text}`));
  assert(!/does not fit either/.test(note.text), where(`the default is said not to fit: ${note.text}`));
  const text = await waitText(page, /^Llama 3\.1 70B on NVIDIA GB200/, where('Llama 3.1 70B picked'));
  const planner = lineOf(text, 'Planner');
  // The seed's rule on its 3,072 devices for 80 layers: TP 8, one stage, 384 replicas.
  assert(/^TP 8 × PP 1 × DP 384 /.test(planner), where(`not the model's default layout: ${planner}`));
  await page.mouse.move(2, 2);
  await frames(page, 3);
  await screenshot(page, path.join(shots, `honest-preset-reset-${size.name}.png`));
  // The link no longer carries the layouts.
  let linked = null;
  for (const end = Date.now() + 10000; ;) {  // read once a frame (the link is written half a second after the edit)
    const hash = await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(location.hash))));
    linked = hash.startsWith('#s1.') ? JSON.parse(Buffer.from(hash.slice(4), 'base64url').toString('utf8')) : null;
    if ((linked && linked.model === 'llama-3.1-70b') || Date.now() > end) break;
  }
  assert(linked && linked.model === 'llama-3.1-70b', where(`link: ${JSON.stringify(linked)}`));
  assert(!(linked.training || {}).layout && !(linked.serving || {}).layout, where(`link keeps a layout: ${JSON.stringify(linked)}`));
  assertClean(watch);
  await watch.close();
}

export const tests = [
  ...kSizes.map((size) => [`honest: experts per token is a plain count; Compare columns say minimum devices and replica (${size.name})`,
    ({ browser, origin, shots }) => expertsAndCompare(browser, origin, shots, size)]),
  ...kSizes.map((size) => [`honest: the automatic replica matches its hint; an undersized replica is an error (${size.name})`,
    ({ browser, origin, shots }) => replicaHintAndError(browser, origin, shots, size)]),
  ...kSizes.map((size) => [`honest: the offline copy warns about file:// links and opens its own method page (${size.name})`,
    ({ browser, site, shots }) => offlineLinkAndMethod(browser, site, shots, size)]),
  ...kSizes.map((size) => [`honest: another model preset resets the layout that no longer fits, and says so (${size.name})`,
    ({ browser, origin, shots }) => presetResetsLayout(browser, origin, shots, size)]),

  ['honest: the hosted app links its method and sources pages', async ({ browser, origin, shots }) => {
    const { page, watch } = await openApp(browser, origin, kSizes[0]);
    await press(page, 'button:copy-link', false);
    assert(await widgetText(page, 'warning:link') === undefined, 'the hosted app warns about file:// links');
    await press(page, 'link:close', false);
    for (const [entry, file, title] of [['menu:method-page', 'method.html', /method and sources/],
                                        ['menu:sources-page', 'sources.html', /[Ss]ources/]]) {
      await press(page, 'button:method', false);
      const [popup] = await Promise.all([watch.context.waitForEvent('page', { timeout: 10000 }), press(page, entry, false)]);
      await popup.waitForLoadState('load');
      assert(popup.url() === `${origin}/${file}`, `${entry} opened ${popup.url()}`);
      assert(title.test(await popup.title()), `${file} title "${await popup.title()}"`);
      await popup.close();
    }
    await screenshot(page, path.join(shots, 'honest-hosted-method-menu.png'));
    assertClean(watch);
    await watch.close();
  }],

  ['honest: an embed whose scenario names an unknown model shows an error and no numbers', async ({ browser, origin, shots }) => {
    const { page: blank, watch } = await openPage(browser, { allow: sameOrigin(origin), viewport: { width: 440, height: 500 } });
    const card = async (scenario, shot) => {  // a fresh page each time: a new fragment alone reloads nothing
      const page = await watch.context.newPage();
      page.on('console', (m) => { if (m.type() === 'error') watch.errors.push(`console: ${m.text()}`); });
      await page.goto(`${origin}/embed.html#s=${link(scenario)}&show=cost_usd,cluster_devices&in=training.days&title=My%20run`);
      await page.waitForFunction(() => document.documentElement.dataset.sizer === 'ready', null, { timeout: 20000 });
      if (shot) await page.screenshot({ path: path.join(shots, shot), fullPage: true });
      const seen = await page.evaluate(() => ({
        title: document.getElementById('title').textContent, numbers: document.querySelectorAll('dd, #inputs input').length,
        issues: document.getElementById('issues').hidden ? '' : document.getElementById('issues').textContent,
        scenario: getComputedStyle(document.getElementById('scenario')).display,
        open: getComputedStyle(document.getElementById('open')).display }));
      await page.close();
      return seen;
    };
    const good = await card('{"model": "moe-1t", "training": {"days": 30}}');
    assert(good.numbers === 3 && good.issues === '' && good.open !== 'none', `the good card: ${JSON.stringify(good)}`);
    const bad = await card('{"model": "no-such-model", "training": {"days": 30}}', 'honest-embed-unknown-model.png');
    assert(bad.title === 'My run', `title ${bad.title}`);
    assert(bad.numbers === 0, `the card still shows ${bad.numbers} numbers or inputs: ${JSON.stringify(bad)}`);
    assert(/shows no numbers/.test(bad.issues) && /no-such-model/.test(bad.issues), `issues: ${bad.issues}`);
    assert(bad.scenario === 'none' && bad.open === 'none', `model line or open link still shown: ${JSON.stringify(bad)}`);
    await blank.close();
    assertClean(watch);
    await watch.close();
  }],
];
