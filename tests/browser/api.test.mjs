// The ES-module JS API (site/sizer.mjs), in Node and in the app's page (under its CSP):
// evaluate() returns the SAME document as the native CLI's `sizer eval` for every example scenario
// in docs/examples (compared deeply; numbers exactly, or within a relative 1e-12 that only libm
// differences could explain), accepts an object or JSON text, and throws an Error with `issues`
// for invalid input; listDevices() etc. return the bundled tables; `version` is a string.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { assert, assertClean, openPage } from './lib.mjs';

const kRelTol = 1e-12;

// Deep comparison; returns {mismatches: [...], inexact: n}.
export function compareJson(a, b, where = '', out = { mismatches: [], inexact: 0 }) {
  if (typeof a === 'number' && typeof b === 'number') {
    if (a !== b) {
      const rel = Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b));
      if (rel <= kRelTol) out.inexact++;
      else out.mismatches.push(`${where}: ${a} != ${b}`);
    }
  } else if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.mismatches.push(`${where}: length ${a.length} != ${b.length}`);
    else a.forEach((x, i) => compareJson(x, b[i], `${where}[${i}]`, out));
  } else if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a).sort(), kb = Object.keys(b).sort();
    if (ka.join() !== kb.join()) out.mismatches.push(`${where}: keys ${ka} != ${kb}`);
    else ka.forEach((k) => compareJson(a[k], b[k], where ? `${where}.${k}` : k, out));
  } else if (a !== b) {
    out.mismatches.push(`${where}: ${JSON.stringify(a)} != ${JSON.stringify(b)}`);
  }
  return out;
}

function checkAgainstCli(results, examples, where) {
  let inexact = 0;
  for (const [name, { expected }] of Object.entries(examples)) {
    const got = results[name];
    assert(got && !got.error, `${where}: ${name} failed: ${got && got.error}`);
    const cmp = compareJson(got.result, expected);
    assert(cmp.mismatches.length === 0, `${where}: ${name} differs from the CLI:\n  ${cmp.mismatches.slice(0, 8).join('\n  ')}`);
    inexact += cmp.inexact;
  }
  return inexact;
}

// Runs in Node and (serialised by Playwright) in the page: must not refer to anything outside
// itself. In the page it imports ./sizer.mjs relative to the app.
async function exercise(scenarios, createSizer) {
  if (!createSizer) ({ default: createSizer } = await import('./sizer.mjs'));
  const sizer = await createSizer();
  const out = { version: sizer.version, contract: sizer.contract, results: {} };
  for (const [name, text] of Object.entries(scenarios)) {
    try {
      out.results[name] = { result: sizer.evaluate(text) };
    } catch (e) {
      out.results[name] = { error: e.message };
    }
  }
  out.fromObject = sizer.evaluate({ model: 'moe-1t', device: 'h100' }).scenario.device.id;
  try {
    sizer.evaluate({ training: { mfu: 'high' }, serving: { batch: -1 } });
  } catch (e) {
    out.invalid = { message: e.message, issues: e.issues, isError: e instanceof Error };
  }
  try {
    sizer.evaluate('{"model": ');
  } catch (e) {
    out.badJson = e.message;
  }
  out.stillWorks = sizer.evaluate('{}').schema;
  out.tables = { devices: sizer.listDevices(), models: sizer.listModels(), prices: sizer.listPrices(),
                 systems: sizer.listSystems() };
  return out;
}

function checkApi(out, examples, where) {
  assert(/^\d+\.\d+\.\d+$/.test(out.version), `${where}: bad version ${out.version}`);
  assert(out.contract === 'v1', `${where}: bad contract ${out.contract}`);
  const inexact = checkAgainstCli(out.results, examples, where);
  assert(out.fromObject === 'h100', `${where}: object input not used`);
  assert(out.invalid && out.invalid.isError, `${where}: invalid input did not throw an Error`);
  const paths = out.invalid.issues.map((i) => i.path);
  assert(paths.includes('training.mfu') && paths.includes('serving.batch'), `${where}: issues ${JSON.stringify(out.invalid.issues)}`);
  assert(/training\.mfu: /.test(out.invalid.message) && /serving\.batch: /.test(out.invalid.message),
         `${where}: message does not list path: message lines: ${out.invalid.message}`);
  assert(/not valid JSON/.test(out.badJson || ''), `${where}: bad JSON text: ${out.badJson}`);
  assert(out.stillWorks === 'sizer.result.v1', `${where}: module broken after invalid input`);
  for (const [name, rows] of Object.entries(out.tables)) {
    assert(Array.isArray(rows) && rows.length > 0 && rows.every((r) => typeof r.id === 'string'), `${where}: list ${name}`);
  }
  assert(out.tables.devices.some((d) => d.id === 'gb200' && d.memory_bytes > 0), `${where}: gb200 missing`);
  return inexact;
}

export const tests = [
  ['sizer.mjs in Node equals the CLI for every docs/examples scenario', async ({ site, examples }) => {
    const { default: createSizer } = await import(pathToFileURL(path.join(site, 'sizer.mjs')).href);
    const scenarios = Object.fromEntries(Object.entries(examples).map(([k, v]) => [k, v.text]));
    const inexact = checkApi(await exercise(scenarios, createSizer), examples, 'node');
    console.log(`      ${Object.keys(examples).length} scenarios, ${inexact} numbers not bit-identical (within 1e-12)`);
  }],

  ['sizer.mjs in the page equals the CLI for every docs/examples scenario', async ({ browser, origin, examples }) => {
    const { page, watch } = await openPage(browser, { allow: (url) => url.startsWith(origin + '/'), shared: true });
    await page.goto(`${origin}/index.html`);
    const scenarios = Object.fromEntries(Object.entries(examples).map(([k, v]) => [k, v.text]));
    const out = await page.evaluate(exercise, scenarios).catch((e) => ({ pageError: e.message }));
    if (out.pageError) throw new Error(out.pageError);
    const inexact = checkApi(out, examples, 'page');
    console.log(`      ${Object.keys(examples).length} scenarios, ${inexact} numbers not bit-identical (within 1e-12)`);
    assertClean(watch);
    await watch.close();
  }],

  ['sizer.mjs is one self-contained file', async ({ site }) => {
    const text = fs.readFileSync(path.join(site, 'sizer.mjs'), 'utf8');
    assert(!/\bfetch\(\s*["'`]http/.test(text) && !/\.wasm["']/.test(text), 'refers to outside files');
    assert(/export default createSizer;\s*$/.test(text), 'does not end with the API export');
  }],
];
