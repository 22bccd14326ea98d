// The ES-module JS API (site/sizer.mjs): loads and computes in Node and in the app's page
// (under the app's Content-Security-Policy).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { assert, assertClean, openPage } from './lib.mjs';

function checkApi(result) {
  assert(typeof result.version === 'string' && result.version.length > 0, `bad version: ${result.version}`);
  assert(Math.abs(result.flops / 1.2e26 - 1) < 1e-12, `trainingFlops(1e12, 2e13) = ${result.flops}`);
}

export const tests = [
  ['sizer.mjs loads and computes in Node', async ({ site }) => {
    const { default: createSizer } = await import(pathToFileURL(path.join(site, 'sizer.mjs')).href);
    const sizer = await createSizer();
    checkApi({ version: sizer.version(), flops: sizer.trainingFlops(1e12, 2e13) });
  }],

  ['sizer.mjs loads and computes in the page', async ({ browser, origin }) => {
    const { page, watch } = await openPage(browser, { allow: (url) => url.startsWith(origin + '/') });
    await page.goto(`${origin}/index.html`);
    const result = await page.evaluate(async () => {
      const { default: createSizer } = await import('./sizer.mjs');
      const sizer = await createSizer();
      return { version: sizer.version(), flops: sizer.trainingFlops(1e12, 2e13) };
    });
    checkApi(result);
    assertClean(watch);
    await watch.context.close();
  }],
];
