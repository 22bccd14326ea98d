#!/usr/bin/env python3
"""Makes site/sizer-offline.html: the Emscripten page of the offline app with its JS glue inlined
and its WebAssembly inlined gzip-compressed (zopfli when installed, else gzip -9), written 7 bits
to a character (pack7 below; unpacked by web/src/unpack7.cpp, a WebAssembly module of a few hundred
bytes inlined in base64), inflated in the browser with DecompressionStream and compiled before
the boot script runs, which hands it to the runtime through Module.instantiateWasm. This replaces -sSINGLE_FILE's raw base64 of the wasm,
which is about 2.9x larger (base64 of the gzip alone would be 1.17x this). The file still makes
no request: the wasm comes out of the page's own text.

  inline_offline.py PAGE.html GLUE.js MODULE.wasm UNPACK7.wasm OUT.html [METHOD.html SITE.css]

With METHOD.html and SITE.css the method page goes in too, its style inlined and its links to the
other pages of the site (which the file does not carry) replaced by a line saying where they are;
the app opens it from the page's own text (page_io.cpp, "open_page").
"""
import base64, os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wasm_inline import compress, unname_wasm  # noqa: E402  (shared with join_api.py)

# 7-bit values a <script> element's text cannot carry as themselves: NUL (the HTML parser replaces
# it), CR (it becomes LF) and '<' (which could close the element). Each is written as one
# two-byte character U+0100 + 128 * (its index here) + (the next 7-bit value).
kIllegal = (0, 13, 60)


def pack7(data):
    """The bytes as a string of 7-bit characters (the last one zero-padded), decoded by unpack7."""
    values, acc, bits = [], 0, 0
    for byte in data:
        acc = (acc << 8 | byte) & 0x7fff
        bits += 8
        while bits >= 7:
            bits -= 7
            values.append(acc >> bits & 127)
    if bits:
        values.append(acc << (7 - bits) & 127)
    out, i = [], 0
    while i < len(values):
        v = values[i]
        if v in kIllegal:
            nxt = values[i + 1] if i + 1 < len(values) else 0
            out.append(chr(0x100 + 128 * kIllegal.index(v) + nxt))
            i += 2
        else:
            out.append(chr(v))
            i += 1
    return ''.join(out)


page_path, js_path, wasm_path, unpack7_path, out_path = sys.argv[1:6]
method_path, css_path = (sys.argv[6:8] + [None, None])[:2]
unpack7 = base64.b64encode(open(unpack7_path, 'rb').read()).decode('ascii')
page = open(page_path, encoding='utf-8').read()
js = open(js_path, encoding='utf-8').read()
packed_bytes = compress(wasm_path)
packed = pack7(packed_bytes)

loader = """
// The WebAssembly, gzip-compressed and 7 bits to a character (inline_offline.py): unpacked here,
// then inflated and compiled (streaming where the browser can) while the page goes on to make the
// WebGL2 context and parse the runtime's glue. The boot script below hands the compiled module to
// the runtime (window.sizerWasm, Module.instantiateWasm), which only instantiates it.
(function () {
  var startup = window.sizerStartup || (window.sizerStartup = {});
  startup.parsed = performance.now();  // the page's text up to here parsed
  if (typeof WebAssembly !== 'object') return;  // the boot script says what is missing
  if (typeof DecompressionStream !== 'function') {
    window.sizerWasm = { error: 'This offline copy needs a browser with DecompressionStream (Chrome 80+, Firefox 113+, ' +
                                'Safari 16.4+); open the hosted calculator instead.' };
    return;
  }
  var el = document.getElementById('sizer-wasm'), text = el.textContent, n = +el.getAttribute('data-bytes');
  // The text's UTF-8 bytes (TextEncoder, native) unpacked by unpack7.cpp's module: at most 2 bytes
  // a character in, n (+ the last character's padding) out, after the module's own memory.
  var code = atob('@UNPACK7@'), module = new Uint8Array(code.length);
  for (var i = 0; i < code.length; i++) module[i] = code.charCodeAt(i);
  var unpacker = new WebAssembly.Instance(new WebAssembly.Module(module)).exports, memory = unpacker.memory;
  var at = memory.buffer.byteLength, room = 2 * text.length;
  memory.grow(Math.ceil((room + n + 16) / 65536));
  var utf8 = new TextEncoder().encodeInto(text, new Uint8Array(memory.buffer, at, room));
  unpacker.unpack7(at, utf8.written, at + room);
  var bytes = new Uint8Array(memory.buffer, at + room, n);
  startup.unpacked = performance.now();
  var inflated = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  window.sizerWasm = { compiled: typeof WebAssembly.compileStreaming === 'function'
    ? WebAssembly.compileStreaming(new Response(inflated, { headers: { 'Content-Type': 'application/wasm' } }))
    : new Response(inflated).arrayBuffer().then(function (buf) { return WebAssembly.compile(buf); }) };
})();
"""
tag = re.compile(r'<script[^>]*src="[^"]*' + re.escape(js_path.rsplit('/', 1)[-1]) + r'"[^>]*>\s*</script>')
if not tag.search(page):
    sys.exit('inline_offline.py: no <script src> of the glue in ' + page_path)
# The glue must not close the <script> element it is inlined into; and it names the wasm file it
# would fetch without instantiateWasm, which no longer exists: renamed so the page names no file.
js = js.replace('</script', '<\\/script')
js = unname_wasm(js, wasm_path, 'inlined-in-the-page')
marker = re.compile(r'<!-- SIZER-WASM:[^>]*-->')
if not marker.search(page):
    sys.exit('inline_offline.py: no <!-- SIZER-WASM --> marker before the boot script in ' + page_path)
page = marker.sub(lambda m: '<script type="application/octet-stream" data-bytes="%d" id="sizer-wasm">' % len(packed_bytes) +
                  packed + '</script>\n<script>' + loader.replace('@UNPACK7@', unpack7) + '</script>', page, count=1)
inline = '<script>\n' + js + '\n</script>'
if method_path:
    method = open(method_path, encoding='utf-8').read()
    css = open(css_path, encoding='utf-8').read()
    link = re.compile(r'<link rel="stylesheet" href="site\.css">')
    nav = re.compile(r'<nav>.*?</nav>', re.S)
    csp = "style-src 'self'"
    if not (link.search(method) and nav.search(method) and csp in method):
        sys.exit('inline_offline.py: ' + method_path + ' lost its stylesheet link, <nav> or CSP style-src')
    method = re.sub(r'<!--.*?-->', '', method, flags=re.S)  # no comment markers inside a <script>
    method = link.sub(lambda m: '<style>\n' + css + '</style>', method, count=1)
    method = method.replace(csp, "style-src 'unsafe-inline'", 1)
    method = nav.sub(lambda m: '<nav>Method · from the offline copy of Sizer. The sources and assumptions page '
                     '(every default with its source and date) is on the hosted site.</nav>', method, count=1)
    inline += ('\n<script type="text/html" id="sizer-page-method">' + method.replace('</script', '<\\/script') +
               '</script>')
page = tag.sub(lambda m: inline, page, count=1)
open(out_path, 'w', encoding='utf-8').write(page)
