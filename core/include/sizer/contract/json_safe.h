// Bounded JSON parsing: the one way Sizer reads JSON text it did not write itself.
//
// Every parser entry point (scenario, tables, share link, embed fragment, import file, validation
// file, and the web front end's messages) reads text through parse_json(). It parses without
// recursion (nlohmann's SAX parser feeding a small DOM builder) and refuses, before any recursive
// walk such as dump(), copy or compare could run on the result:
//   - more than `max_bytes` bytes (checked before reading);
//   - a NUL byte anywhere (nlohmann's lexer would take it as the end of the text);
//   - objects/arrays nested deeper than kMaxJsonDepth;
//   - a key given twice in one object (nlohmann would keep the last one silently);
//   - any syntax error.
// Each refusal is one message that names the line and column (1-based; columns count characters).
//
//   const sizer::JsonDocument d = sizer::parse_json(text, sizer::kMaxScenarioBytes);
//   if (!d.ok()) issues->push_back({"", d.error});   // "is not valid JSON at line 2, column 12: ..."
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace sizer {

// Deepest nesting accepted. Sizer's own files nest at most 6 levels (a result file's scenario 8);
// 64 leaves room for free-form fields and keeps every recursive walk far from the stack limit of a
// WebAssembly build (each level of dump() or a copy costs a few hundred bytes of stack).
constexpr int kMaxJsonDepth = 64;
// Size caps for the larger documents (scenarios and imports have theirs in scenario_parse.h and
// portable.h, 1 MiB). The bundled tables are under 100 KB each and the validation file 16 KB.
constexpr std::size_t kMaxTablesBytes = 8u << 20;      // 8 MiB
constexpr std::size_t kMaxValidationBytes = 8u << 20;  // 8 MiB

struct JsonDocument {
  nlohmann::json value;  // the document; null when refused
  std::string error;     // empty on success; else a message to follow a path, e.g. "is too large (...)"
  bool ok() const { return error.empty(); }
};

// Parses `text` as exactly one JSON value within the limits above. Never throws, never recurses.
JsonDocument parse_json(std::string_view text, std::size_t max_bytes);

// "line L, column C" for byte `offset` of `text` (columns count UTF-8 characters).
std::string text_position(std::string_view text, std::size_t offset);

}  // namespace sizer
