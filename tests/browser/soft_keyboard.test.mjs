// The on-screen keyboard (issue 11 item 2, web/src/soft_keyboard.h): a tap on a field at phone
// size focuses the hidden DOM input (so a phone shows its keyboard: 16 px text, decimal keys for
// numbers); what is typed into it — inserted text as a virtual keyboard sends it, key events, an
// IME composition, Backspace — edits the field; Enter commits, Escape reverts, and either gives the
// focus back to the canvas. With a mouse the hidden input never takes the focus.
import { assert, assertClean, frames, openPage, screenshot, scrollInputs, waitForFirstFrame, waitText, widgetRect } from './lib.mjs';

const kPhone = { name: 'phone', viewport: { width: 390, height: 844 } };
const kField = 'input:training.days';

// `shared`: a loaded page from the pool, for a test that leaves the window its size.
async function open(browser, origin, hasTouch, shared = true) {
  const viewport = hasTouch ? kPhone.viewport : { width: 1280, height: 800 };
  const opened = await openPage(browser, { allow: (url) => url.startsWith(origin + '/'), viewport, shared,
                                           deviceScaleFactor: hasTouch ? 2 : 1, hasTouch });
  await opened.page.goto(`${origin}/index.html`);
  await waitForFirstFrame(opened.page);
  return opened;
}

const active = (page) => page.evaluate(() => {
  const el = document.activeElement;
  return { id: el && el.id, inputmode: el && el.getAttribute('inputmode'), font: el && parseFloat(getComputedStyle(el).fontSize) };
});
const editing = (page) => page.evaluate(() => !!(window.sizerStats || {}).textInput);

async function tapField(page) {
  const r = await widgetRect(page, kField);
  await page.touchscreen.tap(r.x + r.w / 2, r.y + r.h / 2);
  await frames(page, 6);
}

export const tests = [
  ['soft keyboard: a tap on a field focuses the hidden input; typed text, Enter and Escape reach the field (phone)',
   async ({ browser, origin }) => {
    const { page, watch } = await open(browser, origin, true);
    await scrollInputs(page, kField, kPhone);
    assert((await active(page)).id !== 'sizer-keyboard', 'the hidden input had the focus before any field was tapped');
    // A virtual keyboard's text arrives as input events without key events (insertText).
    await tapField(page);
    const a = await active(page);
    assert(a.id === 'sizer-keyboard', `a tap on ${kField} did not focus the hidden input (active: ${a.id})`);
    assert(a.inputmode === 'decimal' && a.font >= 16, `the hidden input is not a 16 px decimal field: ${JSON.stringify(a)}`);
    assert(await editing(page), 'the tapped field is not being edited');
    await page.keyboard.insertText('45');
    await frames(page, 4);
    await page.keyboard.press('Enter');
    await waitText(page, /Devices for 45 days/, 'text typed on the on-screen keyboard, then Enter');
    await frames(page, 4);
    assert(!(await editing(page)), 'Enter did not close the field');
    assert((await active(page)).id === 'canvas', `the canvas did not get the focus back: ${(await active(page)).id}`);
    // Key events (an iOS keyboard, a tablet's keyboard) reach the field once each, not twice.
    await tapField(page);
    assert((await active(page)).id === 'sizer-keyboard', 'the second tap did not focus the hidden input');
    await page.keyboard.type('30', { delay: 30 });
    await page.keyboard.press('Enter');
    await waitText(page, /Devices for 30 days/, 'typing 30 with key events');
    // An IME composition, committed, and Backspace.
    await tapField(page);
    const cdp = await watch.context.newCDPSession(page);
    await cdp.send('Input.imeSetComposition', { text: '1', selectionStart: 1, selectionEnd: 1 });
    await frames(page, 2);
    await cdp.send('Input.imeSetComposition', { text: '19', selectionStart: 2, selectionEnd: 2 });
    await frames(page, 2);
    await cdp.send('Input.insertText', { text: '19' });
    await frames(page, 3);
    await page.keyboard.press('Backspace');
    await frames(page, 3);
    await page.keyboard.insertText('2');
    await frames(page, 3);
    await page.keyboard.press('Enter');
    await waitText(page, /Devices for 12 days/, 'a composition of 19, Backspace, then 2');
    // Escape throws the typing away and closes the field.
    await tapField(page);
    await page.keyboard.insertText('7');
    await frames(page, 3);
    await page.keyboard.press('Escape');
    await frames(page, 6);
    assert(!(await editing(page)), 'Escape did not close the field');
    assert((await active(page)).id === 'canvas', 'Escape left the hidden input focused');
    assert(/Devices for 12 days/.test(await page.textContent('#results-text')), 'Escape did not revert the field');
    assertClean(watch);
    await watch.close();
  }],

  ['soft keyboard: when the keyboard shrinks the window, the field being typed into scrolls back into view (phone)',
   async ({ browser, origin, shots }) => {
    // Android shrinks the window when its keyboard opens (here: 844 → 504 CSS px). The last
    // visible field of the inputs panel would then be under the results; its panel scrolls instead.
    const { page, watch } = await open(browser, origin, true, false);
    const field = 'input:model.heads';
    const before = await widgetRect(page, field);
    await page.touchscreen.tap(before.x + before.w / 2, before.y + before.h / 2);
    await frames(page, 6);
    assert(await editing(page), `a tap on ${field} did not open it`);
    assert((await active(page)).id === 'sizer-keyboard', 'the tap did not focus the hidden input');
    await page.setViewportSize({ width: kPhone.viewport.width, height: 504 });
    await frames(page, 12);
    const panel = await widgetRect(page, 'panel:inputs');  // the inputs panel, above the model's name and the tabs
    const visibleTop = panel.y, visibleBottom = panel.y + panel.h;
    // Without a scroll the field would have stayed where it was, below the panel's new bottom.
    assert(before.y + before.h > visibleBottom, `the test's field was not under the shrunk panel (${before.y} vs ${visibleBottom})`);
    const after = await widgetRect(page, field);
    assert(after.y >= visibleTop && after.y + after.h <= visibleBottom,
           `the edited field is out of view after the window shrank: y ${after.y}–${after.y + after.h}, panel ${visibleTop}–${visibleBottom}`);
    assert(await editing(page) && (await active(page)).id === 'sizer-keyboard', 'the field or the keyboard closed when the window shrank');
    await screenshot(page, `${shots}/soft-keyboard-shrunk-phone.png`);
    // Typing goes on into the same field, and Enter applies it.
    await page.keyboard.insertText('128');
    await frames(page, 4);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => {
      const h = location.hash;
      if (!h.startsWith('#s1.')) return false;
      const s = JSON.parse(atob(h.slice(4).replace(/-/g, '+').replace(/_/g, '/')));
      return s.model && s.model.heads === 128;
    }, null, { timeout: 10000 });
    assertClean(watch);
    await watch.close();
  }],

  ['soft keyboard: with a mouse the hidden input never takes the focus (desktop)', async ({ browser, origin }) => {
    const { page, watch } = await open(browser, origin, false);
    const r = await widgetRect(page, kField);
    await page.mouse.click(r.x + r.w / 2, r.y + r.h / 2);
    await frames(page, 6);
    assert(await editing(page), 'a click did not open the field');
    assert((await active(page)).id === 'canvas', `a mouse click moved the focus to ${(await active(page)).id}`);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('40', { delay: 30 });
    await page.keyboard.press('Enter');
    await waitText(page, /Devices for 40 days/, 'typing after a mouse click');
    assertClean(watch);
    await watch.close();
  }],
];
