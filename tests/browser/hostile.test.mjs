// Hostile JSON in the real browser and in the JS API (issue 8): share links and dropped files
// with deep nesting, duplicate keys, a NUL byte or control characters are refused by the bounded
// parser with a message naming the problem and its line and column; nothing crashes (the
// WebAssembly stack is far smaller than a native one), nothing changes, no console error.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { assert, assertClean, dropFile, frames, messageAfter, openPage, resultsText, screenshot, serialOf,
         waitForFirstFrame } from './lib.mjs';

const link = (text) => 's1.' + Buffer.from(text, 'utf8').toString('base64url');
const nested = (n) => '['.repeat(n) + ']'.repeat(n);
const inSources = (inner) => `{"model": {"sources": ${inner}}}`;
const deepWant = /nests deeper than 64 levels at line 1, column \d+/;
const dupWant = /has the key "device" twice in one object \(again at line 2, column 2\)/;
const nulWant = /holds a NUL byte at line 1, column 3/;
// eslint-disable-next-line no-control-regex
const kControl = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;


// Refusals the API throws: the message, checked to be printable.
function refusal(fn, where) {
  try {
    fn();
  } catch (e) {
    assert(e.name === 'SizerInputError', `${where}: threw ${e.name}: ${String(e.message).slice(0, 200)}`);
    assert(!kControl.test(e.message.replace(/\n/g, '')), `${where}: control characters in the message`);
    return e.message;
  }
  throw new Error(`${where}: was accepted`);
}

export const tests = [
  ['hostile: deep, duplicate-key and NUL links and files are refused in the page with positions', async ({ browser, origin, shots }) => {
    const { page, watch } = await openPage(browser, { allow: (u) => u.startsWith(origin + '/'), viewport: { width: 1024, height: 640 },
                                                      shared: true });
    await page.goto(`${origin}/index.html#${link('{"model":"moe-1t","training":{"days":45}}')}`);
    await waitForFirstFrame(page);
    await page.waitForFunction(() => /Devices for 45 days/.test(document.getElementById('results-text').textContent), null, { timeout: 10000 });
    const before = await resultsText(page);
    const fragments = [
      [link(inSources(nested(5000))), deepWant],          // fits the 16 KB link cap
      [link(nested(6000)), deepWant],
      [link('{"device": "h100",\n "device": "gb200"}'), dupWant],
      [link('{}\u0000garbage'), nulWant],
      [link('{"model": {"sources": [1, 2}}'), /is not valid JSON at line 1, column 28/],
    ];
    for (const [f, want] of fragments) {
      const serial = await serialOf(page);
      await page.evaluate((h) => { location.hash = h; }, f);
      const m = await messageAfter(page, serial).catch(() => null);
      assert(m && m.error && want.test(m.text), `link ${f.slice(0, 40)}: want ${want}, got: ${m && m.text.slice(0, 300)}`);
      assert(await resultsText(page) === before, `link ${f.slice(0, 40)} changed the results`);
    }
    const files = [
      ['deep.json', inSources(nested(70000)), deepWant],
      ['deep-tables.json', `{"devices": ${nested(70000)}}`, deepWant],
      ['duplicate.json', '{"device": "h100",\n "device": "gb200"}', dupWant],
      ['duplicate-tables.json', '{"devices": [],\n "devices": []}', /has the key "devices" twice/],
      ['nul.json', '{}\u0000garbage', nulWant],
      ['escape.json', '{"x\\n(document): ok\\u001b[2J": 1}', /x\\n\(document\): ok\\u001b\[2J: unknown field/],
    ];
    for (const [name, text, want] of files) {
      const serial = await serialOf(page);
      await dropFile(page, name, text);
      const m = await messageAfter(page, serial).catch(() => null);
      assert(m && m.error && /Could not import/.test(m.text) && want.test(m.text),
             `file ${name}: want ${want}, got: ${m && m.text.slice(0, 300)}`);
      assert(!kControl.test(m.text), `file ${name}: control characters in the message`);
      assert(await resultsText(page) === before, `file ${name} changed the results`);
    }
    await frames(page, 4);
    await screenshot(page, path.join(shots, 'hostile-json.png'));
    console.log(`      ${fragments.length} links and ${files.length} files refused with positions`);
    assertClean(watch);
    await watch.close();
  }],

  ['hostile: the JS API refuses deep nesting and duplicate keys without crashing', async ({ site }) => {
    const { default: createSizer } = await import(pathToFileURL(path.join(site, 'sizer.mjs')).href);
    const sizer = await createSizer();
    const deep = inSources(nested(70000));
    assert(deepWant.test(refusal(() => sizer.importFile(deep), 'importFile(deep)')), 'importFile(deep): no depth message');
    assert(deepWant.test(refusal(() => sizer.evaluate(deep), 'evaluate(deep)')), 'evaluate(deep): no depth message');
    assert(deepWant.test(refusal(() => sizer.decodeLink(link(inSources(nested(5000)))), 'decodeLink(deep)')), 'decodeLink(deep)');
    assert(dupWant.test(refusal(() => sizer.importFile('{"device": "h100",\n "device": "gb200"}'), 'importFile(dup)')), 'importFile(dup)');
    assert(dupWant.test(refusal(() => sizer.decodeLink(link('{"device": "h100",\n "device": "gb200"}')), 'decodeLink(dup)')), 'decodeLink(dup)');
    assert(nulWant.test(refusal(() => sizer.importFile('{}\u0000garbage'), 'importFile(NUL)')), 'importFile(NUL)');
    const request = sizer.embedRequest('j=' + encodeURIComponent(inSources(nested(5000))));
    assert(request.issues.some((i) => deepWant.test(i.message)), `embedRequest(deep): ${JSON.stringify(request.issues).slice(0, 300)}`);
    const card = sizer.embedCard({ scenario: deep, show: ['cost_usd'] });
    assert(card.issues.some((i) => deepWant.test(i.message)), `embedCard(deep): ${JSON.stringify(card.issues).slice(0, 300)}`);
    assert(card.outputs.length === 0 && card.error, 'embedCard(deep): no numbers, an error (not the defaults)');
    const escaped = refusal(() => sizer.evaluate('{"device": "h1\\u001b]0;x\\u0007"}'), 'evaluate(escape id)');
    assert(escaped.includes('"h1\\u001b]0;x\\u0007"'), `escaped id: ${escaped.slice(0, 200)}`);
    // The module still works after all that.
    assert(sizer.evaluate({ model: 'moe-1t' }).schema === 'sizer.result.v1', 'the module broke');
  }],
];
