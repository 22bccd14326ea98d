// Keyboard-only use from page load (issue 11 item 3): the canvas has the focus without a click;
// Tab and Shift+Tab walk through every field with a visible focus ring; Enter commits and Escape
// reverts a field; arrows, Space, Page keys, Home/End and Ctrl+A act inside the app and never
// scroll or select the page. Real key events only; screenshots at desktop, 150% zoom and HiDPI.
import path from 'node:path';
import { assert, assertClean, frames, openPage, resultsText, screenshot, waitForFirstFrame, widgetRect } from './lib.mjs';

const sameOrigin = (origin) => (url) => url.startsWith(origin + '/');

async function openApp(browser, origin, options = {}) {
  const opened = await openPage(browser, { allow: sameOrigin(origin), viewport: { width: 1440, height: 900 }, shared: true,
                                                ...options });
  await opened.page.goto(`${origin}/index.html`);
  await waitForFirstFrame(opened.page);
  return opened;
}

// The field with the keyboard focus ("training.days"), whether its text is being edited, or null;
// read after `afterFrames` animation frames (the wait and the reading in one round trip).
async function focus(page, afterFrames = 0) {
  const ui = await page.evaluate((count) => new Promise((resolve) => {
    let left = count;
    const step = () => (--left <= 0 ? resolve(window.sizerUi || {}) : requestAnimationFrame(step));
    if (count > 0) requestAnimationFrame(step);
    else resolve(window.sizerUi || {});
  }), afterFrames);
  const name = Object.keys(ui).find((k) => k.startsWith('focus:'));
  return name ? { path: name.slice(6), editing: `editing:${name.slice(6)}` in ui } : null;
}

// A quick key tap (down and up at once): the app keeps it down for one frame (main.cpp), so ImGui
// 1.86, which reads key state once a frame, sees it exactly once, even when frames are slow.
async function press(page, key) {
  await page.keyboard.press(key);
  await frames(page, 3);
}

// press(), then the focus after its three frames.
async function pressThenFocus(page, key) {
  await page.keyboard.press(key);
  return focus(page, 3);
}

// Presses Tab until `path` has the focus; returns false when a full round never reaches it.
async function tabTo(page, path) {
  let f = await focus(page);
  for (let i = 0; i < 40; ++i) {
    if (f && f.path === path && f.editing) return true;
    f = await pressThenFocus(page, 'Tab');
  }
  return false;
}

// How many pixels differ clearly between two screenshots of the same size.
async function pixelsDiffering(page, a, b) {
  return page.evaluate(async ([x, y]) => {
    const read = async (b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const g = new OffscreenCanvas(bmp.width, bmp.height).getContext('2d');
      g.drawImage(bmp, 0, 0);
      return g.getImageData(0, 0, bmp.width, bmp.height).data;
    };
    const [p, q] = [await read(x), await read(y)];
    let n = 0;
    for (let i = 0; i < p.length; i += 4) {
      if (Math.max(Math.abs(p[i] - q[i]), Math.abs(p[i + 1] - q[i + 1]), Math.abs(p[i + 2] - q[i + 2])) > 60) n++;
    }
    return n;
  }, [a.toString('base64'), b.toString('base64')]);
}

const pageState = (page) => page.evaluate(() => ({
  scrollY: window.scrollY, scrollX: window.scrollX, selection: String(window.getSelection()),
  active: document.activeElement && document.activeElement.id,
}));

