// Shared helpers of the browser tests: Debian's Chromium through playwright-core, a page watcher
// that records console errors and outside requests, and a "did it draw?" pixel check.
import fs from 'node:fs';
import { chromium } from 'playwright-core';

export const kChromium = process.env.SIZER_CHROMIUM || '/usr/bin/chromium';

// Flags from docs: SwiftShader gives WebGL2 without a GPU; the rest keeps Chromium off the network.
export function launchBrowser() {
  return chromium.launch({
    executablePath: kChromium,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync',
           '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
  });
}

// Opens a context whose requests are allowed only when `allow(url)` holds; others are aborted
// and listed in `watch.blocked`. `watch.errors` collects console errors and uncaught exceptions.
// `watch.close()` ends the page. `permissions` (e.g. clipboard-read) are granted for `origin`.
// With `shared`, the page comes from a pool of loaded pages with the same context options (see
// sharedPage): a test that needs no fresh context (no init script, routes, resized window, history
// or first-load checks) saves the context and renderer start-up.
export async function openPage(browser, { allow, viewport = { width: 1280, height: 800 }, deviceScaleFactor = 1, initScript,
                                          colorScheme = 'dark', hasTouch = false, permissions, origin, shared = false } = {}) {
  const options = { viewport, deviceScaleFactor, colorScheme, hasTouch, permissions, origin };
  if (shared && !initScript) return sharedPage(browser, allow, options);
  const context = await newContext(browser, options);
  const open = openContexts.get(browser) || new Set();
  openContexts.set(browser, open.add(context));
  const watch = { errors: [], blocked: [], context, allow, close: () => open.delete(context) && context.close() };
  await context.route('**/*', (route) => routeFor(watch, route));
  if (initScript) await context.addInitScript(initScript);
  const page = await context.newPage();
  listen(page, () => watch);
  return { page, watch };
}

const openContexts = new WeakMap();  // browser -> fresh contexts whose watch is not closed yet

async function newContext(browser, { viewport, deviceScaleFactor, colorScheme, hasTouch, permissions, origin }) {
  const context = await browser.newContext({ viewport, deviceScaleFactor, colorScheme, hasTouch });
  if (permissions) await context.grantPermissions(permissions, { origin });
  return context;
}

function routeFor(watch, route) {
  const url = route.request().url();
  if (watch && watch.allow(url)) return route.continue();
  if (watch) watch.blocked.push(url);
  return route.abort();
}

