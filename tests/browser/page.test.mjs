// The page around the canvas: an inline favicon (issue 11 item 10: a missing /favicon.ico logged a
// 404 console error on every load), in the hosted page and in the offline single file.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { assert, assertClean, openPage, waitForFirstFrame } from './lib.mjs';

// The page's icon: an inline data: URL that decodes to an image.
async function checkIcon(page) {
  const icon = await page.evaluate(async () => {
    const link = document.querySelector('link[rel~="icon"]');
    if (!link) return { href: null };
    const img = new Image();
    img.src = link.href;
    try { await img.decode(); } catch (e) { return { href: link.href, error: String(e) }; }
    return { href: link.href, width: img.naturalWidth };
  });
  assert(icon.href, 'the page has no <link rel="icon">: browsers ask for /favicon.ico and log a 404');
  assert(icon.href.startsWith('data:'), `the icon is not inline: ${icon.href}`);
  assert(!icon.error && icon.width > 0, `the icon does not decode: ${icon.error}`);
}

export const tests = [
  ['the hosted page and the offline file have an inline favicon; nothing 404s on load', async ({ browser, origin, site }) => {
    const hosted = await openPage(browser, { allow: (url) => url.startsWith(origin + '/') });
    const notFound = [];
    hosted.page.on('response', (r) => { if (r.status() >= 400) notFound.push(`${r.status()} ${r.url()}`); });
    await hosted.page.goto(`${origin}/index.html`);
    await waitForFirstFrame(hosted.page);
    await checkIcon(hosted.page);
    assert(notFound.length === 0, `failed requests on load:\n  ${notFound.join('\n  ')}`);
    assertClean(hosted.watch);
    await hosted.watch.close();
    const file = pathToFileURL(path.join(site, 'sizer-offline.html')).href;
    const offline = await openPage(browser, { allow: (url) => url === file });
    await offline.page.goto(file);
    await waitForFirstFrame(offline.page);
    await checkIcon(offline.page);
    assertClean(offline.watch);
    await offline.watch.close();
  }],
  ['the hosted page arrives gzip-compressed (precompressed by the build) and starts from it', async ({ browser, origin, site }) => {
    const { page, watch } = await openPage(browser, { allow: (url) => url.startsWith(origin + '/') });
    const encodings = {};
    page.on('response', (r) => { encodings[r.url().split('/').pop()] = r.headers()['content-encoding'] || 'identity'; });
    await page.goto(`${origin}/index.html`);
    await waitForFirstFrame(page);
    for (const name of ['index.html', 'index.js', 'index.wasm']) {
      assert(fs.existsSync(path.join(site, `${name}.gz`)), `the build wrote no ${name}.gz`);
      assert(encodings[name] === 'gzip', `${name} arrived as ${encodings[name]}, not gzip`);
    }
    // The JS API, fetched as a page would import it, is the same module once inflated.
    const api = await page.evaluate(async () => {
      const { createSizer } = await import('./sizer.mjs');
      return (await createSizer()).version;
    });
    assert(encodings['sizer.mjs'] === 'gzip' && /^\d+\.\d+\.\d+$/.test(api), `sizer.mjs: ${encodings['sizer.mjs']}, version ${api}`);
    assertClean(watch);
    await watch.close();
  }],
];
