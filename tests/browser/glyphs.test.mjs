// Every character the UI can display has a glyph in the fonts ImGui builds its atlas from
// (issue 11 item 5: ⌈ ⌉ → drew as �). Collects the non-ASCII characters of every string literal
// in web/src and core/src (byte escapes such as "\xc3\x97" decoded as UTF-8) and of every string in
// assets/*.json, then checks each one against what ImGui actually gets: the glyph ranges the build
// passes to ImGui (kFontGlyphRanges in the generated font_data.cpp) and the cmaps of the subset
// font files (the primary font, or the fallback merged into it), read with Debian's fontTools.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { assert, assertClean, clickWidget, frames, openPage, screenshot, waitForFirstFrame, widgetRect } from './lib.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// String literals of a C++ source (comments and character literals skipped), escapes decoded.
export function cppStrings(text) {
  const out = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') { i = text.indexOf('\n', i); if (i < 0) break; continue; }
    if (c === '/' && text[i + 1] === '*') { i = text.indexOf('*/', i + 2); if (i < 0) break; i += 2; continue; }
    if (c === '\'') { i += text[i + 1] === '\\' ? 4 : 3; while (i < text.length && text[i - 1] !== '\'') i++; continue; }
    if (c === 'R' && text[i + 1] === '"') {  // raw string R"delim( ... )delim"
      const open = text.indexOf('(', i);
      const close = text.indexOf(`)${text.slice(i + 2, open)}"`, open);
      out.push(text.slice(open + 1, close));
      i = close + 1;
      continue;
    }
    if (c !== '"') { i++; continue; }
    const bytes = [];
    for (i++; i < text.length && text[i] !== '"'; i++) {
      if (text[i] !== '\\') { bytes.push(...Buffer.from(text[i], 'utf8')); continue; }
      const e = text[++i];
      const hex = e === 'x' && /^[0-9a-fA-F]{1,2}/.exec(text.slice(i + 1, i + 3));
      if (hex) { bytes.push(parseInt(hex[0], 16)); i += hex[0].length; continue; }
      const uni = (e === 'u' || e === 'U') && text.slice(i + 1, i + (e === 'u' ? 5 : 9));
      if (uni) { bytes.push(...Buffer.from(String.fromCodePoint(parseInt(uni, 16)), 'utf8')); i += uni.length; continue; }
      bytes.push(e === 'n' ? 10 : e === 't' ? 9 : e.charCodeAt(0) & 0x7f);
    }
    i++;
    out.push(new TextDecoder('utf-8').decode(Uint8Array.from(bytes)));
  }
  return out;
}

function jsonStrings(value, out = []) {
  if (typeof value === 'string') out.push(value);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) { out.push(k); jsonStrings(v, out); }
  return out;
}

// Map character -> first file it was seen in, for every non-ASCII character the UI can show.
export function displayedCharacters() {
  const seen = new Map();
  const note = (s, file) => { for (const ch of s) if (ch.codePointAt(0) > 0x7e && !seen.has(ch)) seen.set(ch, file); };
  // Every C++ file below these folders: the core's layers live in subfolders (core/src/layout,
  // serve, ops, io), and their working strings reach the page too.
  const walk = (dir) => fs.readdirSync(path.join(repo, dir), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => (e.isDirectory() ? walk(`${dir}/${e.name}`) : /\.(cpp|h)$/.test(e.name) ? [`${dir}/${e.name}`] : []));
  for (const dir of ['web/src', 'core/src', 'core/include/sizer']) {
    for (const file of walk(dir)) {
      for (const s of cppStrings(fs.readFileSync(path.join(repo, file), 'utf8'))) note(s, file);
    }
  }
  for (const f of fs.readdirSync(path.join(repo, 'assets')).filter((n) => n.endsWith('.json')).sort()) {
    for (const s of jsonStrings(JSON.parse(fs.readFileSync(path.join(repo, 'assets', f), 'utf8')))) note(s, `assets/${f}`);
  }
  return seen;
}

// Code points of a TrueType file's cmap, through Debian's python3-fonttools (the build uses it).
function cmap(file) {
  const py = 'import sys, json\nfrom fontTools.ttLib import TTFont\nprint(json.dumps(sorted(TTFont(sys.argv[1]).getBestCmap())))';
  return new Set(JSON.parse(execFileSync('/usr/bin/python3', ['-c', py, file], { encoding: 'utf8' })));
}

export const tests = [
  ['every non-ASCII character the UI and the working strings use has a glyph in the subset fonts', async ({ site }) => {
    const build = path.dirname(site);
    const generated = fs.readFileSync(path.join(build, 'web/font_data.cpp'), 'utf8');
    const rangeList = /kFontGlyphRanges\[\] = \{([^}]*)\}/.exec(generated)[1].split(',').map((s) => Number(s.trim())).filter((n) => n);
    const inRanges = (cp) => rangeList.some((v, k) => k % 2 === 0 && cp >= v && cp <= rangeList[k + 1]);
    const fontDir = path.join(build, 'web/fonts');
    const fallbackFile = path.join(fontDir, 'DejaVuSans.subset.ttf');
    const fallback = fs.existsSync(fallbackFile) ? cmap(fallbackFile) : new Set();
    const chars = displayedCharacters();
    assert(chars.has('×') && chars.has('⌈') && chars.has('≈'), `the scan missed characters the working uses: ${[...chars.keys()].join(' ')}`);
    const missing = [];
    for (const font of ['RobotoRegular', 'RobotoMedium', 'JetBrainsMonoRegular']) {
      const own = cmap(path.join(fontDir, `${font}.subset.ttf`));
      for (const [ch, file] of chars) {
        const cp = ch.codePointAt(0);
        const why = !inRanges(cp) ? 'outside the glyph ranges given to ImGui' : !own.has(cp) && !fallback.has(cp) ? 'no glyph' : '';
        if (why) missing.push(`U+${cp.toString(16).toUpperCase().padStart(4, '0')} ${ch} (${file}) in ${font}: ${why}`);
      }
    }
    assert(missing.length === 0, `characters the UI shows as �:\n  ${missing.join('\n  ')}`);
  }],

  ['the working with ⌈ ⌉ draws them, at desktop size and HiDPI (screenshots to look at)', async ({ browser, origin, shots }) => {
    for (const scale of [1, 2]) {
      const { page, watch } = await openPage(browser, { allow: (url) => url.startsWith(origin + '/'), deviceScaleFactor: scale, shared: true,
                                                        viewport: { width: 1440, height: 900 } });
      await page.goto(`${origin}/index.html`);
      await waitForFirstFrame(page);
      await clickWidget(page, 'tab:Training');
      const r = await widgetRect(page, 'value:training.memory.min_devices_full');
      await page.mouse.move(r.x + r.w / 2, r.y + r.h / 2);
      await frames(page, 6);
      await screenshot(page, path.join(shots, `glyphs-working-dpr${scale}.png`));
      assertClean(watch);
      await watch.close();
    }
  }],
];
