// Labels are never cut or run under their inputs at 100–200% zoom, at 1280–2560 px widths and on a
// phone (issue 11 item 10), and wrapped text never splits a number across lines.
// - Every field label (rect "label:<label>", with its "(?)") stays clear of every input, combo and
//   radio button and inside the page; a label too long for its column wraps inside it.
// - The "Kind" radio buttons stay inside the inputs panel (the second goes under the first when
//   the row has no room), the scenario line over the views stays inside the page, and every
//   overview card holds its text (a row is as tall as its tallest card needs).
// - ImGui's word wrap (window.sizerWrapLines, wrap_probe.h) never ends a line with "1." or "12,"
//   when the next begins with a digit, at every width from 72 to 420 CSS px (wide enough for any
//   one number), while it still wraps.
// Screenshots: labels-150.png, labels-200.png, labels-phone.png.
import path from 'node:path';
import { assert, assertClean, openPage, screenshot, waitForFirstFrame, widgetText } from './lib.mjs';

// [name, CSS viewport, device pixel ratio, touch]: a 1280, 1920 and 2560 px screen at 100%, 150%
// and 200% browser zoom (zoom shrinks the CSS viewport and raises the pixel ratio), and a phone.
const kScreens = [
  ['1280', { width: 1280, height: 800 }, 1, false],
  ['1920', { width: 1920, height: 1080 }, 1, false],
  ['2560', { width: 2560, height: 1440 }, 1, false],
  ['150', { width: 853, height: 533 }, 1.5, false],
  ['1920-150', { width: 1280, height: 720 }, 1.5, false],
  ['200', { width: 640, height: 400 }, 2, false],
  ['2560-200', { width: 1280, height: 720 }, 2, false],
  ['phone', { width: 390, height: 844 }, 2, true],
];

const kNumbers = ['90 days at 38% – 55% MFU, 90% goodput; 1.28M – 1.86M h device-hours',
                  '12,471 – 18,050 devices; p10–p90: 12,931 – 17,220; 24.2M – 35.1M h at 3.35 TB/s',
                  'weights 1.00 TB + KV cache 687 GB; 13.2 ms per step, 2,428.5 tok/s, 0.25 of peak'];

const overlaps = (a, b) => a.x < b.x + b.w - 0.5 && b.x < a.x + a.w - 0.5 && a.y < b.y + b.h - 0.5 && b.y < a.y + a.h - 0.5;
const rect = (r) => ({ x: r[0], y: r[1], w: r[2], h: r[3] });

