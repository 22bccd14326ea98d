#!/usr/bin/env python3
"""Makes site/sizer.mjs from the Emscripten module factory (CORE, an ES module whose last statement
is `export default createSizerCore;`), its WebAssembly (WASM) and the hand-written API (API): the
factory's export is dropped, the wasm goes in gzip-compressed (zopfli when installed) as a base64
string constant, SIZER_WASM_GZIP_BASE64, that the API inflates with DecompressionStream (browsers,
Node 18+) and hands to the factory through instantiateWasm, and the API, which defines the module's
exports, is appended. -sSINGLE_FILE's raw base64 of the wasm was 2.6x larger.

  join_api.py CORE.mjs CORE.wasm API.js OUT.mjs
"""
import base64, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wasm_inline import compress, unname_wasm  # noqa: E402  (shared with inline_offline.py)

core_path, wasm_path, api_path, out_path = sys.argv[1:5]
core = open(core_path, encoding='utf-8').read()
api = open(api_path, encoding='utf-8').read()
export = 'export default createSizerCore;'
if export not in core:
    sys.exit('join_api.py: no "%s" in %s' % (export, core_path))
core = core.replace(export, '')
core = unname_wasm(core, wasm_path, 'inlined-in-the-module')
packed = base64.b64encode(compress(wasm_path)).decode('ascii')
constant = ('\n// The WebAssembly of the factory above, gzip-compressed, base64 (web/cmake/join_api.py).\n'
            'const SIZER_WASM_GZIP_BASE64 = "%s";\n' % packed)
open(out_path, 'w', encoding='utf-8').write(core + constant + '\n' + api)
