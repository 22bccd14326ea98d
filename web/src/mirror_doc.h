// A small structured document for the page's text mirror of the results (results_text.h): headings,
// paragraphs, lists and tables with header cells, built in C++ and turned into DOM nodes by the
// page glue (mirror_page.h) with createElement and textContent only, so no text is ever markup.
//
//   MirrorDoc d;
//   d.heading(2, "Training");
//   d.table("Training results", {"Result", "Value"});
//   d.row({"Training compute", "3.2e25 FLOP"});
//   d.lines("Planner: TP 8 × PP 8\n");  // "Label: value" lines as rows of the last table
//   std::string json = d.dump();       // {"live": "...", "blocks": [...]}
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sizer_web {

class MirrorDoc {
 public:
  void heading(int level, const std::string& text);  // level 2 or 3 (the page's own title is h1)
  // `kind` becomes the element's class: "" | "error" | "note".
  void paragraph(const std::string& text, const char* kind = "");
  void list(const std::vector<std::string>& items, const char* kind = "");
  // Starts a table; `head` are its column headers (the first column's cells are row headers).
  void table(const std::string& caption, const std::vector<std::string>& head);
  void row(const std::vector<std::string>& cells);  // appended to the last table
  // "Label: value" lines (split at the first ": ") as two-cell rows of the last table; a line
  // without ": " is a row whose value is empty.
  void lines(const std::string& text);
  // The short summary a screen reader announces when the document changes (an aria-live status).
  void live(const std::string& text) { doc_["live"] = text; }
  std::string dump() const;

 private:
  nlohmann::json doc_ = {{"live", ""}, {"blocks", nlohmann::json::array()}};
};

}  // namespace sizer_web
