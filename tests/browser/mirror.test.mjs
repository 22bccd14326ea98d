// Issue 11 item 4: the text mirror under the canvas (#results-text) is a structured document that
// is always current. It has h2/h3 headings per section, <table>s with column and row header cells
// and units, the inputs as applied (input → value → unit → status), and the input problems naming
// their fields. Driven with real input at desktop and phone size: an edit, a half-typed value
// (never shown as applied), a dropped Hugging Face config.json, several invalid fields at once,
// and a model name that is markup (it stays text). Values are checked against the overview cards
// the canvas drew (widgetText) and against the JS API's import of the same config.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { assert, assertClean, dropFile, frames, messageAfter, openPage, scrollInputs, serialOf, typeInto, untilText,
         waitForFirstFrame, widgetText } from './lib.mjs';

const kSizes = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 },
  { name: 'phone', viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, hasTouch: true },
];

async function openApp(browser, origin, size) {
  const opened = await openPage(browser, { allow: (u) => u.startsWith(origin + '/'), viewport: size.viewport,
                                           deviceScaleFactor: size.deviceScaleFactor, hasTouch: !!size.hasTouch, shared: true });
  await opened.page.goto(`${origin}/index.html`);
  await waitForFirstFrame(opened.page);
  return opened;
}

// The mirror as data: headings, the status paragraphs, the problem list and every table with its
// caption, header cells (and their scope) and rows (the first cell a row header).
function mirrorData(page) {
  return page.evaluate(() => {
    const root = document.getElementById('results-text');
    const cells = (tr) => [...tr.children].map((c) => c.textContent);
    return {
      lang: document.documentElement.lang,
      title: document.title,
      h1: [...document.querySelectorAll('#results h1')].map((h) => h.textContent),
      headings: [...root.querySelectorAll('h2, h3')].map((h) => `${h.tagName}:${h.textContent}`),
      paragraphs: [...root.querySelectorAll('p')].map((p) => ({ text: p.textContent, kind: p.className })),
      problems: [...root.querySelectorAll('ul.error li')].map((li) => li.textContent),
      live: (document.getElementById('results-status') || {}).textContent,
      liveRole: document.getElementById('results-status')?.getAttribute('role'),
      markup: root.querySelectorAll('img, script, b, a').length,
      tables: [...root.querySelectorAll('table')].map((t) => ({
        caption: t.caption ? t.caption.textContent : '',
        head: [...t.querySelectorAll('thead th')].map((th) => th.textContent),
        headScopes: [...t.querySelectorAll('thead th')].map((th) => th.scope),
        rowHeaders: [...t.querySelectorAll('tbody tr')].every((tr) => tr.firstElementChild.tagName === 'TH' &&
                                                                   tr.firstElementChild.scope === 'row'),
        rows: [...t.querySelectorAll('tbody tr')].map(cells),
      })),
    };
  });
}

const tableNamed = (d, head0, caption) => d.tables.find((t) => t.head[0] === head0 && (!caption || caption.test(t.caption)));
const inputRow = (d, label) => (tableNamed(d, 'Input').rows.find((r) => r[0] === label) || []);
const resultRow = (d, label) => {
  for (const t of d.tables) for (const r of t.rows) if (t.head[0] === 'Result' && r[0] === label) return r[1];
  return undefined;
};
// "12,471 – 18,050" (a card) and "12,471 to 18,050" (the mirror) are the same range.
const sameRange = (card, mirror) => card && mirror && card.replace(/ – /g, ' to ') === mirror;
// printf's %.6g, as the inputs panel shows a number.
const g6 = (x) => String(Number(x.toPrecision(6)));

const kLlamaConfig = JSON.stringify({
  _name_or_path: 'meta-llama/Llama-3.1-8B', architectures: ['LlamaForCausalLM'], model_type: 'llama', hidden_size: 4096,
  intermediate_size: 14336, num_hidden_layers: 32, num_attention_heads: 32, num_key_value_heads: 8, vocab_size: 128256,
  max_position_embeddings: 131072, tie_word_embeddings: false, torch_dtype: 'bfloat16' });

