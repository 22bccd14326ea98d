// Issue 11 item 8, paste: Ctrl+V on the page imports the clipboard's text exactly as dropping it
// as a file does: a Hugging Face config.json (Llama-style; DeepSeek-V3-style MoE with MLA and an
// FP8 quantization_config) becomes the scenario's model and the message says what was imported;
// malformed text is refused with a message naming what is wrong, and nothing changes; a file in
// the paste's clipboardData imports too. While a text field of the app is being edited, the paste
// goes into that field instead. Real keyboard pastes (the clipboard written through
// navigator.clipboard), at desktop (1280×800) and phone (390×844, touch) size; the imported shapes
// are checked against the JS API's importHuggingFace of the same text.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { assert, assertClean, frames, messageAfter, openPage, press, resultsText, screenshot, scrollInputs, serialOf, untilText,
         waitForFirstFrame } from './lib.mjs';

const kSizes = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 },
  { name: 'phone', viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, hasTouch: true },
];

export const kLlama = JSON.stringify({
  _name_or_path: 'meta-llama/Llama-3.1-8B', architectures: ['LlamaForCausalLM'], model_type: 'llama', hidden_size: 4096,
  intermediate_size: 14336, num_hidden_layers: 32, num_attention_heads: 32, num_key_value_heads: 8, vocab_size: 128256,
  max_position_embeddings: 131072, tie_word_embeddings: false, torch_dtype: 'bfloat16' }, null, 2);
export const kDeepSeek = JSON.stringify({
  _name_or_path: 'deepseek-ai/DeepSeek-V3', architectures: ['DeepseekV3ForCausalLM'], model_type: 'deepseek_v3',
  hidden_size: 7168, intermediate_size: 18432, moe_intermediate_size: 2048, num_hidden_layers: 61, num_attention_heads: 128,
  num_key_value_heads: 128, q_lora_rank: 1536, kv_lora_rank: 512, qk_nope_head_dim: 128, qk_rope_head_dim: 64, v_head_dim: 128,
  n_routed_experts: 256, n_shared_experts: 1, num_experts_per_tok: 8, first_k_dense_replace: 3, vocab_size: 129280,
  quantization_config: { quant_method: 'fp8', fmt: 'e4m3', weight_block_size: [128, 128] } });

async function openApp(browser, origin, size) {
  const opened = await openPage(browser, { allow: (u) => u.startsWith(origin + '/'), viewport: size.viewport, shared: true,
                                           deviceScaleFactor: size.deviceScaleFactor, hasTouch: !!size.hasTouch,
                                           permissions: ['clipboard-read', 'clipboard-write'], origin });
  await opened.page.goto(`${origin}/index.html`);
  await waitForFirstFrame(opened.page);
  return opened;
}

// Puts `text` on the system clipboard and pastes it with the keyboard, as a person does.
async function pasteKeys(page, text) {
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await page.keyboard.press('Control+V');
  await frames(page, 4);
}

async function pasted(page, text) {
  const serial = await serialOf(page);
  await pasteKeys(page, text);
  return messageAfter(page, serial);
}

// The mirror's inputs table as {label: value}.
const inputs = (page) => page.evaluate(() => {
  const t = [...document.querySelectorAll('#results-text table')].find((x) => x.querySelector('thead th')?.textContent === 'Input');
  return Object.fromEntries([...t.querySelectorAll('tbody tr')].map((tr) => [tr.children[0].textContent, tr.children[1].textContent]));
});
const g6 = (x) => String(Number(x.toPrecision(6)));  // printf's %.6g, as the inputs panel shows a number

// Waits until the mirror shows `model` as the scenario's model, then returns its inputs.
async function importedInputs(page, model, where) {
  await untilText(page, (t) => t.split('\n')[1].startsWith(`${model} on `), where(`the mirror shows ${model}`));
  await frames(page, 3);
  return inputs(page);
}

