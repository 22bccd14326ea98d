// ---------------------------------------------------------------------------------------------
// Sizer JS API (appended by the build to the Emscripten module factory above; see web/js/).
// One ES module for browsers and Node 18+, WebAssembly inlined, no network requests:
//
//   import createSizer from './sizer.mjs';            // or: import { createSizer } from ...
//   const sizer = await createSizer();
//   const result = sizer.evaluate({ model: 'moe-1t', device: 'h100' });  // object or JSON text
//   result.training.compute.device_hours;              // the same document as `sizer eval`
//   sizer.listDevices(); sizer.listModels(); sizer.listPrices(); sizer.listSystems();
//   sizer.plan(scenario);    // training.layout through the layout model: same as `sizer plan`
//   sizer.search(scenario);  // best layouts for training.search: same as `sizer search`
//                            // (search_s = the search's wall-clock seconds in this runtime)
//   sizer.serveSearch(scenario);  // `sizer serve-search`: Pareto front, best, fleet (search_s
//                                 // = the search's wall-clock seconds in this runtime)
//   sizer.serveSearchChips(scenario, ['h100', 'gb200']);  // `sizer serve-search --devices`: the
//                                 // search on every chip (or those listed), best and front each
//   sizer.serve(scenario);   // serving.performance of a scenario with serving.workload: the
//                            // serving model's prediction, the same leaves as `sizer eval`
//   sizer.version;                                      // "1.0.0" (contract: sizer.contract, "v1")
//   sizer.encodeLink(scenario);             // "s1.…" (the calculator's #fragment); decodeLink(text) back
//   sizer.exportResults(scenario, 'csv');   // 'json' | 'csv' | 'markdown': same as `sizer eval --format`
//   sizer.compare(scenario, { precisions: ['bf16'], devices: ['h100'], format: 'csv' });  // `sizer table`
//   sizer.importFile(text);                 // {kind: 'scenario', scenario} | {kind: 'tables', tables}
//   sizer.importHuggingFace(configText);    // a Hugging Face config.json → {model, architecture,
//                                           // weight_precision, notes}, as `sizer import-hf`
//   sizer.embedCard('s=s1.…&show=cost_usd'); // the card embed.html shows (or pass a request object)
//
// Invalid input throws an Error whose message lists "path: message" lines and whose `issues`
// property is the array [{path, message}]; the module itself keeps working.
// ---------------------------------------------------------------------------------------------
function sizerIssueError(issues) {
  const lines = issues.map((i) => (i.path ? i.path : '(scenario)') + ': ' + i.message);
  const error = new Error('invalid scenario:\n' + lines.join('\n'));
  error.name = 'SizerInputError';
  error.issues = issues;
  return error;
}

// Calls a core function that takes scenario JSON text (from an object or text) and returns JSON
// text or {"issues": [...]}.
function sizerCall(fn, scenario) {
  let text;
  if (typeof scenario === 'string') {
    text = scenario;
  } else if (scenario !== null && typeof scenario === 'object' && !Array.isArray(scenario)) {
    text = JSON.stringify(scenario);
  } else {
    throw sizerIssueError([{ path: '', message: 'must be a scenario object or its JSON text' }]);
  }
  const out = JSON.parse(fn(text));
  if (out.issues) throw sizerIssueError(out.issues);
  return out;
}

// Unwraps a sharing function's {"issues"} answer into the documented Error.
function sizerShared(text) {
  const out = JSON.parse(text);
  if (out.issues) throw sizerIssueError(out.issues);
  return out;
}

// The factory's WebAssembly, decoded from SIZER_WASM_LZMA_BASE64 (written above this file by
// web/cmake/join_api.py) with sizerUnlzma (web/js/lzma.js) and compiled once per page or process:
// no file, no request.
let sizerWasm = null;
function sizerWasmModule() {
  if (!sizerWasm) {
    sizerWasm = (async () => {
      const binary = atob(SIZER_WASM_LZMA_BASE64);
      const bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      return WebAssembly.compile(sizerUnlzma(bytes));
    })();
  }
  return sizerWasm;
}

export async function createSizer(options) {
  const opts = options || {};
  let instantiateWasm = opts.instantiateWasm;
  if (!instantiateWasm) {
    const module = await sizerWasmModule();
    instantiateWasm = (imports, receive) => {
      WebAssembly.instantiate(module, imports).then((instance) => receive(instance, module));
      return {};  // the exports arrive through receive()
    };
  }
  const core = await createSizerCore({ ...opts, instantiateWasm });
  const table = (name) => JSON.parse(core.list(name));
  return Object.freeze({
    version: core.version(),
    contract: core.contract(),
    evaluate: (scenario) => sizerCall(core.evaluate, scenario),
    listDevices: () => table('devices'),
    listModels: () => table('models'),
    listPrices: () => table('prices'),
    listSystems: () => table('systems'),
    plan: (scenario) => sizerCall(core.plan, scenario),
    search: (scenario) => sizerCall(core.search, scenario),
    serveSearch: (scenario) => sizerCall(core.serveSearch, scenario),
    importHuggingFace(config) {
      const text = typeof config === 'string' ? config : JSON.stringify(config);
      return sizerShared(core.importHuggingFace(String(text)));
    },
    serveSearchChips(scenario, devices) {
      if (devices !== undefined && !(Array.isArray(devices) && devices.every((d) => typeof d === 'string'))) {
        throw sizerIssueError([{ path: 'devices', message: 'must be a list of device ids (or absent: every chip)' }]);
      }
      return sizerCall((text) => core.serveSearchChips(text, (devices || []).join(',')), scenario);
    },
    serve(scenario) {
      const out = sizerCall(core.evaluate, scenario);
      const perf = out.serving && out.serving.performance;
      if (!perf) {
        throw sizerIssueError([{ path: 'serving.workload',
          message: 'is required for serve(): input_tokens, output_tokens and concurrency or requests_per_s' }]);
      }
      return perf;
    },
    encodeLink: (scenario) => sizerCall(core.encodeLink, scenario).link,
    decodeLink: (fragment) => sizerShared(core.decodeLink(String(fragment))).scenario,
    exportResults: (scenario, format = 'json') =>
      sizerShared(core.exportResults(sizerCall((t) => JSON.stringify({ text: t }), scenario).text, String(format))).text,
    compare(scenario, options = {}) {
      const text = sizerCall((t) => JSON.stringify({ text: t }), scenario).text;
      const format = options.format || 'json';
      const out = sizerShared(core.compare(text, JSON.stringify({ ...options, format }))).text;
      return format === 'json' ? JSON.parse(out) : out;
    },
    importFile(text) {
      const out = sizerShared(core.importDocument(String(text)));
      return out.kind === 'tables' ? { kind: 'tables', tables: out.tables } : { kind: 'scenario', scenario: out.scenario };
    },
    embedRequest: (fragment) => JSON.parse(core.embedRequest(String(fragment))),
    embedCard(request) {
      const req = typeof request === 'string' ? core.embedRequest(request) : JSON.stringify(request || {});
      return JSON.parse(core.embedCard(req));
    },
  });
}

export default createSizer;
