// The calculator UI driven like a person would: real mouse and keyboard events on the canvas
// change the scenario, and the results mirrored into the page as text follow; invalid input is
// reported and the last valid results stay; every main view draws, and screenshots of each are
// written for people to look at (BUILD/screenshots/).
import path from 'node:path';
import { assert, assertClean, clickWidget, drawnFraction, frames, openPage, resultsText, screenshot, typeIntoWidget,
         waitForFirstFrame, widgetRect } from './lib.mjs';

const sameOrigin = (origin) => (url) => url.startsWith(origin + '/');
const kViewport = { width: 1440, height: 900 };

async function openApp(browser, origin, options = {}) {
  const opened = await openPage(browser, { allow: sameOrigin(origin), viewport: kViewport, shared: true, ...options });
  await opened.page.goto(`${origin}/index.html`);
  await waitForFirstFrame(opened.page);
  return opened;
}

export const tests = [
  ['typing a new schedule with the keyboard changes the mirrored results', async ({ browser, origin, shots }) => {
    const { page, watch } = await openApp(browser, origin);
    const before = await resultsText(page);
    assert(/Devices for 90 days: 12,471 to 18,050/.test(before), `unexpected default results:\n${before}`);
    await typeIntoWidget(page, 'input:training.days', '45');
    await page.waitForFunction(() => /Devices for 45 days/.test(document.getElementById('results-text').textContent),
                               null, { timeout: 5000 });
    const after = await resultsText(page);
    assert(/Devices for 45 days: 24,9\d\d to 36,\d\d\d/.test(after), `schedule change not reflected:\n${after}`);
    await screenshot(page, path.join(shots, 'edited-days.png'));
    assertClean(watch);
    await watch.close();
  }],

  ['the page shows what renting the recommended cluster costs, and says when a chip has no public price',
   async ({ browser, origin, shots }) => {
    // Issue 8 item 7: the seed's useful-hours cost ($257M to $371M) and the cluster as recommended
    // (12,471 to 18,050 GPUs × 90 days × 24 h × $10.582 = $285M to $413M), both labelled.
    const { page, watch } = await openApp(browser, origin);
    const text = await resultsText(page);
    assert(/Training cost for the useful device-hours: \$257M to \$371M/.test(text), `useful-hours cost missing:\n${text}`);
    assert(/Cost of renting the recommended cluster for 90 days: \$285M to \$413M/.test(text),
           `cluster cost missing:\n${text}`);
    assertClean(watch);
    await watch.close();
    // Data: the H800 has no public price; the page says so instead of a blank.
    const scenario = Buffer.from('{"model": "dense-1t", "device": "h800"}', 'utf8').toString('base64url');
    const h800 = await openApp(browser, origin, {});
    await h800.page.goto(`${origin}/index.html#s1.${scenario}`);
    await h800.page.waitForFunction(() => /H800/.test(document.getElementById('results-text').textContent), null,
                                    { timeout: 5000 });
    const t2 = await resultsText(h800.page);
    assert(/Training cost for the useful device-hours: no public price/.test(t2), `no-public-price note missing:\n${t2}`);
    await screenshot(h800.page, path.join(shots, 'h800-no-price.png'));
    assertClean(h800.watch);
    await h800.watch.close();
  }],

  ['the mouse wheel and a trackpad scroll a panel the right way, by the right distance', async ({ browser, origin, shots }) => {
    // Emscripten 3.1.6's GLFW passed raw DOM deltas to ImGui: one 100 px notch scrolled ~100
    // "lines" the wrong way and every panel jumped to its end (issue 11 item 1).
    const { page, watch } = await openApp(browser, origin);
    const field = 'input:training.days';
    const y0 = (await widgetRect(page, field)).y;
    const panel = await widgetRect(page, 'input:model.layers');
    await page.mouse.move(panel.x + panel.w / 2, panel.y);
    await frames(page, 3);
    await page.mouse.wheel(0, 100);  // one notch down, in pixels (deltaMode 0)
    await frames(page, 4);
    const y1 = (await widgetRect(page, field)).y;
    assert(y1 < y0, `a notch down moved the content the wrong way: ${y0} → ${y1}`);
    assert(y0 - y1 >= 50 && y0 - y1 <= 150, `a 100 px notch scrolled ${(y0 - y1).toFixed(1)} px (want about 100)`);
    // A trackpad: many small pixel deltas add up smoothly to the same distance.
    for (let i = 0; i < 10; ++i) await page.mouse.wheel(0, 10);
    await frames(page, 4);
    const y2 = (await widgetRect(page, field)).y;
    assert(y1 - y2 >= 50 && y1 - y2 <= 150, `ten 10 px trackpad steps scrolled ${(y1 - y2).toFixed(1)} px (want about 100)`);
    // And back up.
    await page.mouse.wheel(0, -200);
    await frames(page, 4);
    const y3 = (await widgetRect(page, field)).y;
    assert(Math.abs(y3 - y0) <= 40, `scrolling back up did not return near the start: ${y0} → ${y3}`);
    await screenshot(page, path.join(shots, 'wheel.png'));
    // Shift + a vertical notch scrolls a sideways-scrolling panel (the Compare table) to the right,
    // by about the notch's distance: the columns move left under the pointer.
    await clickWidget(page, 'tab:Compare chips');
    await page.waitForFunction(() => (window.sizerUi || {})['header:compare:3'], null, { timeout: 10000 });
    const col = 'header:compare:3';  // column 0 stays frozen; 3 scrolls with the table
    const x0 = (await widgetRect(page, col)).x;
    const table = await widgetRect(page, 'header:compare:0');
    await page.mouse.move(table.x + 300, table.y + 120);
    await frames(page, 3);
    await page.keyboard.down('Shift');
    await frames(page, 2);
    await page.mouse.wheel(0, 120);
    await frames(page, 4);
    await page.keyboard.up('Shift');
    await frames(page, 2);
    const x1 = (await widgetRect(page, col)).x;
    assert(x1 < x0, `Shift + a notch down did not scroll the table to the right: column at ${x0} → ${x1}`);
    assert(x0 - x1 >= 70 && x0 - x1 <= 170, `Shift + a 120 px notch scrolled ${(x0 - x1).toFixed(1)} px sideways (want about 120)`);
    // Without Shift the same notch scrolls down, not sideways.
    await page.mouse.wheel(0, 120);
    await frames(page, 4);
    const x2 = (await widgetRect(page, col)).x;
    assert(Math.abs(x2 - x1) < 2, `a notch without Shift moved the table sideways: ${x1} → ${x2}`);
    await screenshot(page, path.join(shots, 'wheel-shift-compare.png'));
    assertClean(watch);
    await watch.close();
  }],

  ['invalid input is reported next to the field and the last results stay', async ({ browser, origin, shots }) => {
    const { page, watch } = await openApp(browser, origin);
    await typeIntoWidget(page, 'input:training.goodput', '-5');
    await page.waitForFunction(() => /problem/.test(document.getElementById('results-text').textContent), null,
                               { timeout: 5000 });
    const text = await resultsText(page);
    assert(/training\.goodput: /.test(text), `issue not named by its path:\n${text}`);
    assert(/Devices for 90 days: 12,471 to 18,050/.test(text), `last valid results not kept:\n${text}`);
    await screenshot(page, path.join(shots, 'invalid-input.png'));
    assertClean(watch);
    await watch.close();
  }],

  ['clicking "Mixture of experts" with the mouse changes the model and results', async ({ browser, origin }) => {
    const { page, watch } = await openApp(browser, origin);
    const before = await resultsText(page);
    await clickWidget(page, 'radio:moe');
    await page.waitForFunction((b) => document.getElementById('results-text').textContent !== b, before,
                               { timeout: 5000 });
    const r = await widgetRect(page, 'input:model.moe.experts');  // MoE fields appear
    assert(r.w > 0, 'no experts field after switching to MoE');
    assertClean(watch);
    await watch.close();
  }],

  ['every view draws; screenshots of overview, training, serving, communication, compare, charts',
   async ({ browser, origin, shots }) => {
    const { page, watch } = await openApp(browser, origin);
    await screenshot(page, path.join(shots, 'overview.png'));
    const views = [['Training', 'training'], ['Serving', 'serving'], ['Communication', 'communication'],
                   ['Compare chips', 'compare'], ['Charts', 'charts']];
    for (const [tab, file] of views) {
      await clickWidget(page, `tab:${tab}`);
      await frames(page, 4);
      const png = await screenshot(page, path.join(shots, `${file}.png`));
      const drawn = await drawnFraction(browser, png);
      assert(drawn > 0.02, `${tab} view looks empty (${(drawn * 100).toFixed(2)}% drawn pixels)`);
    }
    assertClean(watch);
    await watch.close();
  }],

  ['hovering a number shows its working; the theme button switches to light', async ({ browser, origin, shots }) => {
    const { page, watch } = await openApp(browser, origin);
    await clickWidget(page, 'tab:Training');
    const r = await widgetRect(page, 'value:training.memory.state_bytes');
    await page.mouse.move(r.x + r.w / 2, r.y + r.h / 2);
    await frames(page, 6);
    await screenshot(page, path.join(shots, 'working-tooltip.png'));
    await clickWidget(page, 'value:training.memory.state_bytes');  // pins the working
    await clickWidget(page, 'tab:Overview');
    await clickWidget(page, 'button:theme');
    await page.mouse.move(5, 5);
    await frames(page, 4);
    const png = await screenshot(page, path.join(shots, 'overview-light.png'));
    const bg = await page.evaluate(async (b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const g = new OffscreenCanvas(bmp.width, bmp.height).getContext('2d');
      g.drawImage(bmp, 0, 0);
      return Array.from(g.getImageData(bmp.width - 4, bmp.height - 4, 1, 1).data);
    }, png.toString('base64'));
    assert(bg[0] > 200 && bg[1] > 200 && bg[2] > 200, `light theme background is not light: ${bg}`);
    await clickWidget(page, 'tab:Charts');
    await page.mouse.move(5, 5);
    await frames(page, 4);
    await screenshot(page, path.join(shots, 'charts-light.png'));
    assertClean(watch);
    await watch.close();
  }],
];