async function checkStructure(d, where) {
  assert(d.lang === 'en', where(`page lang ${d.lang}`));
  assert(/^Sizer/.test(d.title), where(`title ${d.title}`));
  assert(d.h1.length === 1 && /inputs and results/.test(d.h1[0]), where(`h1 ${d.h1}`));
  for (const h of ['H2:Scenario', 'H2:Inputs', 'H2:Training', 'H3:Cluster, cost and power per MFU point', 'H2:Serving',
                   'H2:Reliability and cost', 'H2:Planner']) {
    assert(d.headings.includes(h), where(`no heading ${h}: ${d.headings.join(', ')}`));
  }
  const inputs = tableNamed(d, 'Input');
  assert(inputs && inputs.head.join('|') === 'Input|Value|Unit|Status', where(`inputs table head ${inputs && inputs.head}`));
  const mfu = tableNamed(d, 'MFU');
  assert(mfu && ['Device-hours', 'Cluster devices', 'Days on layout', 'Facility power'].every((h) => mfu.head.includes(h)),
         where(`per-MFU table head ${mfu && mfu.head}`));
  assert(mfu.rows.length === 3 && mfu.rows.every((r) => r.length === mfu.head.length && /%$/.test(r[0])),
         where(`per-MFU rows ${JSON.stringify(mfu.rows)}`));
  assert(d.tables.every((t) => t.caption && t.headScopes.every((s) => s === 'col') && t.rowHeaders),
         where('a table without a caption, column header scopes or row headers'));
  assert(d.liveRole === 'status', where('no live status for the mirror'));
}

