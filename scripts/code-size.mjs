// Reports where the WebAssembly bytes of the app (index.wasm) and of the JS API (sizer.mjs's wasm)
// go, by origin; asserts nothing. The size budgets (docs/budgets.md) are about gzip of these files.
//   node scripts/code-size.mjs [BUILD_DIR] [TOP]      (defaults: build-web, 15)
//
// How: each target is linked again with function names (--profiling-funcs; the code is the same as
// the shipped build's, whose names Closure and -Oz drop), its functions are grouped by their
// demangled names, and each group's bodies are gzipped together (-9) as an estimate of what the
// group adds to the gzipped file. The data section (fonts, bundled tables, strings) is one row.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { functions, relinkWithNames, sections } from './wasm-functions.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const build = path.resolve(process.argv[2] || path.join(repo, 'build-web'));
const top = Number(process.argv[3] || 15);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sizer-code-size-'));

// First match wins, so a library template instantiated for a core type (std::vector<sizer::Device>)
// counts as core. Functions in a file's anonymous namespace outside sizer:: and sizer_web:: are
// the front ends' own (main.cpp's frame and page hooks, bindings.cpp's API functions).
const kOrigins = [
  ['front ends (main.cpp, bindings.cpp)', /^\(anonymous namespace\)::|^main$/],
  ['nlohmann::json', /nlohmann/],
  ['Dear ImGui and stb', /ImGui|\bIm[A-Z]|stbtt|stbrp|ImStb|STB_/],
  ['web UI (web/src)', /sizer_web::/],
  ['core (core/src)', /sizer::/],
  ['Embind', /emscripten::|_embind|embind/],
  ['libc++ / libc++abi', /std::|__cxa|__cxx|operator new|operator delete|__gxx/],
  ['GLFW and Emscripten runtime', /glfw|emscripten|^_?em_/i],
  ['libc (musl) and compiler runtime', /^[A-Za-z_0-9.]+$/],
];

function report(label, wasm) {
  const b = fs.readFileSync(wasm);
  const gz = (buf) => zlib.gzipSync(buf, { level: 9 }).length;
  const secs = sections(b);
  const code = secs.find((s) => s.id === 10), data = secs.find((s) => s.id === 11);
  const fns = functions(wasm);
  const groups = new Map();
  for (const f of fns) {
    const origin = (kOrigins.find(([, re]) => re.test(f.name)) || ['other'])[0];
    if (!groups.has(origin)) groups.set(origin, []);
    groups.get(origin).push(f);
  }
  const total = fns.reduce((s, f) => s + f.size, 0);
  console.log(`\n${label}: code ${code.n} bytes (gzip -9 alone ${gz(b.subarray(code.at, code.at + code.n))}), ` +
              `data ${data ? data.n : 0} bytes (gzip -9 alone ${data ? gz(b.subarray(data.at, data.at + data.n)) : 0})`);
  console.log('  origin                              functions      bytes   share   gzip -9 of the group');
  for (const [origin, list] of [...groups].sort((x, y) => y[1].reduce((s, f) => s + f.size, 0) - x[1].reduce((s, f) => s + f.size, 0))) {
    const bytes = list.reduce((s, f) => s + f.size, 0);
    const body = Buffer.concat(list.map((f) => b.subarray(f.at, f.at + f.size)));
    console.log(`  ${origin.padEnd(34)} ${String(list.length).padStart(9)} ${String(bytes).padStart(10)} ${(100 * bytes / total).toFixed(1).padStart(6)}%  ${String(gz(body)).padStart(8)}`);
  }
  console.log(`  largest functions:`);
  for (const f of [...fns].sort((x, y) => y.size - x.size).slice(0, top)) {
    console.log(`  ${String(f.size).padStart(8)}  ${f.name.length > 110 ? f.name.slice(0, 107) + '...' : f.name}`);
  }
}

report('app (index.wasm, the hosted app; the offline file inlines the same code)',
       relinkWithNames(build, 'sizer_web', path.join(work, 'index.js')));
report('JS API (sizer.mjs)', relinkWithNames(build, 'sizer_js_core', path.join(work, 'sizer-core.mjs')));
const fonts = path.join(build, 'web', 'fonts');
if (fs.existsSync(fonts)) {
  console.log('\nsubset fonts in the app\'s data (raw / gzip -9): ' + fs.readdirSync(fonts).map((f) => {
    const x = fs.readFileSync(path.join(fonts, f));
    return `${f.replace('.subset.ttf', '')} ${x.length} / ${zlib.gzipSync(x, { level: 9 }).length}`;
  }).join(', '));
}
const lean = path.join(build, 'assets', 'lean');
if (fs.existsSync(lean)) {
  const all = Buffer.concat(fs.readdirSync(lean).map((f) => fs.readFileSync(path.join(lean, f))));
  console.log(`bundled tables in both wasm files (lean JSON, raw / gzip -9): ${all.length} / ${zlib.gzipSync(all, { level: 9 }).length}`);
}
fs.rmSync(work, { recursive: true, force: true });
