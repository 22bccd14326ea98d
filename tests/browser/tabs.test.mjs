// The view tabs keep their labels readable on a narrow results column (issue 11 item 2/10): on a
// phone (390×844, touch) and on a 1280 px desktop at 150% zoom every tab is as wide as on a wide
// desktop, where ImGui's tab bar has room for all (it would squeeze them to "Trai…"), every tab is
// on screen, and a tap or click on one opens its view. Screenshots: tabs-phone.png, tabs-150.png.
import path from 'node:path';
import { assert, assertClean, frames, openPage, screenshot, waitForFirstFrame, widgetRect } from './lib.mjs';

const kTabs = ['Overview', 'Training', 'Serving', 'Communication', 'Reliability & cost', 'Compare chips', 'Charts', 'Planner'];

async function tabRects(browser, origin, viewport, deviceScaleFactor, hasTouch) {
  const opened = await openPage(browser, { allow: (url) => url.startsWith(origin + '/'), viewport, deviceScaleFactor, hasTouch,
                                           shared: true });
  await opened.page.goto(`${origin}/index.html`);
  await waitForFirstFrame(opened.page);
  const rects = [];
  for (const t of kTabs) rects.push(await widgetRect(opened.page, `tab:${t}`));
  return { ...opened, rects };
}

export const tests = [
  ['tabs: every view tab keeps its full label on a phone and at 150% zoom, and opens its view', async ({ browser, origin, shots }) => {
    const wide = await tabRects(browser, origin, { width: 1600, height: 900 }, 1, false);
    await wide.watch.close();
    for (const [name, viewport, scale, touch] of [['phone', { width: 390, height: 844 }, 2, true],
                                                  ['150', { width: 853, height: 533 }, 1.5, false]]) {
      const { page, watch, rects } = await tabRects(browser, origin, viewport, scale, touch);
      rects.forEach((r, i) => {
        assert(r.w >= wide.rects[i].w - 2, `${name}: tab ${kTabs[i]} is ${r.w.toFixed(1)} px wide, ${wide.rects[i].w.toFixed(1)} on a wide screen: its label is cut`);
        assert(r.x >= 0 && r.x + r.w <= viewport.width, `${name}: tab ${kTabs[i]} is off screen: ${JSON.stringify(r)}`);
        for (let j = 0; j < i; j++) {
          const q = rects[j];
          const overlap = r.x < q.x + q.w && q.x < r.x + r.w && r.y < q.y + q.h && q.y < r.y + r.h;
          assert(!overlap, `${name}: tabs ${kTabs[j]} and ${kTabs[i]} overlap`);
        }
      });
      // The last tab opens its view with a tap (phone) or a click.
      const p = rects[kTabs.length - 1];
      if (touch) await page.touchscreen.tap(p.x + p.w / 2, p.y + p.h / 2);
      else await page.mouse.click(p.x + p.w / 2, p.y + p.h / 2);
      await frames(page, 8);
      const ui = Object.keys(await page.evaluate(() => window.sizerUi || {}));
      assert(ui.some((k) => k.startsWith('value:plan.') || k.includes('planner')), `${name}: the Planner tab did not open its view: ${ui.filter((k) => !k.startsWith('input:')).join(', ')}`);
      await screenshot(page, path.join(shots, `tabs-${name}.png`));
      assertClean(watch);
      await watch.close();
    }
  }],
];
