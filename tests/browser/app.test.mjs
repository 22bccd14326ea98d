// The hosted site served over http: the app (index.html) draws, stays on its own origin, is sharp
// on high-DPI screens and explains itself when WebAssembly or WebGL2 is missing; method.html loads.
import path from 'node:path';
import { assert, assertClean, drawnFraction, openPage, screenshot, waitForFirstFrame } from './lib.mjs';

const sameOrigin = (origin) => (url) => url.startsWith(origin + '/');

export const tests = [
  ['hosted app draws a first frame with no console errors', async ({ browser, origin, shots }) => {
    const { page, watch } = await openPage(browser, { allow: sameOrigin(origin) });
    await page.goto(`${origin}/index.html`);
    await waitForFirstFrame(page);
    const png = await screenshot(page, path.join(shots, 'hosted.png'));
    const drawn = await drawnFraction(browser, png);
    assert(drawn > 0.005, `canvas looks blank (${(drawn * 100).toFixed(2)}% drawn pixels)`);
    assert(await page.isHidden('#status'), 'loading indicator still visible after first frame');
    assertClean(watch);
    await watch.close();
  }],

  ['canvas backing store follows devicePixelRatio', async ({ browser, origin, shots }) => {
    const { page, watch } = await openPage(browser, { allow: sameOrigin(origin), deviceScaleFactor: 2,
                                                      viewport: { width: 900, height: 600 } });
    await page.goto(`${origin}/index.html`);
    await waitForFirstFrame(page);
    await screenshot(page, path.join(shots, 'hosted-dpr2.png'));
    const size = await page.evaluate(() => {
      const c = document.getElementById('canvas');
      return { w: c.width, h: c.height, cssW: c.clientWidth, cssH: c.clientHeight };
    });
    assert(size.cssW === 900 && size.cssH === 600, `canvas does not fill the window: ${JSON.stringify(size)}`);
    assert(size.w === 1800 && size.h === 1200, `canvas not at 2x resolution: ${JSON.stringify(size)}`);
    await page.setViewportSize({ width: 700, height: 500 });
    await page.waitForFunction(() => document.getElementById('canvas').width === 1400, null, { timeout: 5000 });
    assertClean(watch);
    await watch.close();
  }],

  ['method page loads with its styles and no errors', async ({ browser, origin, shots }) => {
    const { page, watch } = await openPage(browser, { allow: sameOrigin(origin) });
    await page.goto(`${origin}/method.html`);
    await page.screenshot({ path: path.join(shots, 'method.png'), fullPage: true });
    assert(/Method and sources/.test(await page.textContent('h1')), 'no heading');
    const styled = await page.evaluate(() => getComputedStyle(document.body).maxWidth !== 'none');
    assert(styled, 'site.css not applied');
    assertClean(watch);
    await watch.close();
  }],

  ['missing WebGL2 gives a clear message', async ({ browser, origin, shots }) => {
    const initScript = () => {
      const original = HTMLCanvasElement.prototype.getContext;
      HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
        return type === 'webgl2' ? null : original.call(this, type, ...rest);
      };
    };
    const { page, watch } = await openPage(browser, { allow: sameOrigin(origin), initScript });
    await page.goto(`${origin}/index.html`);
    await page.waitForSelector('#status.error', { timeout: 10000 });
    await screenshot(page, path.join(shots, 'no-webgl2.png'));
    const text = await page.textContent('#status');
    assert(/WebGL2/.test(text), `unexpected message: ${text}`);
    await watch.close();
  }],

  // boot.js compiles the wasm itself, before it makes the WebGL2 context (the two overlap); a host
  // that serves .wasm without its MIME type defeats WebAssembly.compileStreaming, and the page
  // must then fetch the bytes and compile them whole, as Emscripten's own loader would.
  ['hosted app starts when the server sends index.wasm without its MIME type', async ({ browser, origin }) => {
    const { page, watch } = await openPage(browser, { allow: sameOrigin(origin) });
    let wasmRequests = 0;
    await watch.context.route('**/index.wasm', async (route) => {
      wasmRequests++;
      const response = await route.fetch();
      await route.fulfill({ response, headers: { ...response.headers(), 'content-type': 'application/octet-stream' } });
    });
    await page.goto(`${origin}/index.html`);
    await waitForFirstFrame(page);
    assert(await page.isHidden('#status'), 'loading indicator still visible after first frame');
    // Streaming compile refused it (the preload's request), so the bytes were fetched again: two.
    assert(wasmRequests >= 2 && wasmRequests <= 3, `index.wasm requested ${wasmRequests} times (streaming, then whole)`);
    assertClean(watch);
    await watch.close();
  }],

  ['missing WebAssembly gives a clear message', async ({ browser, origin }) => {
    const initScript = () => { delete window.WebAssembly; };
    const { page, watch } = await openPage(browser, { allow: sameOrigin(origin), initScript });
    await page.goto(`${origin}/index.html`);
    await page.waitForSelector('#status.error', { timeout: 10000 });
    const text = await page.textContent('#status');
    assert(/needs WebAssembly/.test(text), `unexpected message: ${text}`);
    await watch.close();
  }],
];
