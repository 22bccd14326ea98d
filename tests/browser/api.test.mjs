// The ES-module JS API (site/sizer.mjs): loads and computes in Node and in the app's page
// (under the app's Content-Security-Policy).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { assert, assertClean, openPage } from './lib.mjs';

// What both tests ask of the API (the page test repeats these calls: the page's CSP forbids eval).
async function useApi(createSizer) {
  const sizer = await createSizer();
  return {
    version: sizer.version(),
    result: JSON.parse(sizer.evaluate('{}')),
    invalid: JSON.parse(sizer.evaluate('{"training": {"mfu": "high"}}')),
  };
}

function checkApi({ version, result, invalid }) {
  assert(/^\d+\.\d+\.\d+/.test(version), `bad version: ${version}`);
  assert(result.schema === 'sizer.result.v1', `bad schema: ${result.schema}`);
  assert(typeof result.training === 'object' && typeof result.serving === 'object', 'result lacks blocks');
  assert(Array.isArray(invalid.issues) && invalid.issues[0].path === 'training.mfu',
         `invalid input not reported: ${JSON.stringify(invalid)}`);
}

export const tests = [
  ['sizer.mjs loads and computes in Node', async ({ site }) => {
    const { default: createSizer } = await import(pathToFileURL(path.join(site, 'sizer.mjs')).href);
    checkApi(await useApi(createSizer));
  }],

  ['sizer.mjs loads and computes in the page', async ({ browser, origin }) => {
    const { page, watch } = await openPage(browser, { allow: (url) => url.startsWith(origin + '/') });
    await page.goto(`${origin}/index.html`);
    const result = await page.evaluate(async () => {
      const { default: createSizer } = await import('./sizer.mjs');
      const sizer = await createSizer();
      return {
        version: sizer.version(),
        result: JSON.parse(sizer.evaluate('{}')),
        invalid: JSON.parse(sizer.evaluate('{"training": {"mfu": "high"}}')),
      };
    });
    checkApi(result);
    assertClean(watch);
    await watch.context.close();
  }],
];
