// The JS API (site/sizer.mjs) in Node against the native CLI on the same cases as
// tests/cli_test.sh: eval (JSON, CSV, Markdown) of the defaults and every example, the tables,
// `sizer table` in every format, the invalid inputs (same JSON paths in the messages), user
// tables, links, and plan. Each JS answer must equal what the CLI prints.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { assert } from './lib.mjs';
import { compareJson } from './api.test.mjs';

function same(a, b, where) {
  const cmp = compareJson(a, b);
  assert(cmp.mismatches.length === 0, `${where}:\n  ${cmp.mismatches.slice(0, 6).join('\n  ')}`);
}

// Text outputs with numbers: equal line by line, numbers within 1e-12.
function sameText(a, b, where) {
  if (a === b) return;
  const la = a.split('\n'), lb = b.split('\n');
  assert(la.length === lb.length, `${where}: ${la.length} lines != ${lb.length}`);
  la.forEach((line, i) => {
    if (line === lb[i]) return;
    const ta = line.split(','), tb = lb[i].split(',');
    const ok = ta.length === tb.length && ta.every((t, k) => t === tb[k] ||
      (Number.isFinite(+t) && Math.abs(t - tb[k]) <= 1e-12 * Math.max(Math.abs(+t), Math.abs(+tb[k]))));
    assert(ok, `${where}: line ${i}:\n  js:  ${line}\n  cli: ${lb[i]}`);
  });
}