export const tests = kSizes.map((size) => [`paste (${size.name}): Ctrl+V imports a Llama and a DeepSeek-V3 config.json, refuses malformed text, imports a pasted file, and pastes into a field being edited`, async ({ browser, origin, shots, site }) => {
  const where = (what) => `${size.name}: ${what}`;
  const { default: createSizer } = await import(pathToFileURL(path.join(site, 'sizer.mjs')).href);
  const api = await createSizer();
  const { page, watch } = await openApp(browser, origin, size);

  // A Llama-style config: the model is converted and the message says what was imported.
  let m = await pasted(page, kLlama);
  assert(!m.error && /^Imported the Hugging Face model "meta-llama\/Llama-3\.1-8B" from the pasted text/.test(m.text),
         where(`Llama message: ${m.text}`));
  const llama = api.importHuggingFace(kLlama).model;
  assert(m.text.includes(`${Number((llama.params / 1e9).toPrecision(4))} B parameters, 32 layers, hidden size 4096, 32 attention heads`) &&
         m.text.includes('Attention: GQA, 8 KV heads of dimension 128'), where(`Llama shape not said: ${m.text}`));
  let rows = await importedInputs(page, 'meta-llama/Llama-3.1-8B', where);
  assert(rows['Total parameters'] === g6(llama.params / 1e9) && rows.Kind === 'Dense' && rows['KV heads'] === '8' &&
         rows.Layers === '32' && rows['Hidden size'] === '4096', where(`Llama inputs ${JSON.stringify(rows)}`));
  await screenshot(page, path.join(shots, `paste-llama-${size.name}.png`));

  // DeepSeek-V3: mixture of experts, MLA, FP8 weights from quantization_config.
  m = await pasted(page, kDeepSeek);
  const ds = api.importHuggingFace(kDeepSeek).model;
  assert(!m.error && m.text.includes('"deepseek-ai/DeepSeek-V3"') && m.text.includes('Attention: MLA, KV latent width 512, RoPE key width 64') &&
         m.text.includes('Mixture of experts: 256 routed experts, 8 per token, 1 shared, on 58 layers') &&
         m.text.includes('serving.weight_precision fp8'), where(`DeepSeek message: ${m.text}`));
  rows = await importedInputs(page, 'deepseek-ai/DeepSeek-V3', where);
  assert(rows.Kind === 'Mixture of experts' && rows['Total parameters'] === g6(ds.params / 1e9) &&
         rows['Active parameters'] === g6(ds.active_params / 1e9) && rows['Routed experts'] === '256' &&
         rows['Experts per token'] === '8' && rows['KV latent width'] === '512' && rows['Weight precision'] === 'FP8',
         where(`DeepSeek inputs ${JSON.stringify(rows)} vs API ${ds.params} / ${ds.active_params}`));
  await screenshot(page, path.join(shots, `paste-deepseek-${size.name}.png`));

  // Malformed text: a clear error naming what is wrong; the scenario and its results stay.
  const before = await resultsText(page);
  m = await pasted(page, kLlama.slice(0, 120));
  assert(m.error && /^Could not import the pasted text/.test(m.text) && /line \d+, column \d+/.test(m.text) &&
         /Nothing was changed/.test(m.text), where(`truncated JSON message: ${m.text}`));
  m = await pasted(page, '{"model_type": "llama", "hidden_size": 4096}');
  assert(m.error && /config\.num_hidden_layers: is required/.test(m.text), where(`incomplete config message: ${m.text}`));
  m = await pasted(page, 'hello, not JSON');
  assert(m.error && /Could not import the pasted text/.test(m.text), where(`plain text message: ${m.text}`));
  await frames(page, 6);
  assert(await resultsText(page) === before, where('a refused paste changed the scenario'));
  await screenshot(page, path.join(shots, `paste-refused-${size.name}.png`));

  // A file in the paste's clipboardData (a file copied in a file manager) imports like a drop.
  let serial = await serialOf(page);
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'llama-config.json', { type: 'application/json' }));
    document.getElementById('canvas').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, kLlama);
  m = await messageAfter(page, serial);
  assert(!m.error && /from "llama-config\.json"/.test(m.text), where(`pasted file message: ${m.text}`));
  await importedInputs(page, 'meta-llama/Llama-3.1-8B', where);

  // While a field is being edited the paste goes into it: no import, the field gets the text.
  await press(page, 'button:dismiss', !!size.hasTouch);  // the import's message takes room from the inputs on a phone
  await scrollInputs(page, 'input:training.days', size);
  await press(page, 'input:training.days', !!size.hasTouch);
  await page.keyboard.press('Control+A');
  await frames(page, 2);
  serial = await serialOf(page);
  await pasteKeys(page, '30');
  await untilText(page, (t) => /^Schedule \| 90 \| days \| being edited, not applied yet$/m.test(t), where('the pasted 30 is typed, not applied'));
  await page.keyboard.press('Enter');
  await untilText(page, (t) => /^Devices for 30 days: /m.test(t), where('the pasted 30 applied with Enter'));
  assert(await serialOf(page) === serial, where('a paste into a field was imported'));
  assert((await importedInputs(page, 'meta-llama/Llama-3.1-8B', where)).Schedule === '30', where('schedule after the field paste'));
  assertClean(watch);
  await watch.close();
}]);
