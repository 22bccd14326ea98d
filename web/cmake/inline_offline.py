#!/usr/bin/env python3
"""Makes site/sizer-offline.html: the Emscripten page of the offline app with its JS glue inlined
and its WebAssembly inlined gzip-compressed (base64), inflated in the browser with
DecompressionStream and handed to the runtime through Module.instantiateWasm. This replaces
-sSINGLE_FILE's raw base64 of the wasm, which is about 2.5x larger. The file still makes no
request: the wasm comes out of the page's own text.

  inline_offline.py PAGE.html GLUE.js MODULE.wasm OUT.html [METHOD.html SITE.css]

With METHOD.html and SITE.css the method page goes in too, its style inlined and its links to the
other pages of the site (which the file does not carry) replaced by a line saying where they are;
the app opens it from the page's own text (page_io.cpp, "open_page").
"""
import base64, gzip, re, sys

page_path, js_path, wasm_path, out_path = sys.argv[1:5]
method_path, css_path = (sys.argv[5:7] + [None, None])[:2]
page = open(page_path, encoding='utf-8').read()
js = open(js_path, encoding='utf-8').read()
wasm = open(wasm_path, 'rb').read()
packed = base64.b64encode(gzip.compress(wasm, compresslevel=9, mtime=0)).decode('ascii')

loader = """
// The WebAssembly, gzip-compressed, inflated here (inline_offline.py).
Module.instantiateWasm = function (imports, receive) {
  var status = document.getElementById('status');
  function fail(why) {
    if (status) { status.textContent = why; status.className = 'error'; }
  }
  if (typeof DecompressionStream !== 'function') {
    fail('This offline copy needs a browser with DecompressionStream (Chrome 80+, Firefox 113+, Safari 16.4+); ' +
         'open the hosted calculator instead.');
    return {};
  }
  var text = document.getElementById('sizer-wasm').textContent, bin = atob(text.trim());
  var bytes = new Uint8Array(bin.length);
  for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer()
    .then(function (buf) { return WebAssembly.instantiate(buf, imports); })
    .then(function (r) { receive(r.instance, r.module); },
          function (e) { fail('Sizer could not start its WebAssembly: ' + e); });
  return {};
};
"""
tag = re.compile(r'<script[^>]*src="[^"]*' + re.escape(js_path.rsplit('/', 1)[-1]) + r'"[^>]*>\s*</script>')
if not tag.search(page):
    sys.exit('inline_offline.py: no <script src> of the glue in ' + page_path)
# The glue must not close the <script> element it is inlined into; and it names the wasm file it
# would fetch without instantiateWasm, which no longer exists: renamed so the page names no file.
js = js.replace('</script', '<\\/script')
wasm_name = wasm_path.rsplit('/', 1)[-1]
js = js.replace('"' + wasm_name + '"', '"inlined-in-the-page"').replace("'" + wasm_name + "'", "'inlined-in-the-page'")
inline = ('<script type="application/octet-stream" id="sizer-wasm">' + packed + '</script>\n'
          '<script>' + loader + '</script>\n<script>\n' + js + '\n</script>')
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
