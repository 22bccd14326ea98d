// Shared helpers of the browser tests: Debian's Chromium through playwright-core, a page watcher
// that records console errors and outside requests, and a "did it draw?" pixel check.
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
export async function openPage(browser, { allow, viewport = { width: 1280, height: 800 },
                                          deviceScaleFactor = 1, initScript, colorScheme = 'dark', hasTouch = false } = {}) {
  const context = await browser.newContext({ viewport, deviceScaleFactor, colorScheme, hasTouch });
  const watch = { errors: [], blocked: [], context };
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (allow(url)) return route.continue();
    watch.blocked.push(url);
    return route.abort();
  });
  if (initScript) await context.addInitScript(initScript);
  const page = await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error') watch.errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => watch.errors.push(`pageerror: ${e.message}`));
  return { page, watch };
}

// Waits for the app's first frame (boot.js marks <html data-sizer="ready">).
export async function waitForFirstFrame(page, timeoutMs = 20000) {
  await page.waitForFunction(() => document.documentElement.dataset.sizer === 'ready', null,
                             { timeout: timeoutMs });
  await page.waitForTimeout(300);  // a few more frames, so fonts and layout have settled
}

// The served app on a 390×844 phone with touch at device pixel ratio 2, after its first frame.
export async function openPhone(browser, origin) {
  const opened = await openPage(browser, { allow: (url) => url.startsWith(origin + '/'),
                                           viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, hasTouch: true });
  await opened.page.goto(`${origin}/index.html`);
  await waitForFirstFrame(opened.page);
  return opened;
}

// Fraction of screenshot pixels that differ clearly from its most common colour. A blank or
// cleared canvas gives ~0; a drawn UI (text, frames, widgets) gives well above 0.005.
export async function drawnFraction(browser, png) {
  const page = await browser.newPage();
  try {
    return await page.evaluate(async (b64) => {
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
  } finally {
    await page.close();
  }
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
  const r = await page.evaluate((n) => (window.sizerUi || {})[n], name);
  if (!r) throw new Error(`widget ${name} not on screen; have: ${Object.keys(await page.evaluate(() => window.sizerUi || {})).join(', ')}`);
  return { x: r[0], y: r[1], w: r[2], h: r[3] };
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

// Scrolls the inputs panel (left, or on a phone above the results) with the wheel until `name`
// is inside it, as a person scrolls to a field. `size` is {name, viewport}.
export async function scrollInputs(page, name, size, tab = 'tab:Overview') {
  for (let i = 0; i < 60; i++) {
    const r = await widgetRect(page, name);
    const theme = await widgetRect(page, 'button:theme');
    const tabs = await widgetRect(page, tab);
    const panel = await widgetRect(page, 'panel:inputs');  // the inputs panel's visible area
    const top = Math.max(theme.y + theme.h + 40, panel.y + 8);
    const bottom = Math.min(size.name === 'phone' ? tabs.y - 40 : size.viewport.height - 20, panel.y + panel.h - 8);
    if (r.y >= top && r.y + r.h <= bottom) return r;
    await page.mouse.move(Math.max(r.x + 4, 8), (top + bottom) / 2);
    await frames(page, 2);
    await page.mouse.wheel(0, r.y < top ? -120 : 120);
    await frames(page, 4);
  }
  throw new Error(`could not scroll the inputs to ${name}`);
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
  for (let i = 0; i < 40; i++) {
    // The view scrolls under the tabs (on a phone they sit under the inputs).
    const r = await widgetRect(page, name);
    const tabs = await widgetRect(page, tab);
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
    await page.mouse.wheel(0, r.y < top ? -150 : 150);
    await frames(page, 4);
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
  for (;;) {
    text = await resultsText(page);
    if (test(text)) return text;
    if (Date.now() > end) throw new Error(`${what}: timed out; the results text is:\n${text}`);
    await page.waitForTimeout(40);
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
