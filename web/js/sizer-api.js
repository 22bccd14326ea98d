// ---------------------------------------------------------------------------------------------
// Sizer JS API (appended by the build to the Emscripten module factory above; see web/js/).
// One ES module for browsers and Node 18+, WebAssembly inlined, no network requests:
//
//   import createSizer from './sizer.mjs';            // or: import { createSizer } from ...
//   const sizer = await createSizer();
//   const result = sizer.evaluate({ model: 'moe-1t', device: 'h100' });  // object or JSON text
//   result.training.compute.device_hours;              // the same document as `sizer eval`
//   sizer.listDevices(); sizer.listModels(); sizer.listPrices(); sizer.listSystems();
//   sizer.version;                                      // "1.0.0" (contract: sizer.contract, "v1")
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

export async function createSizer(options) {
  const core = await createSizerCore(options || {});
  const table = (name) => JSON.parse(core.list(name));
  return Object.freeze({
    version: core.version(),
    contract: core.contract(),
    evaluate(scenario) {
      let text;
      if (typeof scenario === 'string') {
        text = scenario;
      } else if (scenario !== null && typeof scenario === 'object' && !Array.isArray(scenario)) {
        text = JSON.stringify(scenario);
      } else {
        throw sizerIssueError([{ path: '', message: 'must be a scenario object or its JSON text' }]);
      }
      const out = JSON.parse(core.evaluate(text));
      if (out.issues) throw sizerIssueError(out.issues);
      return out;
    },
    listDevices: () => table('devices'),
    listModels: () => table('models'),
    listPrices: () => table('prices'),
    listSystems: () => table('systems'),
  });
}

export default createSizer;