export const tests = [
  ['labels: no label runs under an input or off the page at 100–200% zoom, 1280–2560 px and on a phone', async ({ browser, origin, shots }) => {
    for (const [name, viewport, deviceScaleFactor, hasTouch] of kScreens) {
      const { page, watch } = await openPage(browser, { allow: (url) => url.startsWith(origin + '/'), viewport, deviceScaleFactor, hasTouch,
                                                        shared: true });
      await page.goto(`${origin}/index.html`);
      await waitForFirstFrame(page);
      const ui = await page.evaluate(() => window.sizerUi || {});
      const labels = Object.keys(ui).filter((k) => k.startsWith('label:'));
      const fields = Object.keys(ui).filter((k) => /^(input|combo|radio):/.test(k));
      assert(labels.length >= 15 && fields.length >= 15, `${name}: ${labels.length} labels and ${fields.length} fields published`);
      for (const l of labels) {
        const a = rect(ui[l]);
        assert(a.x >= -0.5 && a.x + a.w <= viewport.width + 0.5, `${name}: ${l} leaves the page: ${JSON.stringify(a)}`);
        for (const f of fields) assert(!overlaps(a, rect(ui[f])), `${name}: ${l} ${JSON.stringify(a)} runs under ${f} ${JSON.stringify(rect(ui[f]))}`);
      }
      // The radio buttons inside the panel: a combo there fills the panel to its right edge.
      const edge = rect(ui['combo:model']);
      for (const r of ['radio:dense', 'radio:moe']) {
        const b = rect(ui[r]);
        assert(b.x + b.w <= edge.x + edge.w + 0.5, `${name}: ${r} ends at ${(b.x + b.w).toFixed(1)}, past the panel's edge at ${(edge.x + edge.w).toFixed(1)}`);
      }
      for (const s of ['scenario:model', 'scenario:device']) {
        const b = rect(ui[s]);
        assert(b.x >= -0.5 && b.x + b.w <= viewport.width + 0.5, `${name}: ${s} leaves the page: ${JSON.stringify(b)}`);
      }
      // Every overview card holds its own text: a headline that wraps makes its row taller.
      const boxes = Object.keys(ui).filter((k) => k.startsWith('card-box:'));
      assert(boxes.length >= 6, `${name}: ${boxes.length} cards published`);
      for (const b of boxes) {
        const box = rect(ui[b]), title = b.slice('card-box:'.length);
        for (const part of [`card:${title}`, `card-error:${title}`, `card-detail:${title}`]) {
          if (!ui[part]) continue;
          const r = rect(ui[part]);
          assert(r.y + r.h <= box.y + box.h + 0.5 && r.x + r.w <= box.x + box.w + 0.5,
                 `${name}: ${part} ${JSON.stringify(r)} spills out of its card ${JSON.stringify(box)}`);
        }
      }
      if (['150', '200', 'phone'].includes(name)) await screenshot(page, path.join(shots, `labels-${name}.png`));
      assertClean(watch);
      await watch.close();
    }
  }],

  ['labels: wrapped text never splits a number across lines, at every width', async ({ browser, origin }) => {
    for (const [viewport, deviceScaleFactor] of [[{ width: 1280, height: 800 }, 1], [{ width: 390, height: 844 }, 2]]) {
      const { page, watch } = await openPage(browser, { allow: (url) => url.startsWith(origin + '/'), viewport, deviceScaleFactor, shared: true });
      await page.goto(`${origin}/index.html`);
      await waitForFirstFrame(page);
      for (const text of kNumbers) {
        const widths = [];
        for (let w = 72; w <= 420; w += 2) widths.push(w);
        const all = await page.evaluate(([t, ws]) => ws.map((w) => window.sizerWrapLines(t, w)), [text, widths]);
        let wrapped = 0;
        all.forEach((lines, k) => {
          const w = widths[k];
          assert(lines.join('').replace(/\s+/g, '') === text.replace(/\s+/g, ''), `width ${w}: the lines lose text: ${JSON.stringify(lines)}`);
          for (let i = 1; i < lines.length; i++) {
            assert(!(/\d[.,]$/.test(lines[i - 1]) && /^\d/.test(lines[i])),
                   `width ${w} at ratio ${deviceScaleFactor}: a number split across lines: ${JSON.stringify(lines[i - 1])} / ${JSON.stringify(lines[i])}`);
          }
          if (lines.length > 1) wrapped++;
        });
        assert(wrapped > 20, `"${text}" wrapped at only ${wrapped} widths: the wrap no longer breaks lines`);
      }
      assertClean(watch);
      await watch.close();
    }
  }],

  ['labels: the working hint says long-press on a phone from page load, before any touch, and hover with a mouse', async ({ browser, origin }) => {
    for (const [viewport, deviceScaleFactor, hasTouch, expected] of [[{ width: 390, height: 844 }, 2, true, /^Long-press any number/],
                                                                     [{ width: 1280, height: 800 }, 1, false, /^Hover over any number/]]) {
      const { page, watch } = await openPage(browser, { allow: (url) => url.startsWith(origin + '/'), viewport, deviceScaleFactor, hasTouch });
      await page.goto(`${origin}/index.html`);
      await waitForFirstFrame(page);
      const hint = await widgetText(page, 'working-hint');
      assert(expected.test(hint || ''), `${hasTouch ? 'phone' : 'desktop'}: the hint reads ${JSON.stringify(hint)}`);
      assertClean(watch);
      await watch.close();
    }
  }],
];