function listen(page, watchOf) {
  page.on('console', (m) => { if (m.type() === 'error' && watchOf()) watchOf().errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => { if (watchOf()) watchOf().errors.push(`pageerror: ${e.message}`); });
}

// Pages kept between tests, one per set of context options (at most kPoolSize, the least recently
// used closed first). When a test closes its watch the page leaves the app for about:blank (so an
// idle page draws nothing), with its storage cleared and the pointer back where a new page has it
// (0, 0); the next test then loads a new document. Messages of the old document reach no watch.
const pools = new WeakMap();
const kPoolSize = 8;

async function sharedPage(browser, allow, options) {
  const key = JSON.stringify(options);
  const pool = pools.get(browser) || new Map();
  pools.set(browser, pool);
  let entry = pool.get(key);
  if (entry && entry.watch) throw new Error('a shared page is still in use: close its watch first');
  pool.delete(key);  // re-inserted last: the most recently used
  if (!entry) {
    for (const [k, old] of pool) {
      if (pool.size < kPoolSize) break;
      if (old.watch) continue;
      pool.delete(k);
      await old.context.close();
    }
    entry = { watch: null, context: await newContext(browser, options) };
    await entry.context.route('**/*', (route) => routeFor(entry.watch, route));
    entry.page = await entry.context.newPage();
    listen(entry.page, () => entry.watch);
  }
  pool.set(key, entry);
  const close = async () => {
    entry.watch = null;
    await entry.page.mouse.move(0, 0);
    await entry.page.evaluate(() => { try { localStorage.clear(); sessionStorage.clear(); } catch { /* an opaque origin */ } });
    await entry.page.goto('about:blank');
  };
  const watch = { errors: [], blocked: [], context: entry.context, allow, close };
  entry.watch = watch;
  return { page: entry.page, watch };
}

// Closes the pages tests left open (a failed test's, in any state) and the shared ones.
export async function closeTestPages(browser) {
  const leftover = [...(openContexts.get(browser) || [])];
  openContexts.delete(browser);
  for (const context of leftover) await context.close().catch(() => {});
  const pool = pools.get(browser);
  pools.delete(browser);
  for (const entry of (pool || new Map()).values()) await entry.context.close().catch(() => {});
}

// Waits for the app's first frame (boot.js marks <html data-sizer="ready">), then until fonts and
// layout have settled: the published widget rectangles (window.sizerUi) unchanged over two frames.
export async function waitForFirstFrame(page, timeoutMs = 20000) {
  await page.waitForFunction(() => document.documentElement.dataset.sizer === 'ready', null,
                             { timeout: timeoutMs });
  await settled(page);
}

// Waits animation frames until window.sizerUi has stayed the same object for `still` frames (the
// app replaces it only when a rectangle moved), at most `max` frames.
export async function settled(page, still = 2, max = 30) {
  await page.evaluate(([still, max]) => new Promise((resolve) => {
    let last = window.sizerUi, same = 0, n = 0;
    const step = () => {
      n++;
      if (window.sizerUi === last) same++;
      else [same, last] = [0, window.sizerUi];
      if (same >= still || n >= max) resolve();
      else requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  }), [still, max]);
}

// The served app on a 390×844 phone with touch at device pixel ratio 2, after its first frame
// (`shared`: from the pool of loaded pages, for a test that leaves the window its size).
export async function openPhone(browser, origin, { shared = false } = {}) {
  const opened = await openPage(browser, { allow: (url) => url.startsWith(origin + '/'), shared,
                                           viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, hasTouch: true });
  await opened.page.goto(`${origin}/index.html`);
  await waitForFirstFrame(opened.page);
  return opened;
}

// A blank page, kept for the life of the browser, that reads screenshots (pixelPage(browser).evaluate).
const pixelPages = new WeakMap();
export function pixelPage(browser) {
  if (!pixelPages.has(browser)) pixelPages.set(browser, browser.newPage());
  return pixelPages.get(browser);
}

// A screenshot of the page's viewport (PNG, in device pixels), written to `file` when given:
// page.screenshot()'s picture. At device pixel ratio 1 it is taken through the DevTools protocol
// directly (the same pixels, without page.screenshot()'s round trips to the page for fonts and the
// text caret) and encoded for speed rather than size; at other ratios (a session of our own has no
// device metrics, so it would scale the picture) page.screenshot() takes it, leaving the caret
// alone: the app's only text input, the hidden one for phone keyboards, draws it transparent.
const sessions = new WeakMap();
export async function screenshot(page, file) {
  if (!sessions.has(page)) {
    sessions.set(page, page.evaluate(() => window.devicePixelRatio).then((dpr) => (dpr === 1 ? page.context().newCDPSession(page) : null)));
  }
  const cdp = await sessions.get(page);
  if (!cdp) return page.screenshot({ path: file, caret: 'initial' });
  const { cssVisualViewport: v } = await cdp.send('Page.getLayoutMetrics');
  const clip = { x: v.pageX, y: v.pageY, width: Math.ceil(v.clientWidth), height: Math.ceil(v.clientHeight), scale: v.scale };
  const { data } = await cdp.send('Page.captureScreenshot', { format: 'png', clip, optimizeForSpeed: true });
  const png = Buffer.from(data, 'base64');
  if (file) await fs.promises.writeFile(file, png);
  return png;
}

// Fraction of screenshot pixels that differ clearly from its most common colour. A blank or
// cleared canvas gives ~0; a drawn UI (text, frames, widgets) gives well above 0.005.
export async function drawnFraction(browser, png) {
  return (await pixelPage(browser)).evaluate(async (b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const g = new OffscreenCanvas(bmp.width, bmp.height).getContext('2d');
    g.drawImage(bmp, 0, 0);
    const d = g.getImageData(0, 0, bmp.width, bmp.height).data;
    const counts = new Map();
    for (let i = 0; i < d.length; i += 4) {
      const key = (d[i] << 16) | (d[i + 1] << 8) | d[i + 2];
      counts.set(key, (counts.get(key) || 0) + 1);
    }
    const bg = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
    let differing = 0;
    for (let i = 0; i < d.length; i += 4) {
      const dr = Math.abs(d[i] - ((bg >> 16) & 255));
      const dg = Math.abs(d[i + 1] - ((bg >> 8) & 255));
      const db = Math.abs(d[i + 2] - (bg & 255));
      if (Math.max(dr, dg, db) > 40) differing++;
    }
    return differing / (d.length / 4);
  }, png.toString('base64'));
}

// Waits for `n` animation frames of the page (the app draws one ImGui frame per animation frame).
export async function frames(page, n = 2) {
  await page.evaluate((count) => new Promise((resolve) => {
    let left = count;
    const step = () => (--left <= 0 ? resolve() : requestAnimationFrame(step));
    requestAnimationFrame(step);
  }), n);
}

// Screen rectangle (CSS px) of a named widget the app published in window.sizerUi:
// "tab:Training", "input:training.days", "button:theme", "radio:moe", ...
export async function widgetRect(page, name) {
  return (await widgetRects(page, [name]))[0];
}

// The rectangles of several named widgets, read at once; after `afterFrames` animation frames
// when given (the wait and the reading in one round trip to the page).
export async function widgetRects(page, names, afterFrames = 0) {
  const got = await page.evaluate(([names, count]) => new Promise((resolve) => {
    const read = () => resolve({ rects: names.map((n) => (window.sizerUi || {})[n] || null),
                                 have: Object.keys(window.sizerUi || {}) });
    let left = count;
    const step = () => (--left <= 0 ? read() : requestAnimationFrame(step));
    if (count > 0) requestAnimationFrame(step);
    else read();
  }), [names, afterFrames]);
  return got.rects.map((r, i) => {
    if (!r) throw new Error(`widget ${names[i]} not on screen; have: ${got.have.join(', ')}`);
    return { x: r[0], y: r[1], w: r[2], h: r[3] };
  });
}

// The text the app drew in a named widget's rectangle (note_text: a unit, a hint, a column header,
// a card's value), or undefined when it published none under that name.
export async function widgetText(page, name) {
  const r = await page.evaluate((n) => (window.sizerUi || {})[n], name);
  return r && r.length > 4 ? r[4] : undefined;
}

// A click with the mouse, or on a touch screen a tap, in the middle of a named widget.
export async function press(page, name, touch) {
  if (!touch) return clickWidget(page, name);
  const r = await widgetRect(page, name);
  await page.touchscreen.tap(r.x + r.w / 2, r.y + r.h / 2);
  await frames(page, 6);
}

// Types `text` into the field `name` as a person does: a click (or a tap on a touch screen), select
// all, type, Enter.
export async function typeInto(page, name, text, touch) {
  await press(page, name, touch);
  await page.keyboard.press('Control+A');
  await frames(page, 2);
  await page.keyboard.type(text, { delay: 30 });
  await page.keyboard.press('Enter');
  await frames(page, 4);
}

// Wheel notches of `delta` px, one after another as a person spins the wheel, towards a widget at
// `from` that should come within `top`..`bottom` (y, CSS px): one when it is near, more when it is
// far. Until a notch has been seen to scroll (`pace.px`, measurePace) they cover at most 0.6 of
// the distance; then as many as reach the widget, without passing it when the room is narrow.
async function wheelTowards(page, delta, from, top, bottom, pace) {
  const distance = from.y < top ? top - from.y : from.y + from.h - bottom;
  const room = bottom - top - from.h;
  const n = !pace.px ? Math.floor((0.6 * distance) / delta)
    : room >= pace.px ? Math.ceil(distance / pace.px) : Math.floor(distance / pace.px);
  pace.n = Math.max(1, Math.min(16, n));
  for (let k = 0; k < pace.n; k++) await page.mouse.wheel(0, from.y < top ? -delta : delta);
  pace.y = from.y;
}

// After wheelTowards: the distance one notch scrolled, from where the widget went.
function measurePace(pace, r) {
  const moved = Math.abs(r.y - pace.y) / pace.n;
  if (moved > 1) pace.px = moved;
}

// Scrolls the inputs panel (left, or on a phone above the results) with the wheel until `name`
// is inside it, as a person scrolls to a field. `size` is {name, viewport}.
export async function scrollInputs(page, name, size, tab = 'tab:Overview') {
  const names = [name, 'button:theme', tab, 'panel:inputs'];  // the panel: the inputs' visible area
  let [r, theme, tabs, panel] = await widgetRects(page, names);
  const pace = {};
  for (let i = 0; i < 60; i++) {
    const top = Math.max(theme.y + theme.h + 40, panel.y + 8);
    const bottom = Math.min(size.name === 'phone' ? tabs.y - 40 : size.viewport.height - 20, panel.y + panel.h - 8);
    if (r.y >= top && r.y + r.h <= bottom) return r;
    await page.mouse.move(Math.max(r.x + 4, 8), (top + bottom) / 2);
    await frames(page, 2);
    await wheelTowards(page, 120, r, top, bottom, pace);
    [r, theme, tabs, panel] = await widgetRects(page, names, 4);  // after 4 frames
    measurePace(pace, r);
  }
  throw new Error(`could not scroll the inputs to ${name}`);
}

// Moves the pointer over `points` ([x, y] in CSS px) in order, as a person sweeps it over a chart,
// until the tooltip on screen (window.sizerHover) passes `accept`; returns that text (or the last
// one read). Where it stops, the app has drawn `settle` frames with the pointer there before the
// text is read. A quick pass first moves the pointer through the points (a frame each) noting the
// tooltips the app shows on the way; the first point where an accepted one showed is then checked
// as above. Only when that pass finds none does the pointer visit every point the slow way.
export async function sweepHover(page, points, accept, settle = 2) {
  const check = async ([x, y]) => {
    await page.mouse.move(x, y);
    await frames(page, settle);
    return page.evaluate(() => window.sizerHover || '');
  };
  await page.evaluate(() => {
    const s = window.sizerSweep || (window.sizerSweep = {});
    if (!s.log) {  // notes each tooltip text the app publishes, with the pointer's position then
      let text = window.sizerHover;
      addEventListener('pointermove', (e) => { s.at = [e.clientX, e.clientY]; }, true);
      Object.defineProperty(window, 'sizerHover', { configurable: true, enumerable: true, get: () => text,
                                                    set: (v) => { text = v; if (v && s.at) s.log.push([v, s.at]); } });
    }
    s.log = [];
  });
  const nearest = (at) => {
    let best = -1, d = 2;  // CSS px
    points.forEach(([x, y], k) => { const e = Math.hypot(x - at[0], y - at[1]); if (e < d) [best, d] = [k, e]; });
    return best;
  };
  for (let i = 0; i < points.length; i += 6) {
    for (const [x, y] of points.slice(i, i + 6)) await page.mouse.move(x, y);
    const seen = await page.evaluate(() => window.sizerSweep.log.splice(0));
    for (const [text, at] of seen) {
      const k = accept(text) ? nearest(at) : -1;
      const tip = k >= 0 ? await check(points[k]) : '';
      if (tip && accept(tip)) return tip;
    }
  }
  let tip = '';
  for (const p of points) {
    tip = await check(p);
    if (accept(tip)) return tip;
  }
  return tip;
}

// A real mouse click in the middle of a named widget: move there, let ImGui see the hover for a
// few frames, then press and release in separate frames (as a person's click arrives).
export async function clickWidget(page, name) {
  const r = await widgetRect(page, name);
  await page.mouse.move(r.x + r.w / 2, r.y + r.h / 2);
  await frames(page, 3);
  await page.mouse.down();
  await frames(page, 2);
  await page.mouse.up();
  await frames(page, 3);
}

// Clicks a numeric field, selects its text with Ctrl+A, types `text` and presses Enter.
export async function typeIntoWidget(page, name, text) {
  await clickWidget(page, name);
  await page.keyboard.press('Control+A');
  await frames(page, 2);
  await page.keyboard.type(text, { delay: 30 });
  await page.keyboard.press('Enter');
  await frames(page, 4);
}

// Scrolls the view with the mouse wheel until the named widget lies inside the viewport (above
// the working pane at the bottom), as a person scrolls to a control before clicking it.
export async function scrollIntoView(page, name, viewport, tab = 'tab:Planner') {
  let last = null;
  let [r, tabs] = await widgetRects(page, [name, tab]);
  const pace = {};
  for (let i = 0; i < 40; i++) {
    // The view scrolls under the tabs (on a phone they sit under the inputs).
    const top = tabs.y + tabs.h + 12;
    const bottom = viewport.height - 60;
    if (r.y >= top && r.y + r.h <= bottom) return r;
    // At the end of the view the wheel moves nothing: the last items sit lower, still on screen.
    if (last && last.y === r.y && r.y >= top && r.y + r.h <= viewport.height - 8) return r;
    last = r;
    // The wheel over the view that holds the widget: just under the tabs, or just above the bottom.
    const x = Math.min(Math.max(r.x + 4, 4), viewport.width - 4);
    await page.mouse.move(x, r.y < top ? top + 30 : bottom - 10);
    await frames(page, 2);
    await wheelTowards(page, 150, r, top, bottom, pace);
    [r, tabs] = await widgetRects(page, [name, tab], 4);  // after 4 frames
    measurePace(pace, r);
  }
  throw new Error(`could not scroll ${name} into view: ${JSON.stringify(await widgetRect(page, name))}`);
}

// The text mirror under the canvas (#results-text, a document of headings, paragraphs, lists and
// tables) read as lines: one per heading, paragraph, list item ("  " first) and table body row; a
// two-column row reads "Result: value", a wider one its cells joined by " | ".
function mirrorLines() {
  const root = document.getElementById('results-text');
  if (!root) return '';
  const out = [];
  for (const n of root.children) {
    if (n.tagName === 'UL') for (const li of n.children) out.push('  ' + li.textContent);
    else if (n.tagName === 'TABLE') {
      for (const tr of n.querySelectorAll('tbody tr')) {
        const cells = [...tr.children].map((c) => c.textContent);
        out.push(cells.length === 2 ? `${cells[0]}: ${cells[1]}` : cells.join(' | '));
      }
    } else out.push(n.textContent);
  }
  return out.join('\n') + '\n';
}

// The results the app mirrors into the page, as lines (mirrorLines).
export function resultsText(page) {
  return page.evaluate(mirrorLines);
}

// Waits until `test(text)` holds for the mirror's lines and returns them; on a timeout the error
// names `what` and shows the text.
export async function untilText(page, test, what, timeout = 10000) {
  const end = Date.now() + timeout;
  let text = '';
  const nextFrame = `new Promise((resolve) => requestAnimationFrame(() => resolve((${mirrorLines})())))`;
  for (let first = true; ; first = false) {
    text = await (first ? resultsText(page) : page.evaluate(nextFrame));  // the app writes it in a frame
    if (test(text)) return text;
    if (Date.now() > end) throw new Error(`${what}: timed out; the results text is:\n${text}`);
  }
}

// Waits until a line of the results text matches `re` (multiline) and returns the text.
export function waitText(page, re, what, timeout = 30000) {
  const m = new RegExp(re.source, re.flags.includes('m') ? re.flags : re.flags + 'm');
  return untilText(page, (t) => m.test(t), `${what}: the results text never matched ${re}`, timeout);
}

export function assert(condition, message) {
  if (!condition) throw new Error(message);
}

export function assertClean(watch) {
  assert(watch.errors.length === 0, `console errors:\n  ${watch.errors.join('\n  ')}`);
  assert(watch.blocked.length === 0, `requests outside the allowed origin:\n  ${watch.blocked.join('\n  ')}`);
}

// The page's status message (#sizer-message) after the one numbered `serial`: its text, whether it
// is an error, and its serial number.
export async function messageAfter(page, serial) {
  await page.waitForFunction((s) => {
    const m = document.getElementById('sizer-message');
    return m && Number(m.dataset.serial) > s;
  }, serial, { timeout: 10000 });
  return page.evaluate(() => {
    const m = document.getElementById('sizer-message');
    return { text: m.textContent, error: m.dataset.error === 'true', serial: Number(m.dataset.serial) };
  });
}

// The serial number of the page's current status message (−1 before the first).
export const serialOf = (page) =>
  page.evaluate(() => Number((document.getElementById('sizer-message') || { dataset: {} }).dataset.serial || -1));

// Drops a file on the page, as dragging one from the desktop does.
export async function dropFile(page, name, text) {
  await page.evaluate(({ name, text }) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], name, { type: 'application/json' }));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, { name, text });
}
