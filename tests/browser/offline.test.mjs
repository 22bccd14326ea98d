// The offline single file (site/sizer-offline.html): opened from file:// with every non-file
// request aborted, it still loads, draws and logs no errors; and it references nothing outside.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { assert, assertClean, drawnFraction, openPage, screenshot, waitForFirstFrame } from './lib.mjs';

export const tests = [
  ['offline file works from file:// with the network blocked', async ({ browser, site, shots }) => {
    const file = path.join(site, 'sizer-offline.html');
    const { page, watch } = await openPage(browser, { allow: (url) => url === pathToFileURL(file).href });
    await page.goto(pathToFileURL(file).href);
    await waitForFirstFrame(page);
    const png = await screenshot(page, path.join(shots, 'offline.png'));
    const drawn = await drawnFraction(browser, png);
    assert(drawn > 0.005, `canvas looks blank (${(drawn * 100).toFixed(2)}% drawn pixels)`);
    assertClean(watch);
    await watch.close();
  }],

  ['offline file in a browser without DecompressionStream says what it needs instead of a blank page', async ({ browser, site }) => {
    const file = path.join(site, 'sizer-offline.html');
    const { page, watch } = await openPage(browser, { allow: (url) => url === pathToFileURL(file).href,
                                                      initScript: () => { delete window.DecompressionStream; } });
    await page.goto(pathToFileURL(file).href);
    await page.waitForFunction(() => /DecompressionStream/.test(document.getElementById('status').textContent), null, { timeout: 10000 });
    const status = await page.evaluate(() => { const s = document.getElementById('status'); return { text: s.textContent, error: s.className, hidden: s.hidden }; });
    assert(status.error === 'error' && !status.hidden && /Chrome 80\+.*Firefox 113\+.*Safari 16\.4\+/.test(status.text),
           `status: ${JSON.stringify(status)}`);
    await watch.close();
  }],

  ['offline file is self-contained', async ({ site }) => {
    const html = fs.readFileSync(path.join(site, 'sizer-offline.html'), 'utf8');
    const markup = html.replace(/<script>[\s\S]*?<\/script>/g, '');  // inline code, not markup
    const refs = (markup.match(/\b(?:src|href)\s*=\s*["'][^"']+["']/g) || [])
      .filter((r) => !/=\s*["']data:/.test(r));  // inline data: URLs (the favicon) are self-contained
    assert(refs.length === 0, `external references: ${refs.join(', ')}`);
    assert(!/\.wasm["']/.test(html), 'refers to a separate .wasm file');
  }],
];
