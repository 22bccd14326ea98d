// ---------------------------------------------------------------------------------------------
// LZMA decoder for sizer.mjs's inlined WebAssembly (web/cmake/join_api.py compresses it with
// Python's lzma module, "lzma_alone" format with the size in the header). LZMA makes the JS API's
// wasm 15% smaller than zopfli's gzip (docs/budgets.md) and, unlike DecompressionStream, works in
// every browser and Node version. Format: Igor Pavlov's LZMA specification (lzma-specification.txt
// in the LZMA SDK): a range coder over adaptive 11-bit probabilities; literals coded bit by bit in
// a context of the previous byte (lc bits) and the position (lp bits); matches as a length and a
// distance, or a repeat of one of the last four distances; a 12-state machine of what came last.
// Throws an Error on input that is not such a stream; never reads or writes out of bounds.
// ---------------------------------------------------------------------------------------------
function sizerUnlzma(src) {
  if (src.length < 13 || src[0] >= 225) throw new Error('lzma: not an lzma_alone stream');
  const lc = src[0] % 9, lp = Math.floor(src[0] / 9) % 5, pb = Math.floor(src[0] / 45);
  let size = 0;
  for (let i = 12; i >= 5; i--) size = size * 256 + src[i];
  if (!(size > 0 && size <= 256 * 1024 * 1024)) throw new Error('lzma: the header has no usable size');
  const out = new Uint8Array(size);
  let pos = 0, at = 13;
  const next = () => {
    if (at >= src.length) throw new Error('lzma: truncated');
    return src[at++];
  };
  // Range decoder: range and code are unsigned 32-bit values kept in int32 variables (compared
  // with >>> 0), the fast form in JavaScript engines.
  let range = -1, code = 0;
  next();  // always 0
  for (let i = 0; i < 4; i++) code = (code << 8) | next();
  // Probabilities, one array; offsets of each group.
  const IS_MATCH = 0, IS_REP = 192, IS_REP_G0 = 204, IS_REP_G1 = 216, IS_REP_G2 = 228, IS_REP0_LONG = 240,
    POS_SLOT = 432, POS_SPECIAL = 688, ALIGN = 803, LEN = 819, REP_LEN = 1333, LITERAL = 1847;
  const p = new Uint16Array(LITERAL + (0x300 << (lc + lp))).fill(1024);
  const bit = (i) => {
    const q = p[i];
    const bound = (range >>> 11) * q;  // below 2^32: exact
    let b;
    if ((code >>> 0) < bound) { range = bound | 0; p[i] = q + ((2048 - q) >>> 5); b = 0; }
    else { range = ((range >>> 0) - bound) | 0; code = ((code >>> 0) - bound) | 0; p[i] = q - (q >>> 5); b = 1; }
    if ((range >>> 0) < 0x1000000) { range <<= 8; code = (code << 8) | next(); }
    return b;
  };
  const tree = (base, bits) => {  // a bit tree, most significant bit first
    let m = 1;
    for (let i = 0; i < bits; i++) m = (m << 1) | bit(base + m);
    return m - (1 << bits);
  };
  const reverse = (base, bits) => {  // a bit tree, least significant bit first
    let m = 1, s = 0;
    for (let i = 0; i < bits; i++) { const b = bit(base + m); m = (m << 1) | b; s |= b << i; }
    return s;
  };
  const direct = (bits) => {  // bits at probability one half
    let r = 0;
    for (let i = 0; i < bits; i++) {
      range = (range >>> 1) | 0;
      let b = 0;
      if ((code >>> 0) >= (range >>> 0)) { code = ((code >>> 0) - (range >>> 0)) | 0; b = 1; }
      r = r * 2 + b;
      if ((range >>> 0) < 0x1000000) { range <<= 8; code = (code << 8) | next(); }
    }
    return r;
  };
  const length = (base, posState) => {  // 2 choice bits, then a 3-, 3- or 8-bit tree
    if (bit(base) === 0) return tree(base + 2 + (posState << 3), 3);
    if (bit(base + 1) === 0) return 8 + tree(base + 130 + (posState << 3), 3);
    return 16 + tree(base + 258, 8);
  };
  const pbMask = (1 << pb) - 1, lpMask = (1 << lp) - 1;
  let state = 0, rep0 = 0, rep1 = 0, rep2 = 0, rep3 = 0;
  while (pos < size) {
    const posState = pos & pbMask;
    if (bit(IS_MATCH + (state << 4) + posState) === 0) {  // a literal
      const prev = pos > 0 ? out[pos - 1] : 0;
      const base = LITERAL + 0x300 * (((pos & lpMask) << lc) + (prev >> (8 - lc)));
      let s = 1;
      if (state >= 7) {  // after a match: coded against the byte at rep0 until the first difference
        let match = out[pos - rep0 - 1];
        do {
          const mb = (match >> 7) & 1;
          match <<= 1;
          const b = bit(base + ((1 + mb) << 8) + s);
          s = (s << 1) | b;
          if (mb !== b) break;
        } while (s < 0x100);
      }
      while (s < 0x100) s = (s << 1) | bit(base + s);
      out[pos++] = s & 0xff;
      state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
      continue;
    }
    let len;
    if (bit(IS_REP + state) === 0) {  // a match with a new distance
      rep3 = rep2; rep2 = rep1; rep1 = rep0;
      len = length(LEN, posState);
      state = state < 7 ? 7 : 10;
      const slot = tree(POS_SLOT + ((len < 3 ? len : 3) << 6), 6);
      if (slot < 4) rep0 = slot;
      else {
        const n = (slot >> 1) - 1;
        const base = (2 | (slot & 1)) * 2 ** n;
        rep0 = slot < 14 ? base + reverse(POS_SPECIAL + base - slot, n)
          : base + direct(n - 4) * 16 + reverse(ALIGN, 4);
        if (rep0 === 0xffffffff) break;  // the end marker
      }
    } else {
      if (bit(IS_REP_G0 + state) === 0) {
        if (bit(IS_REP0_LONG + (state << 4) + posState) === 0) {  // one byte at rep0
          if (rep0 >= pos) throw new Error('lzma: corrupt data');
          state = state < 7 ? 9 : 11;
          out[pos] = out[pos - rep0 - 1];
          pos++;
          continue;
        }
      } else {
        let dist;
        if (bit(IS_REP_G1 + state) === 0) dist = rep1;
        else {
          if (bit(IS_REP_G2 + state) === 0) dist = rep2;
          else { dist = rep3; rep3 = rep2; }
          rep2 = rep1;
        }
        rep1 = rep0; rep0 = dist;
      }
      len = length(REP_LEN, posState);
      state = state < 7 ? 8 : 11;
    }
    len += 2;
    if (rep0 >= pos || len > size - pos) throw new Error('lzma: corrupt data');
    for (let from = pos - rep0 - 1; len > 0; len--) out[pos++] = out[from++];
  }
  if (pos !== size) throw new Error('lzma: the data ends early');
  return out;
}
