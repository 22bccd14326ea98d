// Page glue of sharing (see page_io.h). The JS in EM_JS blocks is deliberately small: it queues
// plain {type, ...} events for C++ and writes what C++ asks for. User text reaches the DOM only
// through textContent; nothing here requests another origin (downloads are blob: URLs; the
// offline copy fetches the page's own sizer-offline.html).
#include "page_io.h"

#include <string>

#include <emscripten.h>

#include "imgui.h"
#include "share_actions.h"
#include "sizer/contract/json_safe.h"

namespace {

// Events from the page's JS: a dropped file is at most 1 MiB (kMaxFile below) and JSON-escaping
// its text at most sextuples it.
constexpr std::size_t kMaxInboxEventBytes = 8u << 20;

// clang-format off
EM_JS(void, js_install, (), {
  var inbox = Module.sizerInbox = [];
  var kMaxFile = 1 << 20;
  var file = location.protocol === 'file:';
  // An offline copy downloads itself: keep its own markup as it was before the app ran.
  if (file) Module.sizerSource = '<!doctype html>\n' + document.documentElement.outerHTML;
  var href = location.href.split('#')[0];
  inbox.push({type: 'page', url: href, base: href.slice(0, href.lastIndexOf('/') + 1), hosted: !file});
  try { inbox.push({type: 'tables', text: localStorage.getItem('sizer.user-tables.v1') || ""}); } catch (e) {}
  var preload = document.getElementById('sizer-preload');
  if (location.hash.length > 1) inbox.push({type: 'open', fragment: location.hash, where: 'link'});
  else if (preload && preload.textContent.trim()) inbox.push({type: 'open', fragment: preload.textContent.trim(), where: 'offline copy'});
  var fromHistory = function () { inbox.push({type: 'open', fragment: location.hash, where: 'link', history: true}); };
  window.addEventListener('popstate', fromHistory);
  window.addEventListener('hashchange', fromHistory);
  var readFile = function (f) {
    if (!f) return;
    if (f.size > kMaxFile) { inbox.push({type: 'file', name: f.name, text: "", tooLarge: true}); return; }
    f.text().then(function (t) { inbox.push({type: 'file', name: f.name, text: t}); },
                  function () { inbox.push({type: 'file', name: f.name, text: "", unreadable: true}); });
  };
  window.addEventListener('dragover', function (e) { e.preventDefault(); });
  window.addEventListener('drop', function (e) {
    e.preventDefault();
    if (e.dataTransfer && e.dataTransfer.files.length) readFile(e.dataTransfer.files[0]);
  });
  // Paste (Ctrl+V / Cmd+V) onto the page imports the text or file like a drop. While a text field
  // of the app has the keyboard, the pasted text goes into that field instead (get_clipboard),
  // and a paste into a real form field is the browser's.
  window.addEventListener('paste', function (e) {
    var t = e.target;
    var own = t === Module.canvas || (t && t.id === 'sizer-keyboard');  // the canvas, or its on-screen keyboard's input
    if (t && !own && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    var cd = e.clipboardData;
    if (!cd) return;
    var text = cd.getData('text/plain') || "";
    if (Module.sizerWantsText) {
      e.preventDefault();
      if (text) inbox.push({type: 'paste-field', text: text.slice(0, 4096)});
      return;
    }
    if (cd.files && cd.files.length) {
      e.preventDefault();
      readFile(cd.files[0]);
      return;
    }
    if (!text.trim()) return;
    e.preventDefault();
    if (text.length > kMaxFile) inbox.push({type: 'paste', text: "", tooLarge: true});
    else inbox.push({type: 'paste', text: text});
  });
  var box = document.createElement('div');  // messages for screen readers and tests, as text
  box.id = 'sizer-message';
  box.setAttribute('role', 'status');
  box.setAttribute('aria-live', 'polite');
  box.hidden = true;
  document.body.appendChild(box);
  Module.sizerReadFile = readFile;
});

// While a text field of the app has the keyboard, space and arrows must not scroll the page.
// A paste then goes into the field, not into an import (js_install).
EM_JS(void, js_wants_text, (int wants), {
  document.documentElement.style.overflowY = wants ? "hidden" : "";
  Module.sizerWantsText = !!wants;
});

EM_JS(int, js_inbox_size, (), {
  var q = Module.sizerInbox;
  if (!q || !q.length) return 0;
  if (!Module.sizerNext) Module.sizerNext = JSON.stringify(q.shift());
  return lengthBytesUTF8(Module.sizerNext) + 1;
});

EM_JS(void, js_inbox_take, (char* buffer, int size), {
  stringToUTF8(Module.sizerNext || "", buffer, size);
  Module.sizerNext = null;
});

EM_JS(void, js_message, (const char* title, const char* lines, int error, int serial), {
  var box = document.getElementById('sizer-message');
  if (!box) return;
  var t = UTF8ToString(title);
  box.textContent = t + (t && UTF8ToString(lines) ? '\n' + UTF8ToString(lines) : "");
  box.hidden = !t;
  box.dataset.error = error ? 'true' : 'false';
  box.dataset.serial = String(serial);
});

EM_JS(void, js_act, (int kind, const char* name_p, const char* mime_p, const char* text_p), {
  var name = UTF8ToString(name_p), mime = UTF8ToString(mime_p), text = UTF8ToString(text_p);
  var inbox = Module.sizerInbox;
  var save = function (blob) {
    var a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(a.href); }, 10000);
  };
  switch (kind) {
    case 0:  // copy
      window.sizerCopied = text;
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(function () {}, function () {
          inbox.push({type: 'copy-failed'});
        });
      } else {
        inbox.push({type: 'copy-failed'});
      }
      break;
    case 1: save(new Blob([text], {type: mime})); break;
    case 2: Module.canvas.toBlob(function (b) { if (b) save(b); }, 'image/png'); break;
    case 3: history.pushState(null, "", '#' + text); break;
    case 4: history.replaceState(null, "", '#' + text); break;
    case 5: try { localStorage.setItem(name, text); } catch (e) { inbox.push({type: 'store-failed'}); } break;
    case 6: {
      var input = document.createElement('input');
      input.type = 'file';
      input.accept = '.json,application/json';
      input.addEventListener('change', function () { Module.sizerReadFile(input.files[0]); });
      input.click();
      break;
    }
    case 7: {  // the self-contained file with `text` (an "s1." link) as its preloaded scenario
      var write = function (html) {
        var tag = '<script type="application/json" id="sizer-preload">';
        var at = html.indexOf(tag), end = at < 0 ? -1 : html.indexOf('</' + 'script>', at);
        if (at < 0 || end < 0) { inbox.push({type: 'offline-failed'}); return; }
        save(new Blob([html.slice(0, at + tag.length) + text + html.slice(end)], {type: 'text/html'}));
      };
      if (Module.sizerSource) write(Module.sizerSource);
      else fetch('sizer-offline.html').then(function (r) { return r.text(); }).then(write, function () {
        inbox.push({type: 'offline-failed'});
      });
      break;
    }
    case 8: {  // a page of the site in a new tab: the offline file's own copy, else the file beside it
      if (name !== 'method.html' && name !== 'sources.html') break;
      var copy = document.getElementById('sizer-page-' + name.replace(".html", ""));
      if (copy) {
        var url = URL.createObjectURL(new Blob([copy.textContent], {type: 'text/html'}));
        window.open(url, '_blank');
        setTimeout(function () { URL.revokeObjectURL(url); }, 60000);
      } else {
        window.open(name, '_blank', 'noopener');
      }
      break;
    }
  }
});
// clang-format on

