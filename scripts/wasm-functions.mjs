// Shared by scripts/start-path.mjs and scripts/code-size.mjs: relinking a build's WebAssembly with
// function names, and reading a wasm file's sections and its functions' names and code sizes.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

// Relinks target TARGET of BUILD/web (its link.txt) with --profiling-funcs into OUT_JS (wasm beside
// it), without the page shell and Closure, which do not change the wasm's code.
export function relinkWithNames(build, target, outJs) {
  const linkDir = path.join(build, 'web');
  let link = fs.readFileSync(path.join(linkDir, `CMakeFiles/${target}.dir/link.txt`), 'utf8').trim();
  link = link.replace(/^.*?(\/\S*em\+\+)/, '$1')            // drop the `cmake -E env ...` prefix
    .replace(/--shell-file \S+/, '').replace(/--closure 1/, '')
    .replace(/-o \S+/, `--profiling-funcs -o ${outJs}`);
  execFileSync('bash', ['-c', link], { cwd: linkDir, stdio: 'inherit', env: { ...process.env, NODE_PATH: '/usr/share/nodejs' } });
  return outJs.replace(/\.m?js$/, '.wasm');
}

function leb(b, i) {
  let r = 0, s = 0;
  for (;;) { const x = b[i++]; r += (x & 0x7f) * 2 ** s; s += 7; if (x < 0x80) return [r, i]; }
}

// The sections of a wasm file: [{ id, at, n }] (id 10 code, 11 data, 0 custom).
export function sections(b) {
  const out = [];
  for (let i = 8; i < b.length;) {
    const id = b[i++]; const [n, j] = leb(b, i); out.push({ id, at: j, n }); i = j + n;
  }
  return out;
}

// Every defined function's name (from the name section), code size in bytes and offset in the file.
export function functions(file) {
  const b = fs.readFileSync(file);
  const all = sections(b);
  let imports = 0;
  const names = new Map();
  for (const { id, at, n } of all) {
    if (id === 2) {  // count function imports
      let [c, j] = leb(b, at);
      for (let k = 0; k < c; k++) {
        let l; [l, j] = leb(b, j); j += l; [l, j] = leb(b, j); j += l;
        const kind = b[j++];
        if (kind === 0) { [, j] = leb(b, j); imports++; }
        else if (kind === 1) { j++; const f = b[j++]; [, j] = leb(b, j); if (f & 1) [, j] = leb(b, j); }
        else if (kind === 2) { const f = b[j++]; [, j] = leb(b, j); if (f & 1) [, j] = leb(b, j); }
        else if (kind === 3) j += 2;
      }
    }
    if (id === 0) {
      let [l, j] = leb(b, at);
      if (b.toString('latin1', j, j + l) !== 'name') continue;
      j += l;
      while (j < at + n) {
        const sub = b[j++]; let size; [size, j] = leb(b, j);
        if (sub === 1) {
          let [c, k] = leb(b, j);
          for (let x = 0; x < c; x++) {
            let idx, len; [idx, k] = leb(b, k); [len, k] = leb(b, k);
            names.set(idx, b.toString('utf8', k, k + len)); k += len;
          }
        }
        j += size;
      }
    }
  }
  const out = [];
  for (const { id, at } of all) {
    if (id !== 10) continue;
    let [c, j] = leb(b, at);
    for (let f = 0; f < c; f++) {
      let size; [size, j] = leb(b, j);
      out.push({ name: names.get(imports + f) || `#${imports + f}`, size, at: j }); j += size;
    }
  }
  return out;
}