export const tests = [
  ['JS API in Node covers the CLI tests: eval, formats, tables, invalid input, user tables, links', async ({ site, cli, examples }) => {
    const { default: createSizer } = await import(pathToFileURL(path.join(site, 'sizer.mjs')).href);
    const sizer = await createSizer();
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sizer-api-'));
    const run = (args, input) => execFileSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 26, input });
    let checks = 0;

    same(sizer.evaluate('{}'), JSON.parse(run(['eval', '-'], '{}')), 'eval defaults');
    for (const [name, { text }] of Object.entries(examples)) {
      const file = path.join(tmp, name);
      fs.writeFileSync(file, text);
      sameText(sizer.exportResults(text, 'csv'), run(['eval', file, '--format', 'csv']), `${name} csv`);
      sameText(sizer.exportResults(text, 'markdown'), run(['eval', file, '--format', 'markdown']), `${name} markdown`);
      same(JSON.parse(sizer.exportResults(text, 'json')), JSON.parse(run(['eval', file])), `${name} json`);
      // A link of the example opens the same scenario.
      same(sizer.evaluate(sizer.decodeLink(sizer.encodeLink(text))), JSON.parse(run(['eval', file])), `${name} via a link`);
      checks += 4;
    }
    for (const [table, fn] of [['devices', 'listDevices'], ['prices', 'listPrices'], ['models', 'listModels'], ['systems', 'listSystems']]) {
      same(sizer[fn](), JSON.parse(run(['list', table, '--json'])), `list ${table}`);
      checks++;
    }
    // A Hugging Face config.json converts to the same v1 model object through both (issue 11 item 8).
    const hf = JSON.stringify({ model_type: 'deepseek_v3', hidden_size: 7168, intermediate_size: 18432,
      moe_intermediate_size: 2048, num_hidden_layers: 61, num_attention_heads: 128, q_lora_rank: 1536, kv_lora_rank: 512,
      qk_nope_head_dim: 128, qk_rope_head_dim: 64, v_head_dim: 128, n_routed_experts: 256, n_shared_experts: 1,
      num_experts_per_tok: 8, first_k_dense_replace: 3, vocab_size: 129280, quantization_config: { quant_method: 'fp8' } });
    same(sizer.importHuggingFace(hf), JSON.parse(run(['import-hf', '-'], hf)), 'import-hf');
    same(sizer.evaluate({ model: sizer.importHuggingFace(hf).model }), JSON.parse(run(['eval', '-'],
      JSON.stringify({ model: JSON.parse(run(['import-hf', '-'], hf)).model }))), 'eval of an imported model');
    // Dense GQA (Llama 3.1 8B) and MoE (Mixtral 8x7B) too: the same v1 model object through both,
    // which both accept as a scenario's model, with the published totals (8.03B; 46.7B, 12.9B active).
    const hfMore = [
      [{ model_type: 'llama', architectures: ['LlamaForCausalLM'], hidden_size: 4096, intermediate_size: 14336, num_hidden_layers: 32,
         num_attention_heads: 32, num_key_value_heads: 8, vocab_size: 128256, tie_word_embeddings: false }, 8.03e9, 8.03e9],
      [{ model_type: 'mixtral', architectures: ['MixtralForCausalLM'], hidden_size: 4096, intermediate_size: 14336, num_hidden_layers: 32,
         num_attention_heads: 32, num_key_value_heads: 8, vocab_size: 32000, num_local_experts: 8, num_experts_per_tok: 2 }, 46.7e9, 12.9e9],
    ];
    for (const [cfg, total, active] of hfMore) {
      const text = JSON.stringify(cfg);
      const js = sizer.importHuggingFace(text), native = JSON.parse(run(['import-hf', '-'], text));
      same(js, native, `import-hf ${cfg.model_type}`);
      assert(Math.abs(js.model.params / total - 1) < 0.005 && Math.abs(js.model.active_params / active - 1) < 0.01,
             `${cfg.model_type}: ${js.model.params} / ${js.model.active_params} parameters, published ${total} / ${active}`);
      const echoed = JSON.parse(run(['eval', '-'], JSON.stringify({ model: native.model }))).scenario.model;
      assert(echoed.params === js.model.params && echoed.layers === cfg.num_hidden_layers,
             `${cfg.model_type}: the CLI's eval does not take the imported model as given: ${JSON.stringify(echoed).slice(0, 200)}`);
      same(sizer.evaluate({ model: js.model }), JSON.parse(run(['eval', '-'], JSON.stringify({ model: native.model }))),
           `eval of an imported ${cfg.model_type}`);
      checks += 4;
    }
    let refused = null;
    try { sizer.importHuggingFace('{"model_type": "llama", "hidden_size": 64}'); } catch (e) { refused = e; }
    assert(refused && /config\.num_hidden_layers/.test(refused.message), `import-hf refusal: ${refused && refused.message}`);
    checks += 3;
    sameText(sizer.compare('{}', { format: 'text' }), run(['table']), 'table text');
    sameText(sizer.compare('{}', { format: 'csv' }), run(['table', '--format', 'csv']), 'table csv');
    sameText(sizer.compare('{}', { format: 'markdown', devices: ['h100', 'gb200'] }),
             run(['table', '--format', 'markdown', '--devices', 'h100,gb200']), 'table markdown');
    same(sizer.compare('{}', { precisions: ['fp8'] }), JSON.parse(run(['table', '--format', 'json', '--precisions', 'fp8'])), 'table json');
    checks += 4;

    // Invalid input: the JS Error names the same JSON path as the CLI's message.
    const bad = [
      ['{"model": ', 'not valid JSON'], ['{"training": {"days": "x"}}', 'training.days: must be'],
      ['{"serving": {"batch": -1}}', 'serving.batch: must be'], ['{"training": {"goodput": 0}}', 'training.goodput: must be'],
      ['{"training": {"tokens": 1e308}}', 'training.tokens: must be'], ['{"training": {"days": NaN}}', 'not valid JSON'],
      ['{"device": "h1000"}', 'device: unknown device'], ['{"model": "x"}', 'model: unknown model'],
      ['{"model": {"params": 1e9, "layers": 2, "hidden": 64}}', 'model.heads: is required'], ['{"servng": {}}', 'servng: unknown field'],
    ];
    for (const [text, pattern] of bad) {
      const r = spawnSync(cli, ['eval', '-'], { input: text, encoding: 'utf8' });
      assert(r.status === 2 && r.stderr.includes(pattern), `CLI on ${text}: ${r.status} ${r.stderr}`);
      let message = '';
      try { sizer.evaluate(text); } catch (e) { message = e.message; }
      assert(message.includes(pattern), `JS on ${text}: "${message}" lacks "${pattern}"`);
      let exportMessage = '';
      try { sizer.exportResults(text, 'csv'); } catch (e) { exportMessage = e.message; }
      assert(exportMessage.includes(pattern), `exportResults on ${text}: "${exportMessage}"`);
      checks += 2;
    }
    let precisionMessage = '';
    try { sizer.compare('{}', { precisions: ['fp7'] }); } catch (e) { precisionMessage = e.message; }
    assert(/unknown precision/.test(precisionMessage), `bad precision: ${precisionMessage}`);
    let formatMessage = '';
    try { sizer.exportResults('{}', 'yaml'); } catch (e) { formatMessage = e.message; }
    assert(/must be json, csv or markdown/.test(formatMessage), `bad format: ${formatMessage}`);

    // User tables: the same file the CLI accepts with --tables; a bad one is refused with its path.
    const tables = '{"devices": [{"id": "x1", "name": "X1", "memory_bytes": 1e11, "hbm_bytes_per_s": 1e12, "dense_flops": {"bf16": 1e15}, "scale_up_bytes_per_s": 1e11}]}';
    fs.writeFileSync(path.join(tmp, 'u.json'), tables);
    assert(/x1.*user-supplied/.test(run(['list', 'devices', '--tables', path.join(tmp, 'u.json')])), 'CLI user tables');
    const imported = sizer.importFile(tables);
    assert(imported.kind === 'tables' && imported.tables.devices[0].id === 'x1', `importFile: ${JSON.stringify(imported)}`);
    let tableMessage = '';
    try { sizer.importFile('{"devices": [{"id": "x"}]}'); } catch (e) { tableMessage = e.message; }
    assert(/devices\[0\]/.test(tableMessage), `bad tables: ${tableMessage}`);
    assert(sizer.importFile('{"model": "moe-1t"}').scenario.model === 'moe-1t', 'importFile scenario');
    let linkMessage = '';
    try { sizer.decodeLink('s2.e30'); } catch (e) { linkMessage = e.message; }
    assert(/version/.test(linkMessage), `bad link: ${linkMessage}`);

    // Plan (the layout model), as `sizer plan`.
    const megatron = examples['megatron-3072-a100.json'].text;
    same(sizer.plan(megatron), JSON.parse(run(['plan', '-'], megatron)), 'plan');

    // Serve (the serving performance model), as `sizer eval`'s serving.performance.
    const served = examples['serve-llama-3-70b-h100.json'].text;
    same(sizer.serve(served), JSON.parse(run(['eval', '-'], served)).serving.performance, 'serve');
    let serveMessage = '';
    try { sizer.serve(megatron); } catch (e) { serveMessage = e.message; }
    assert(/serving\.workload/.test(serveMessage), `serve() without a workload: ${serveMessage}`);

    // Serve-search, as `sizer serve-search` (search_s is each runtime's own wall-clock time).
    const untimed = (r) => { const { search_s, ...rest } = r; assert(search_s >= 0, 'search_s'); return rest; };
    same(untimed(sizer.serveSearch(served)), untimed(JSON.parse(run(['serve-search', '-'], served))), 'serveSearch');
    let searchMessage = '';
    try { sizer.serveSearch(megatron); } catch (e) { searchMessage = e.message; }
    assert(/serving\.workload/.test(searchMessage), `serveSearch() without a workload: ${searchMessage}`);

    // Embed cards use the same numbers.
    const card = sizer.embedCard({ scenario: JSON.parse(megatron), show: ['cost_usd', 'cluster_devices'] });
    const expected = JSON.parse(run(['eval', '-'], megatron));
    same(card.outputs[0].value, expected.training.compute.cost_usd, 'embed cost_usd');
    same(card.outputs[1].value, expected.training.compute.cluster_devices, 'embed cluster_devices');
    console.log(`      ${checks} JS-vs-CLI comparisons`);
  }],
];
