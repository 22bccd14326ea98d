// The LZMA decoder of sizer.mjs (web/js/lzma.js) against the build's own compressor
// (web/cmake/wasm_inline.py compress_lzma: Python's lzma module), on data that exercises literals,
// long matches, repeated distances and the largest distances: seeded random bytes, zeros, text with
// variations, and the app's own index.wasm. Broken input (truncated, a bit flipped, a header that is
// not LZMA or claims an absurd size) ends in an Error or in output of the stated length, never in a
// hang. sizer.mjs then works in a runtime without DecompressionStream, which it no longer needs.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { assert } from './lib.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const source = fs.readFileSync(path.join(repo, 'web/js/lzma.js'), 'utf8');
const unlzma = vm.runInNewContext(`${source}\nsizerUnlzma`, { Uint8Array, Uint16Array, Error, Math });

// Compressed by the same function the build uses.
function compress(bytes) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sizer-lzma-'));
  const file = path.join(dir, 'data');
  fs.writeFileSync(file, bytes);
  const script = `import sys; sys.path.insert(0, ${JSON.stringify(path.join(repo, 'web/cmake'))});\n` +
                 `from wasm_inline import compress_lzma; sys.stdout.buffer.write(compress_lzma(sys.argv[1]))`;
  const out = execFileSync('python3', ['-c', script, file], { maxBuffer: 1 << 26 });
  fs.rmSync(dir, { recursive: true, force: true });
  return new Uint8Array(out);
}

function seeded(n, seed) {  // xorshift32 bytes
  const out = new Uint8Array(n);
  let x = seed >>> 0;
  for (let i = 0; i < n; i++) { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; out[i] = x & 0xff; }
  return out;
}

function samples(site) {
  const words = ['device', 'hours', 'tokens', 'layout', 'expert', 'serving', 'cost', 'per', 'the', 'a'];
  const rnd = seeded(40000, 7);
  let text = '';
  for (let i = 0; i < 40000; i++) text += words[rnd[i] % words.length] + (rnd[i] & 16 ? ' ' : '_') + (rnd[i] & 3 ? '' : '\n');
  return {
    'one byte': new Uint8Array([42]),
    'seeded random bytes (literals, 200 KB)': seeded(200000, 12345),
    'zeros (long matches, 300 KB)': new Uint8Array(300000),
    'words with variations (repeated distances)': new TextEncoder().encode(text),
    'the app\'s index.wasm': new Uint8Array(fs.readFileSync(path.join(site, 'index.wasm'))),
  };
}

function equal(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export const tests = [
  ['lzma: sizer.mjs\'s decoder gives back exactly what the build compressed', async ({ site }) => {
    for (const [name, data] of Object.entries(samples(site))) {
      const packed = compress(data);
      const out = unlzma(packed);
      assert(equal(out, data), `${name}: ${out.length} bytes decoded, ${data.length} expected, or different bytes`);
    }
  }],

  ['lzma: broken input ends in an Error or output of the stated size, never a hang', async ({ site }) => {
    const data = new Uint8Array(fs.readFileSync(path.join(site, 'index.wasm'))).subarray(0, 60000);
    const packed = compress(data);
    const throwsWith = (input, re, what) => {
      let message = '';
      try { unlzma(input); } catch (e) { message = String(e.message); }
      assert(re.test(message), `${what}: expected an Error matching ${re}, got ${JSON.stringify(message)}`);
    };
    throwsWith(packed.subarray(0, packed.length >> 1), /lzma: (truncated|corrupt)/, 'half the stream');
    throwsWith(new Uint8Array(5), /lzma: not an lzma_alone stream/, 'five bytes');
    throwsWith(Uint8Array.from([225, ...packed.subarray(1)]), /lzma: not an lzma_alone stream/, 'properties byte 225');
    const huge = Uint8Array.from(packed);
    huge.set([0, 0, 0, 0, 0, 0, 1, 0], 5);  // 2^48 bytes
    throwsWith(huge, /lzma: the header has no usable size/, 'a 2^48-byte size');
    let bad = 0;
    for (let k = 0; k < 40; k++) {  // one flipped bit at a time, across the stream
      const flipped = Uint8Array.from(packed);
      flipped[20 + Math.floor((k / 40) * (flipped.length - 20))] ^= 1 << (k % 8);
      try {
        const out = unlzma(flipped);
        assert(out.length === data.length, `a flipped bit gave ${out.length} bytes for ${data.length}`);
      } catch (e) {
        assert(/^lzma: /.test(e.message), `a flipped bit threw something else: ${e.message}`);
        bad++;
      }
    }
    assert(bad > 0, 'no flipped bit was noticed');
  }],

  ['lzma: sizer.mjs works where DecompressionStream does not exist', async ({ site, examples }) => {
    const url = pathToFileURL(path.join(site, 'sizer.mjs')).href;
    const [file, { expected }] = Object.entries(examples)[0];
    const script = `delete globalThis.DecompressionStream;
      const { default: createSizer } = await import(${JSON.stringify(url)});
      const sizer = await createSizer();
      const r = sizer.evaluate(${JSON.stringify(examples[file].text)});
      process.stdout.write(JSON.stringify(r.training.compute.device_hours));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    assert(out === JSON.stringify(expected.training.compute.device_hours),
           `${file}: device_hours ${out} without DecompressionStream, ${JSON.stringify(expected.training.compute.device_hours)} from the CLI`);
  }],
];