export const tests = [
  ['keyboard from page load: Tab and Shift+Tab reach every field with a visible focus ring', async ({ browser, origin, shots }) => {
    const { page, watch } = await openApp(browser, origin);
    assert((await pageState(page)).active === 'canvas', `the canvas does not have the focus on load: ${(await pageState(page)).active}`);
    const fields = Object.keys(await page.evaluate(() => window.sizerUi)).filter((k) => k.startsWith('input:')).map((k) => k.slice(6));
    assert(fields.length >= 8, `too few input fields published: ${fields}`);
    // Tab through a full round; every field of the inputs panel comes up, each being edited.
    const order = [];
    for (let i = 0; i < 60; ++i) {
      const f = await pressThenFocus(page, 'Tab');
      assert(f, `Tab number ${i + 1} left no field with the focus (after ${order.join(', ')})`);
      if (order.length && f.path === order[0]) break;
      assert(f.editing, `Tab focused ${f.path} without making it editable`);
      order.push(f.path);
    }
    const missed = fields.filter((p) => !order.includes(p));
    assert(missed.length === 0, `Tab never reached: ${missed.join(', ')} (order: ${order.join(', ')})`);
    // Shift+Tab goes back one field (we are on order[0] again: back to the last one).
    const back = await pressThenFocus(page, 'Shift+Tab');
    assert(back.path === order[order.length - 1], `Shift+Tab from ${order[0]} went to ${back.path}`);
    assert((await pressThenFocus(page, 'Shift+Tab')).path === order[order.length - 2], 'a second Shift+Tab did not go back one more field');
    // The focus ring is visible: the first field looks clearly different with and without the focus.
    assert(await tabTo(page, order[0]), `could not Tab back to ${order[0]}`);
    const r = await widgetRect(page, `input:${order[0]}`);
    const clip = { x: r.x - 4, y: r.y - 4, width: r.w + 8, height: r.h + 8 };
    const focused = await page.screenshot({ clip });
    await screenshot(page, path.join(shots, 'keyboard-focus.png'));
    await press(page, 'Tab');
    const unfocused = await page.screenshot({ clip });
    const ring = await pixelsDiffering(page, focused, unfocused);
    assert(ring >= r.w + r.h, `no visible focus ring on ${order[0]}: ${ring} pixels differ`);
    const s = await pageState(page);
    assert(s.scrollY === 0 && s.selection === '', `Tab moved or selected the page: ${JSON.stringify(s)}`);
    assertClean(watch);
    await watch.close();
  }],

  ['keyboard: Enter commits, Escape reverts, and app keys never scroll or select the page', async ({ browser, origin, shots }) => {
    const { page, watch } = await openApp(browser, origin);
    assert(await tabTo(page, 'training.days'), 'Tab never reached the schedule field');
    await press(page, 'Control+A');
    await page.keyboard.type('45', { delay: 30 });
    await press(page, 'Enter');
    await page.waitForFunction(() => /Devices for 45 days/.test(document.getElementById('results-text').textContent), null, { timeout: 5000 });
    assert(!(await focus(page)) || !(await focus(page)).editing, 'Enter did not end editing');
    // Escape throws away what was typed: the field and the results go back to 45 days.
    assert(await tabTo(page, 'training.days'), 'Tab did not come back to the schedule field');
    await press(page, 'Control+A');
    await page.keyboard.type('7', { delay: 30 });
    await frames(page, 3);
    await press(page, 'Escape');
    await page.waitForFunction(() => /Devices for 45 days/.test(document.getElementById('results-text').textContent), null, { timeout: 5000 });
    await frames(page, 4);
    assert(/Devices for 45 days/.test(await resultsText(page)), `Escape did not revert the field:\n${await resultsText(page)}`);
    assert(!(await focus(page)) || !(await focus(page)).editing, 'Escape did not end editing');
    // Keys that scroll or select a page act inside the app instead, editing or not.
    const before = await pageState(page);
    for (const key of ['ArrowDown', 'ArrowDown', 'PageDown', 'End', 'ArrowUp', 'Control+A']) await press(page, key);
    assert(await tabTo(page, 'training.days'), 'Tab did not reach the schedule field again');
    for (const key of ['Space', 'ArrowRight', 'PageDown', 'End', 'Home', 'Control+A']) await press(page, key);
    await press(page, 'Escape');
    const after = await pageState(page);
    assert(after.scrollY === before.scrollY && after.scrollY === 0, `the page scrolled: ${before.scrollY} → ${after.scrollY}`);
    assert(after.selection === '', `the page's text got selected: "${after.selection.slice(0, 60)}"`);
    assert(after.active === 'canvas', `the canvas lost the focus: ${after.active}`);
    assert(/Devices for 45 days/.test(await resultsText(page)), 'keys typed then reverted changed the results');
    await screenshot(page, path.join(shots, 'keyboard-after.png'));
    assertClean(watch);
    await watch.close();
  }],

  ['keyboard: keys typed faster than a frame, Enter among them, all reach the field', async ({ browser, origin }) => {
    // On a slow frame the last digit and Enter arrive together: the digit must still count. The
    // page's thread is held busy while the keys are sent, so they all land before the next frame.
    const { page, watch } = await openApp(browser, origin);
    assert(await tabTo(page, 'training.days'), 'Tab never reached the schedule field');
    await press(page, 'Control+A');
    const cdp = await watch.context.newCDPSession(page);
    const key = (type, k, code, keyCode, text) =>
      cdp.send('Input.dispatchKeyEvent', { type, key: k, code, windowsVirtualKeyCode: keyCode, text });
    const busy = page.evaluate(() => { const t = performance.now(); while (performance.now() - t < 300); });
    const sent = [];
    for (const d of '365') sent.push(key('keyDown', d, `Digit${d}`, d.charCodeAt(0), d), key('keyUp', d, `Digit${d}`, d.charCodeAt(0)));
    sent.push(key('keyDown', 'Enter', 'Enter', 13, '\r'), key('keyUp', 'Enter', 'Enter', 13));
    await Promise.all([busy, ...sent]);
    await page.waitForFunction(() => /Devices for 365 days/.test(document.getElementById('results-text').textContent), null, { timeout: 5000 })
      .catch(async () => { throw new Error(`365 typed with Enter in one frame did not apply:\n${await resultsText(page)}`); });
    assert(!(await focus(page)) || !(await focus(page)).editing, 'Enter did not end editing');
    assertClean(watch);
    await watch.close();
  }],

  ['keyboard focus ring at 150% zoom and on a HiDPI screen (screenshots)', async ({ browser, origin, shots }) => {
    for (const [scale, viewport, file] of [[1.5, { width: 960, height: 600 }, 'keyboard-focus-150.png'],
                                           [2, { width: 1280, height: 800 }, 'keyboard-focus-dpr2.png']]) {
      const { page, watch } = await openApp(browser, origin, { deviceScaleFactor: scale, viewport });
      assert(await tabTo(page, 'training.days'), `Tab never reached the schedule field at scale ${scale}`);
      await screenshot(page, path.join(shots, file));
      assertClean(watch);
      await watch.close();
    }
  }],
];
