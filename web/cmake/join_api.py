#!/usr/bin/env python3
"""Makes site/sizer.mjs from the Emscripten module factory (CORE, an ES module whose last statement
is `export default createSizerCore;`), its WebAssembly (WASM), the LZMA decoder (LZMA.js) and the
hand-written API (API): the factory's export is dropped, the wasm goes in LZMA-compressed as a
base64 string constant, SIZER_WASM_LZMA_BASE64, that the API decodes with LZMA.js and hands to the
factory through instantiateWasm, and the decoder and the API, which defines the module's exports,
are appended. -sSINGLE_FILE's raw base64 of the wasm was 2.6x larger; gzip (zopfli) inflated with
DecompressionStream, used until the tenth session, 15% larger (docs/budgets.md).

  join_api.py CORE.mjs CORE.wasm LZMA.js API.js OUT.mjs
"""
import base64, os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wasm_inline import compress_lzma, unname_wasm  # noqa: E402  (shared with inline_offline.py)


def strip_comments(js):
    """The hand-written JS without its comments and indentation (they are read in web/js/, not in
    the built module): whole-line // comments go, a trailing // comment goes when the code before it
    has no quote or slash that could make it part of a string or a regular expression, and lines
    are left-trimmed. Refuses a template literal that spans lines, which trimming would change."""
    out = []
    for line in js.split('\n'):
        if line.count('`') % 2:
            sys.exit('join_api.py: a template literal spans lines; strip_comments cannot trim it')
        if re.match(r'\s*//', line):
            continue
        m = re.search(r'\s+//\s', line)
        if m and not re.search(r'[\'"`/]', line[:m.start()]):
            line = line[:m.start()]
        line = line.strip()
        if line:
            out.append(line)
    return '\n'.join(out) + '\n'


core_path, wasm_path, lzma_path, api_path, out_path = sys.argv[1:6]
core = open(core_path, encoding='utf-8').read()
api = ('// web/js/lzma.js and web/js/sizer-api.js (comments there), joined by web/cmake/join_api.py\n' +
       strip_comments(open(lzma_path, encoding='utf-8').read() + '\n' + open(api_path, encoding='utf-8').read()))
export = 'export default createSizerCore;'
if export not in core:
    sys.exit('join_api.py: no "%s" in %s' % (export, core_path))
core = core.replace(export, '')
core = unname_wasm(core, wasm_path, 'inlined-in-the-module')
packed = base64.b64encode(compress_lzma(wasm_path)).decode('ascii')
constant = ('\n// The WebAssembly of the factory above, LZMA-compressed, base64 (web/cmake/join_api.py).\n'
            'const SIZER_WASM_LZMA_BASE64 = "%s";\n' % packed)
open(out_path, 'w', encoding='utf-8').write(core + constant + '\n' + api)
