// Touch screens (issue 11 item 2): one finger dragged over a panel scrolls it with the finger, 1:1,
// and on release the panel glides on and slows to a stop; a drag is never a tap (no field opens);
// a tap still opens a field; two fingers (a pinch) and a resized window leave the canvas working.
// Real touch events through CDP (Input.dispatchTouchEvent: touchStart, touchMove × n, touchEnd), as
// a finger sends them, at phone size (390×844, 2×, hasTouch).
import path from 'node:path';
import { assert, assertClean, frames, openPhone, screenshot, widgetRect } from './lib.mjs';

const kField = 'input:model.layers';  // in the inputs panel, above the results on a phone

const fieldY = async (page) => (await widgetRect(page, kField)).y;
const editing = (page) => page.evaluate(() => !!(window.sizerStats || {}).textInput);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A finger from (x, y) moved by dy in `steps` moves `pauseMs` apart, resting `restMs` before it
// lifts (0: a flick, lifted while moving). Each event carries the time the finger made it: this
// machine's software-rendered frames delay the dispatch of each event by a frame or more (the
// page reads the speed from the events' timeStamp, as a busy phone's does).
async function drag(page, cdp, x, y, dy, { steps = 10, pauseMs = 16, restMs = 0 } = {}) {
  let at = Date.now() / 1000;
  const touch = (type, points) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points, timestamp: at });
  await touch('touchStart', [{ x, y }]);
  for (let i = 1; i <= steps; i++) {
    at += pauseMs / 1000;
    await touch('touchMove', [{ x, y: y + (dy * i) / steps }]);
  }
  at += (restMs || pauseMs) / 1000;
  await sleep(Math.max(0, at * 1000 - Date.now()));
  await touch('touchEnd', []);
}

export const tests = [
  ['touch: a one-finger drag scrolls the inputs panel with the finger, glides on after a flick, and never taps (phone)',
   async ({ browser, origin, shots }) => {
    const { page, watch } = await openPhone(browser, origin, { shared: true });
    const cdp = await watch.context.newCDPSession(page);
    const f = await widgetRect(page, kField);
    const x = f.x + f.w / 2;  // the finger goes down on the field itself: a tap there would edit it
    // A slow drag up by 150 px, resting before the finger lifts: the panel follows, then stays.
    const y0 = await fieldY(page);
    await drag(page, cdp, x, f.y + f.h / 2, -150, { pauseMs: 40, restMs: 250 });
    await frames(page, 4);
    const y1 = await fieldY(page);
    assert(y1 < y0, `dragging up moved the panel the wrong way: ${y0} → ${y1}`);
    assert(Math.abs((y0 - y1) - 150) <= 20, `a 150 px drag scrolled ${(y0 - y1).toFixed(1)} px (want about 150)`);
    await sleep(500);
    const y1b = await fieldY(page);
    assert(Math.abs(y1b - y1) <= 2, `the panel glided after a finger that rested before lifting: ${y1} → ${y1b}`);
    assert(!(await editing(page)), 'the drag opened a field for editing (it counted as a tap)');
    await screenshot(page, path.join(shots, 'touch-drag-phone.png'));
    // And back down by 100 px.
    const back = await widgetRect(page, kField);
    await drag(page, cdp, x, Math.min(back.y + back.h / 2, 300), 100, { pauseMs: 40, restMs: 250 });
    await frames(page, 4);
    const y2 = await fieldY(page);
    assert(Math.abs((y2 - y1b) - 100) <= 20, `a 100 px drag down scrolled ${(y2 - y1b).toFixed(1)} px (want about 100)`);
    // A flick up: the panel keeps moving after the finger lifts, the finger's way, then stops.
    await drag(page, cdp, x, 300, -120, { steps: 6, pauseMs: 16 });
    await frames(page, 1);
    const yRelease = await fieldY(page);
    assert(yRelease < y2 - 60, `the flick itself did not scroll with the finger: ${y2} → ${yRelease}`);
    await sleep(600);
    const yGlide = await fieldY(page);
    assert(yGlide < yRelease - 30, `no glide after the flick: ${yRelease} at release, ${yGlide} 0.6 s later`);
    await sleep(2500);
    const yStop = await fieldY(page);
    await sleep(300);
    assert(Math.abs((await fieldY(page)) - yStop) <= 1, 'the glide had not stopped 3 s after the flick');
    assert(!(await editing(page)), 'the flick opened a field for editing');
    await screenshot(page, path.join(shots, 'touch-flick-phone.png'));
    // A tap still edits a field (the first tap included).
    const theme = await widgetRect(page, 'button:theme');
    for (let i = 0; i < 12 && (await fieldY(page)) < theme.y + theme.h + 40; i++) {  // drag the field back
      await drag(page, cdp, x, 250, 150, { pauseMs: 40, restMs: 250 });
      await frames(page, 4);
    }
    const r = await widgetRect(page, kField);
    await page.touchscreen.tap(r.x + r.w / 2, r.y + r.h / 2);
    await frames(page, 6);
    assert(await editing(page), `a tap on ${kField} did not open it for editing`);
    await page.keyboard.press('Escape');
    await frames(page, 4);
    assert(!(await editing(page)), 'Escape did not close the field');
    // A finger wobbles a little as it taps: a 3 px move is still a tap.
    await drag(page, cdp, r.x + r.w / 2, r.y + r.h / 2, 3, { steps: 2, pauseMs: 30 });
    await frames(page, 6);
    assert(await editing(page), `a tap that wobbled 3 px on ${kField} did not open it for editing`);
    assert(Math.abs((await fieldY(page)) - r.y) <= 1, 'a tap that wobbled 3 px scrolled the panel');
    assertClean(watch);
    await watch.close();
  }],

  ['touch: a two-finger pinch and a resized window leave the canvas drawing at the new size (phone)',
   async ({ browser, origin, shots }) => {
    const { page, watch } = await openPhone(browser, origin);
    const cdp = await watch.context.newCDPSession(page);
    const y0 = await fieldY(page);
    const touch = (type, points) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points });
    await touch('touchStart', [{ x: 150, y: 300, id: 1 }]);
    await touch('touchStart', [{ x: 150, y: 300, id: 1 }, { x: 250, y: 400, id: 2 }]);
    for (let i = 1; i <= 6; i++) {
      await sleep(16);
      await touch('touchMove', [{ x: 150 - 10 * i, y: 300 - 10 * i, id: 1 }, { x: 250 + 10 * i, y: 400 + 10 * i, id: 2 }]);
    }
    await touch('touchEnd', []);
    await frames(page, 6);
    assert(Math.abs((await fieldY(page)) - y0) <= 2, 'a pinch scrolled the panel');
    assert(!(await editing(page)), 'a pinch opened a field');
    await page.setViewportSize({ width: 600, height: 700 });
    await frames(page, 8);
    const size = await page.evaluate(() => { const c = document.getElementById('canvas'); return [c.width, c.height]; });
    assert(size[0] === 1200 && size[1] === 1400, `the canvas did not follow the window: ${size}`);
    await screenshot(page, path.join(shots, 'touch-after-pinch-resize.png'));
    assertClean(watch);
    await watch.close();
  }],
];
