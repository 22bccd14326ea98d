// The page side of the text mirror (see mirror_page.h).
#include "mirror_page.h"

#include <emscripten.h>

namespace {

// clang-format off
EM_JS(void, js_render_mirror, (const char* doc_p), {
  var root = document.getElementById('results-text');
  if (!root) return;
  var doc;
  try { doc = JSON.parse(UTF8ToString(doc_p)); } catch (e) { return; }
  var make = function (tag, text, cls) {
    var n = document.createElement(tag);
    if (text !== undefined && text !== null) n.textContent = String(text);
    if (cls) n.className = cls;
    return n;
  };
  var out = document.createDocumentFragment();
  (doc.blocks || []).forEach(function (b) {
    if (b.t === 'h') {
      out.appendChild(make(b.level === 3 ? 'h3' : 'h2', b.text));
    } else if (b.t === 'p') {
      out.appendChild(make('p', b.text, b.kind));
    } else if (b.t === 'ul') {
      var ul = make('ul', null, b.kind);
      (b.items || []).forEach(function (t) { ul.appendChild(make('li', t)); });
      out.appendChild(ul);
    } else if (b.t === 'table') {
      var table = make('table');
      if (b.caption) table.appendChild(make('caption', b.caption));
      var head = make('thead'), tr = make('tr');
      (b.head || []).forEach(function (h) {
        var th = make('th', h);
        th.scope = 'col';
        tr.appendChild(th);
      });
      head.appendChild(tr);
      table.appendChild(head);
      var body = make('tbody');
      (b.rows || []).forEach(function (r) {
        var row = make('tr');
        r.forEach(function (c, i) {
          var cell = make(i === 0 ? 'th' : 'td', c);
          if (i === 0) cell.scope = 'row';
          row.appendChild(cell);
        });
        body.appendChild(row);
      });
      table.appendChild(body);
      out.appendChild(table);
    }
  });
  root.replaceChildren(out);
  var live = document.getElementById('results-status');
  if (!live) {
    live = make('p');
    live.id = 'results-status';
    live.setAttribute('role', 'status');
    live.setAttribute('aria-live', 'polite');
    root.parentNode.insertBefore(live, root);
  }
  if (live.textContent !== String(doc.live || "")) live.textContent = String(doc.live || "");
});
// clang-format on

}  // namespace

namespace sizer_web {

void mirror_page_render(const std::string& document_json) { js_render_mirror(document_json.c_str()); }

}  // namespace sizer_web
