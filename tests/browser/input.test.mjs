// Input that never lies (issue 11 item 6): a half-typed number ("4" on the way to "45", "1e3" on
// the way to "1e30") is never computed and shown as the current results; the field and the text
// mirror say it is being edited; Enter, Tab or a click elsewhere applies it, Escape throws it away.
import path from 'node:path';
import { assert, assertClean, clickWidget, frames, openPage, resultsText, screenshot, untilText, waitForFirstFrame } from './lib.mjs';

const sameOrigin = (origin) => (url) => url.startsWith(origin + '/');

async function openApp(browser, origin) {
  const opened = await openPage(browser, { allow: sameOrigin(origin), viewport: { width: 1440, height: 900 }, shared: true });
  await opened.page.goto(`${origin}/index.html`);
  await waitForFirstFrame(opened.page);
  return opened;
}

async function press(page, key) {
  await page.keyboard.press(key);
  await frames(page, 3);
}

// Clicks a field, selects its text and types `text` without applying it.
async function typeWithoutApplying(page, name, text) {
  await clickWidget(page, name);
  await press(page, 'Control+A');
  for (const ch of text) {
    await page.keyboard.type(ch);
    await frames(page, 3);
  }
}

const waitForText = (page, re) => untilText(page, (t) => re.test(t), `waiting for ${re}`);

export const tests = [
  ['a half-typed number is not computed: results stay, the mirror says a field is being edited; Enter applies', async ({ browser, origin, shots }) => {
    const { page, watch } = await openApp(browser, origin);
    await typeWithoutApplying(page, 'input:training.days', '4');
    let text = await resultsText(page);
    assert(/Devices for 90 days: 12,471 to 18,050/.test(text), `the half-typed "4" days was computed as current:\n${text}`);
    assert(/Editing Schedule: .*not applied yet/.test(text), `the mirror does not say the schedule is being edited:\n${text}`);
    await page.keyboard.type('5');
    await frames(page, 3);
    await screenshot(page, path.join(shots, 'input-editing.png'));
    assert(/Devices for 90 days/.test(await resultsText(page)), 'the half-typed "45" was computed before Enter');
    await press(page, 'Enter');
    await waitForText(page, /Devices for 45 days: 24,9\d\d to 36,\d\d\d/);
    text = await resultsText(page);
    assert(!/Editing /.test(text), `still marked as being edited after Enter:\n${text}`);
    // "1e3" on the way to "1e30": 1e3 T tokens would be a valid scenario with other numbers.
    const compute = (t) => /Training compute: (.*)/.exec(t)[1];
    const before = compute(text);
    await typeWithoutApplying(page, 'input:training.tokens', '1e3');
    text = await resultsText(page);
    assert(compute(text) === before, `1e3 T tokens was computed while still typing: ${compute(text)} (was ${before})`);
    assert(/Editing Training tokens/.test(text), `the mirror does not name the field being edited:\n${text}`);
    // Escape throws the typing away: nothing changes and the mark goes.
    await press(page, 'Escape');
    await frames(page, 3);
    text = await resultsText(page);
    assert(compute(text) === before && !/Editing /.test(text), `Escape did not throw the edit away:\n${text}`);
    assertClean(watch);
    await watch.close();
  }],

  ['leaving a field with a click or Tab applies what was typed', async ({ browser, origin }) => {
    const { page, watch } = await openApp(browser, origin);
    await typeWithoutApplying(page, 'input:training.days', '30');
    assert(/Devices for 90 days/.test(await resultsText(page)), 'applied before leaving the field');
    await clickWidget(page, 'input:training.goodput');  // a click elsewhere applies
    await waitForText(page, /Devices for 30 days/);
    await press(page, 'Escape');
    await typeWithoutApplying(page, 'input:training.days', '60');
    await press(page, 'Tab');  // Tab applies and moves on
    await waitForText(page, /Devices for 60 days/);
    assert(!/Editing /.test(await resultsText(page)), 'still marked as edited after Tab');
    assertClean(watch);
    await watch.close();
  }],

  ['errors speak in the unit the field shows and name the field (T tokens, %, MFU points)', async ({ browser, origin, shots }) => {
    const { page, watch } = await openApp(browser, origin);
    await typeWithoutApplying(page, 'input:training.tokens', '-5');
    await press(page, 'Enter');
    await waitForText(page, /problem/);
    let text = await resultsText(page);
    assert(/training\.tokens: must be from [^;]* T to [^;]* T; got -5 T \(field: Training tokens\)/.test(text),
           `the tokens error is not in T tokens or does not name the field:\n${text}`);
    await screenshot(page, path.join(shots, 'input-error-units.png'));
    await typeWithoutApplying(page, 'input:training.tokens', '20');
    await press(page, 'Enter');
    await untilText(page, (t) => !/problem/.test(t), 'the problem goes once fixed');
    // MFU points are typed in percent: the error says percent too.
    await typeWithoutApplying(page, 'input:training.mfu', '38, 150');
    await press(page, 'Enter');
    await waitForText(page, /problem/);
    text = await resultsText(page);
    assert(/training\.mfu\[1\]: must be from 0\.1% to 100%; got 150% \(field: MFU points\)/.test(text),
           `the MFU error is not in percent:\n${text}`);
    assertClean(watch);
    await watch.close();
  }],
];