export const tests = kSizes.flatMap((size) => {
  const where = (what) => `${size.name}: ${what}`;
  return [[`mirror (${size.name}): headings, tables with header cells and units, inputs as applied; current after an edit, a half-typed value and an import`, async ({ browser, origin, shots, site }) => {
    const { page, watch } = await openApp(browser, origin, size);
    const touch = !!size.hasTouch;
    let d = await mirrorData(page);
    await checkStructure(d, where);
    // The numbers are the ones the canvas shows.
    assert(resultRow(d, 'Minimum devices to hold the training state').startsWith(`${await widgetText(page, 'card:Devices to hold the training state')} at `),
           where('minimum devices differ from the card'));
    assert(sameRange(await widgetText(page, 'card:Devices for the schedule'), resultRow(d, 'Devices for 90 days')),
           where(`devices for the schedule: card ${await widgetText(page, 'card:Devices for the schedule')}, mirror ${resultRow(d, 'Devices for 90 days')}`));
    assert(inputRow(d, 'Schedule').join('|') === 'Schedule|90|days|applied', where(`schedule row ${inputRow(d, 'Schedule')}`));
    assert(inputRow(d, 'Training tokens')[2] === await widgetText(page, 'unit:training.tokens'), where('tokens unit differs from the field'));
    assert(/current/.test(d.paragraphs[1].text), where(`not said to be current: ${d.paragraphs[1].text}`));

    // An edit: the schedule, its row, the results and the card all follow.
    await scrollInputs(page, 'input:training.days', size);
    await typeInto(page, 'input:training.days', '45', touch);
    await untilText(page, (t) => /^Devices for 45 days: /m.test(t), where('the edit reaches the mirror'));
    d = await mirrorData(page);
    assert(inputRow(d, 'Schedule')[1] === '45', where(`schedule row after the edit: ${inputRow(d, 'Schedule')}`));
    assert(sameRange(await widgetText(page, 'card:Devices for the schedule'), resultRow(d, 'Devices for 45 days')),
           where('devices for the schedule after the edit differ from the card'));
    assert(/45-day/.test(tableNamed(d, 'MFU').caption), where(`per-MFU caption ${tableNamed(d, 'MFU').caption}`));

    // Half-typed: the row keeps the applied value and says it is being edited; Escape reverts.
    await scrollInputs(page, 'input:training.days', size);
    const r = await page.evaluate(() => window.sizerUi['input:training.days']);
    if (touch) await page.touchscreen.tap(r[0] + r[2] / 2, r[1] + r[3] / 2);
    else await page.mouse.click(r[0] + r[2] / 2, r[1] + r[3] / 2);
    await frames(page, 4);
    await page.keyboard.press('Control+A');
    await frames(page, 2);
    await page.keyboard.type('7', { delay: 30 });
    await untilText(page, (t) => /^Schedule \| 45 \| days \| being edited, not applied yet$/m.test(t), where('the half-typed 7 shown as applied'));
    d = await mirrorData(page);
    assert(resultRow(d, 'Devices for 45 days') && !resultRow(d, 'Devices for 7 days'), where('half-typed value computed'));
    assert(d.paragraphs.some((p) => p.kind === 'note' && /^Editing Schedule: .*not applied yet/.test(p.text)), where('no editing note'));
    await page.keyboard.press('Escape');
    await untilText(page, (t) => /^Schedule \| 45 \| days \| applied$/m.test(t), where('Escape leaves 45 applied'));

    // A dropped Hugging Face config.json: the scenario, the model rows and the results are the import's.
    const { default: createSizer } = await import(pathToFileURL(path.join(site, 'sizer.mjs')).href);
    const api = (await createSizer()).importHuggingFace(kLlamaConfig);
    const serial = await serialOf(page);
    await dropFile(page, 'config.json', kLlamaConfig);
    const m = await messageAfter(page, serial);
    assert(!m.error && /Imported the Hugging Face model .*Llama-3\.1-8B/.test(m.text), where(`import message: ${m.text}`));
    d = await mirrorData(page);
    for (let i = 0; i < 40 && !/Llama-3\.1-8B/.test(d.paragraphs[0].text); i++) { await frames(page, 2); d = await mirrorData(page); }
    assert(/^meta-llama\/Llama-3\.1-8B on /.test(d.paragraphs[0].text), where(`scenario after the import: ${d.paragraphs[0].text}`));
    assert(inputRow(d, 'Total parameters')[1] === g6(api.model.params / 1e9), where(`params ${inputRow(d, 'Total parameters')} vs API ${api.model.params}`));
    assert(inputRow(d, 'KV heads')[1] === '8' && inputRow(d, 'Layers')[1] === '32', where('imported shape rows'));
    assert(inputRow(d, 'Schedule')[1] === '90', where('the import does not reset the schedule to its default'));
    assert(sameRange(await widgetText(page, 'card:Devices for the schedule'), resultRow(d, 'Devices for 90 days')),
           where('devices after the import differ from the card'));
    await page.screenshot({ path: path.join(shots, `mirror-${size.name}.png`), fullPage: true });
    assertClean(watch);
    await watch.close();
  }], [`mirror (${size.name}): several invalid fields are listed by field, the results are marked last valid, markup stays text`, async ({ browser, origin }) => {
    const { page, watch } = await openApp(browser, origin, size);
    const touch = !!size.hasTouch;
    for (const [name, text] of [['input:training.tokens', '-5'], ['input:training.days', '0'], ['input:serving.batch', '0']]) {
      await scrollInputs(page, name, size);
      await typeInto(page, name, text, touch);
    }
    await untilText(page, (t) => /^Input problems \(3\)$/m.test(t), where('three problems listed'));
    const d = await mirrorData(page);
    assert(d.problems.length === 3, where(`problems ${d.problems}`));
    for (const [field, path] of [['Training tokens', 'training.tokens'], ['Schedule', 'training.days'], ['Batch', 'serving.batch']]) {
      assert(d.problems.some((p) => p.startsWith(`${path}: `) && p.endsWith(`(field: ${field})`)), where(`no problem naming ${field}: ${d.problems}`));
    }
    assert(/got -5 T/.test(d.problems.find((p) => p.startsWith('training.tokens'))), where('tokens error not in T'));
    assert(inputRow(d, 'Training tokens')[1] === '-5' && /^error: /.test(inputRow(d, 'Training tokens')[3]),
           where(`the typed invalid value and its error: ${inputRow(d, 'Training tokens')}`));
    assert(inputRow(d, 'Schedule')[1] === '0' && /^error: /.test(inputRow(d, 'Schedule')[3]), where(`schedule row ${inputRow(d, 'Schedule')}`));
    assert(d.paragraphs.some((p) => p.kind === 'error' && /3 problems .*last valid/.test(p.text)), where('no stale warning'));
    assert(!d.paragraphs.some((p) => /are current/.test(p.text)), where('results still called current'));
    for (const h of ['Training', 'Serving', 'Reliability and cost', 'Planner']) {
      assert(d.headings.includes(`H2:${h} (last valid results, not for the current input)`), where(`heading ${h} not marked: ${d.headings}`));
    }
    assert(/^3 input problems/.test(d.live), where(`live status ${d.live}`));
    // A model whose name is markup: it is shown as text, no element is made of it.
    const serial = await serialOf(page);
    await dropFile(page, 'config.json', JSON.stringify({ ...JSON.parse(kLlamaConfig), _name_or_path: '<img src=x onerror=alert(1)><b>m</b>' }));
    await messageAfter(page, serial);
    const t = await untilText(page, (x) => /^<img src=x onerror=alert\(1\)><b>m<\/b> on /m.test(x), where('the markup name as text'));
    assert(!/Input problems/.test(t), where('the import left the old problems listed'));
    assert((await mirrorData(page)).markup === 0, where('markup in the name became elements'));
    assertClean(watch);
    await watch.close();
  }]];
});