// ImGui's clipboard: GLFW's is empty on the web, so a text field's Ctrl+V reads the text of the
// page's paste event (delivered before the frame in which ImGui sees the keys), and its Ctrl+C /
// Ctrl+X write the system clipboard.
std::string g_clipboard;

EM_JS(void, js_copy_text, (const char* text), {
  if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(UTF8ToString(text)).then(function () {}, function () {});
});

const char* get_clipboard(void*) { return g_clipboard.c_str(); }

void set_clipboard(void*, const char* text) {
  g_clipboard = text ? text : "";
  js_copy_text(g_clipboard.c_str());
}

bool is_link_text(const std::string& t) {
  for (char c : t) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
                    c == '_' || c == '.';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

namespace sizer_web {

void page_io_install() {
  js_install();
  ImGui::GetIO().GetClipboardTextFn = get_clipboard;
  ImGui::GetIO().SetClipboardTextFn = set_clipboard;
}

void page_io_poll(AppState& s) {
  for (int guard = 0; guard < 16; ++guard) {
    const int size = js_inbox_size();
    if (size <= 0) break;
    std::string text(static_cast<size_t>(size), '\0');
    js_inbox_take(text.data(), size);
    text.resize(static_cast<size_t>(size - 1));
    const nlohmann::json e = sizer::parse_json(text, kMaxInboxEventBytes).value;
    if (!e.is_object() || !e.contains("type") || !e["type"].is_string()) continue;
    const std::string type = e["type"].get<std::string>();
    auto str = [&](const char* k) { return e.contains(k) && e[k].is_string() ? e[k].get<std::string>() : std::string(); };
    if (type == "page") {
      s.share.page_url = str("url");
      s.share.page_base = str("base");
      s.share.hosted = e.value("hosted", false);
    } else if (type == "tables") {
      load_user_tables(s, str("text"));
    } else if (type == "open") {
      std::string f = str("fragment");
      if (!f.empty() && f[0] == '#') f.erase(0, 1);
      const bool history = e.value("history", false);
      if (history && f == s.share.shown_fragment) continue;  // our own pushState, or back to where we are
      if (history && f.empty()) {  // back to the page as it opened
        restore_start(s);
        continue;
      }
      open_fragment(s, f, str("where") == "offline copy" ? "offline copy" : "link");
      if (history) s.share.shown_fragment = f;  // the bar shows it, whether or not it opened
    } else if (type == "file") {
      if (e.value("unreadable", false)) set_message(s, "Could not read the file", {"Nothing was changed."}, true);
      else import_file(s, str("name"), str("text"), e.value("tooLarge", false));
    } else if (type == "paste") {
      import_pasted(s, str("text"), e.value("tooLarge", false));
    } else if (type == "paste-field") {
      // ImGui's own Ctrl+V, seen in the frame about to start, reads it; a paste without the keys
      // (a phone's Paste menu) is typed into the field instead, on one line.
      g_clipboard = str("text");
      ImGuiIO& io = ImGui::GetIO();
      if (io.WantTextInput && !io.KeyCtrl && !io.KeySuper) {
        std::string line = g_clipboard;
        for (char& c : line) c = static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
        io.AddInputCharactersUTF8(line.c_str());
      }
    } else if (type == "copy-failed") {
      set_message(s, "The browser did not allow copying", {"Select the link in the dialog and copy it by hand."}, true);
    } else if (type == "store-failed") {
      set_message(s, "Could not save in this browser's storage", {"Your rows work until the page is closed."}, true);
    } else if (type == "offline-failed") {
      set_message(s, "Could not make the offline copy", {"Download sizer-offline.html from the site instead."}, true);
    }
  }
  sync_address_bar(s, emscripten_get_now() / 1000.0, ImGui::IsAnyItemActive());
  const bool wants_text = ImGui::GetIO().WantTextInput;
  if (wants_text != s.share.page_wants_text) {
    s.share.page_wants_text = wants_text;
    js_wants_text(wants_text ? 1 : 0);
  }
  int& shown_serial = s.share.mirrored_serial;
  if (s.share.message.serial != shown_serial) {
    shown_serial = s.share.message.serial;
    std::string lines;
    for (const std::string& l : s.share.message.lines) lines += (lines.empty() ? "" : "\n") + l;
    js_message(s.share.message.title.c_str(), lines.c_str(), s.share.message.error ? 1 : 0, shown_serial);
  }
}

void page_io_flush(AppState& s) {
  if (s.share.outbox.empty()) return;
  std::vector<PageAction> actions;
  actions.swap(s.share.outbox);
  for (const PageAction& a : actions) {
    const bool hash = a.kind == PageAction::Kind::push_hash || a.kind == PageAction::Kind::replace_hash;
    if ((hash || a.kind == PageAction::Kind::offline_copy) && !is_link_text(a.text)) continue;
    js_act(static_cast<int>(a.kind), a.name.c_str(), a.mime.c_str(), a.text.c_str());
  }
}

}  // namespace sizer_web
