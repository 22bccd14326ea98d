// The text mirror's document (see mirror_doc.h).
#include "mirror_doc.h"

namespace sizer_web {

using nlohmann::json;

void MirrorDoc::heading(int level, const std::string& text) {
  doc_["blocks"].push_back({{"t", "h"}, {"level", level < 2 ? 2 : level > 3 ? 3 : level}, {"text", text}});
}

void MirrorDoc::paragraph(const std::string& text, const char* kind) {
  doc_["blocks"].push_back({{"t", "p"}, {"text", text}, {"kind", kind}});
}

void MirrorDoc::list(const std::vector<std::string>& items, const char* kind) {
  doc_["blocks"].push_back({{"t", "ul"}, {"items", items}, {"kind", kind}});
}

void MirrorDoc::table(const std::string& caption, const std::vector<std::string>& head) {
  doc_["blocks"].push_back({{"t", "table"}, {"caption", caption}, {"head", head}, {"rows", json::array()}});
}

void MirrorDoc::row(const std::vector<std::string>& cells) {
  json& blocks = doc_["blocks"];
  if (blocks.empty() || blocks.back()["t"] != "table") table("", {"Result", "Value"});
  blocks.back()["rows"].push_back(cells);
}

void MirrorDoc::lines(const std::string& text) {
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(at, end - at);
    at = end + 1;
    if (line.empty()) continue;
    const std::size_t colon = line.find(": ");
    if (colon == std::string::npos) row({line, ""});
    else row({line.substr(0, colon), line.substr(colon + 2)});
  }
}

std::string MirrorDoc::dump() const { return doc_.dump(-1, ' ', false, json::error_handler_t::replace); }

}  // namespace sizer_web
