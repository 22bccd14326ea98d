// Touch screens, continued (issue 11 item 2): a long press (a finger held still for half a second)
// on a number opens its working tooltip, which stays readable after the finger lifts until the
// next tap elsewhere, and is no tap (nothing gets pinned); a drag that then rests is no long press;
// a one-finger sideways drag scrolls a table that is wider than a phone. Real touch events through
// CDP (Input.dispatchTouchEvent) at phone size (390×844, 2×, hasTouch).
import path from 'node:path';
import { assert, assertClean, frames, openPhone, screenshot, widgetRect } from './lib.mjs';

const kPhone = { width: 390, height: 844 };
const kValue = 'value:training.memory.state_bytes';
const kPath = 'training.memory.state_bytes';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const hover = (page) => page.evaluate(() => window.sizerHover || '');
const pinned = (page) => page.evaluate(() => 'button:working-close' in (window.sizerUi || {}));
const tap = async (page, r) => { await page.touchscreen.tap(r.x + r.w / 2, r.y + r.h / 2); await frames(page, 6); };

// One finger along `points` ([x, y] in CSS px), `pauseMs` apart, resting `restMs` before it lifts;
// each event carries the time the finger made it (touch.test.mjs explains why).
async function finger(cdp, points, { pauseMs = 30, restMs = 0 } = {}) {
  let at = Date.now() / 1000;
  const send = (type, pts) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: pts, timestamp: at });
  await send('touchStart', [{ x: points[0][0], y: points[0][1] }]);
  for (const [x, y] of points.slice(1)) {
    at += pauseMs / 1000;
    await send('touchMove', [{ x, y }]);
  }
  at += (restMs || pauseMs) / 1000;
  await sleep(Math.max(0, at * 1000 - Date.now()));
  await send('touchEnd', []);
}

// Drags the results view with a finger until the widget lies in it, under the tabs.
async function dragIntoView(page, cdp, name, tab) {
  for (let i = 0; i < 20; i++) {
    const r = await widgetRect(page, name);
    const tabs = await widgetRect(page, tab);
    const top = tabs.y + tabs.h + 20, bottom = kPhone.height - 140;
    if (r.y >= top && r.y + r.h <= bottom) return r;
    const dy = Math.max(-150, Math.min(150, (top + bottom) / 2 - r.y));
    const y = dy < 0 ? bottom - 10 : top + 10;
    await finger(cdp, [0, 1, 2, 3, 4, 5].map((k) => [30, y + (dy * k) / 5]), { pauseMs: 40, restMs: 250 });
    await frames(page, 4);
  }
  throw new Error(`could not drag ${name} into view`);
}

// The phone app on its Training view with kValue dragged into view; its centre in CSS pixels.
async function trainingValueOnPhone(browser, origin) {
  const { page, watch } = await openPhone(browser, origin, { shared: true });
  const cdp = await watch.context.newCDPSession(page);
  await tap(page, await widgetRect(page, 'tab:Training'));
  await page.waitForFunction((n) => n in (window.sizerUi || {}), kValue, { timeout: 10000 });
  const r = await dragIntoView(page, cdp, kValue, 'tab:Training');
  return { page, watch, cdp, x: r.x + r.w / 2, y: r.y + r.h / 2 };
}

export const tests = [
  ['touch: a long press on a number opens its working, which stays until the next tap, and pins nothing (phone)',
   async ({ browser, origin, shots }) => {
    const { page, watch, cdp, x, y } = await trainingValueOnPhone(browser, origin);
    assert(!(await hover(page)).includes(kPath), 'the working was showing before any long press');
    // The finger goes down and stays: after half a second the working shows while it is still down.
    let at = Date.now() / 1000;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }], timestamp: at });
    await sleep(700);
    await frames(page, 4);
    const held = await hover(page);
    assert(held.includes(kPath) && /Source:/.test(held), `no working tooltip while the finger is held: "${held}"`);
    at += 0.8;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [], timestamp: at });
    await frames(page, 8);
    await sleep(400);
    await frames(page, 4);
    assert((await hover(page)).includes(kPath), `the working closed when the finger lifted: "${await hover(page)}"`);
    assert(!(await pinned(page)), 'the long press also counted as a tap: it pinned the working');
    await screenshot(page, path.join(shots, 'touch-long-press-phone.png'));
    // The next tap elsewhere closes it.
    await tap(page, await widgetRect(page, 'tab:Training'));
    assert(!(await hover(page)).includes(kPath), `the working stayed after a tap elsewhere: "${await hover(page)}"`);
    // A plain tap on the same number is a tap: it pins the working (what the long press must not do).
    await tap(page, await widgetRect(page, kValue));
    assert(await pinned(page), 'a tap on the number did not pin its working');
    assertClean(watch);
    await watch.close();
  }],

  ['touch: a drag that rests before lifting is no long press, and no tap (phone)', async ({ browser, origin }) => {
    const { page, watch, cdp, x, y } = await trainingValueOnPhone(browser, origin);
    // Down on the number, 40 px up within 0.1 s, then held still for 0.8 s before lifting.
    await finger(cdp, [[x, y], [x, y - 10], [x, y - 20], [x, y - 30], [x, y - 40]], { pauseMs: 25, restMs: 800 });
    await frames(page, 8);
    assert(!(await page.evaluate(() => Module.sizerLongPress)), 'the drag turned into a long press');
    assert(!(await pinned(page)), 'the drag pinned a working (it counted as a tap)');
    assert(!(await hover(page)).includes(kPath), 'the drag opened the working tooltip of the number it started on');
    assertClean(watch);
    await watch.close();
  }],

  ['touch: a one-finger sideways drag scrolls the Compare table with the finger (phone)', async ({ browser, origin, shots }) => {
    const { page, watch } = await openPhone(browser, origin, { shared: true });
    const cdp = await watch.context.newCDPSession(page);
    await tap(page, await widgetRect(page, 'tab:Compare chips'));
    await page.waitForFunction(() => (window.sizerUi || {})['header:compare:3'], null, { timeout: 10000 });
    const col = 'header:compare:3';  // column 0 stays frozen; the others scroll with the table
    const x0 = (await widgetRect(page, col)).x;
    const table = await widgetRect(page, 'header:compare:0');
    const y = table.y + 90;
    // 150 px to the left, slowly, resting before the finger lifts: the columns follow it left.
    await finger(cdp, [0, 1, 2, 3, 4, 5, 6].map((k) => [300 - 25 * k, y]), { pauseMs: 40, restMs: 250 });
    await frames(page, 6);
    const x1 = (await widgetRect(page, col)).x;
    assert(x1 < x0, `a drag to the left did not scroll the table: column at ${x0} → ${x1}`);
    assert(Math.abs((x0 - x1) - 150) <= 20, `a 150 px sideways drag scrolled ${(x0 - x1).toFixed(1)} px (want about 150)`);
    assert(Math.abs((await widgetRect(page, 'header:compare:0')).y - table.y) <= 2, 'the sideways drag scrolled the table down');
    await screenshot(page, path.join(shots, 'touch-drag-sideways-phone.png'));
    // And back to the right by 100 px.
    await finger(cdp, [0, 1, 2, 3, 4].map((k) => [100 + 25 * k, y]), { pauseMs: 40, restMs: 250 });
    await frames(page, 6);
    const x2 = (await widgetRect(page, col)).x;
    assert(Math.abs((x2 - x1) - 100) <= 20, `a 100 px drag to the right scrolled ${(x2 - x1).toFixed(1)} px (want about 100)`);
    assertClean(watch);
    await watch.close();
  }],
];
