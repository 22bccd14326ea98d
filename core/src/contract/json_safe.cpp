// Bounded JSON parsing (see json_safe.h): a SAX handler that builds the document iteratively and
// stops at the first nesting, duplicate-key or syntax problem, with the position in the text.
#include "sizer/contract/json_safe.h"

#include <cstring>
#include <iterator>
#include <utility>
#include <vector>

#include "sizer/contract/user_text.h"

namespace sizer {

namespace {

using nlohmann::json;

// A char iterator that tells how many bytes nlohmann's lexer has read so far, so the handler
// can name where an event happened (the SAX interface carries no positions).
struct CountingIterator {
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;
  const char* p = nullptr;
  std::size_t* read = nullptr;
  reference operator*() const { return *p; }
  CountingIterator& operator++() {
    ++p;
    ++*read;
    return *this;
  }
  CountingIterator operator++(int) {
    CountingIterator old = *this;
    ++*this;
    return old;
  }
  bool operator==(const CountingIterator& o) const { return p == o.p; }
  bool operator!=(const CountingIterator& o) const { return p != o.p; }
};

// Builds the DOM like nlohmann's json_sax_dom_parser, plus the depth and duplicate-key limits.
class BoundedDom {
 public:
  BoundedDom(std::string_view text, const std::size_t* read, json* root) : text_(text), read_(read), root_(root) {}
  const std::string& error() const { return error_; }

  bool null() { return put(json(nullptr)); }
  bool boolean(bool v) { return put(json(v)); }
  bool number_integer(json::number_integer_t v) { return put(json(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return put(json(v)); }
  bool number_float(json::number_float_t v, const json::string_t&) { return put(json(v)); }
  bool string(json::string_t& v) { return put(json(std::move(v))); }
  bool binary(json::binary_t& v) { return put(json(std::move(v))); }
  bool start_object(std::size_t) { return open(json::value_t::object); }
  bool start_array(std::size_t) { return open(json::value_t::array); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(json::string_t& k) {
    json& obj = *stack_.back();
    if (obj.find(k) != obj.end()) {
      error_ = "has the key " + echo_quoted(k) + " twice in one object (again at " +
               text_position(text_, key_start()) + "); each key may appear once";
      return false;
    }
    slot_ = &obj[k];
    return true;
  }

  bool parse_error(std::size_t position, const std::string& last_token, const json::exception& ex) {
    // ex.what(): "[json.exception.parse_error.101] parse error at line 1, column 9: <what>; last read: '<token>'"
    std::string what = ex.what();
    const std::size_t column = what.find("column ");
    std::size_t start = what.find(": ", column == std::string::npos ? 0 : column);
    if (start == std::string::npos) start = what.find("] ");
    what = start == std::string::npos ? std::string("syntax error") : what.substr(start + 2);
    what = what.substr(0, what.find("; last read:"));
    const std::size_t at = position == 0 ? 0 : position - 1;
    error_ = "is not valid JSON at " + text_position(text_, at) + ": " + printable(what);
    if (!last_token.empty() && what.find(last_token) == std::string::npos) {
      error_ += " (near " + echo_quoted(last_token) + ")";
    }
    return false;
  }

 private:
  bool put(json&& v) {
    if (stack_.empty()) *root_ = std::move(v);
    else if (stack_.back()->is_array()) stack_.back()->push_back(std::move(v));
    else *slot_ = std::move(v);
    return true;
  }

  bool open(json::value_t type) {
    if (stack_.size() >= static_cast<std::size_t>(kMaxJsonDepth)) {
      error_ = "nests deeper than " + std::to_string(kMaxJsonDepth) + " levels at " +
               text_position(text_, *read_ == 0 ? 0 : *read_ - 1) + " (objects and lists inside each other)";
      return false;
    }
    json* target = root_;
    if (!stack_.empty() && stack_.back()->is_array()) {
      stack_.back()->push_back(json(type));
      target = &stack_.back()->back();
    } else if (!stack_.empty()) {
      target = slot_;
    }
    *target = json(type);
    stack_.push_back(target);
    return true;
  }

  bool close() {
    stack_.pop_back();
    return true;
  }

  // The opening quote of the key the lexer just read: its closing quote is the last byte read, and
  // inside a JSON string every quote is escaped by an odd run of backslashes.
  std::size_t key_start() const {
    std::size_t i = *read_ == 0 ? 0 : *read_ - 1;
    while (i > 0) {
      --i;
      if (text_[i] != '"') continue;
      std::size_t slashes = 0;
      while (slashes < i && text_[i - 1 - slashes] == '\\') ++slashes;
      if (slashes % 2 == 0) return i;
    }
    return 0;
  }

  std::string_view text_;
  const std::size_t* read_;
  json* root_;
  std::vector<json*> stack_;  // the open objects and arrays, innermost last
  json* slot_ = nullptr;      // the value of the key just read in the innermost object
  std::string error_;
};

}  // namespace

std::string text_position(std::string_view text, std::size_t offset) {
  if (offset > text.size()) offset = text.size();
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < offset; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++line;
      column = 1;
    } else if ((c & 0xC0) != 0x80) {
      ++column;  // count characters: UTF-8 continuation bytes do not start one
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

JsonDocument parse_json(std::string_view text, std::size_t max_bytes) {
  JsonDocument out;
  if (text.size() > max_bytes) {
    out.error = "is too large (" + std::to_string(text.size()) + " bytes; at most " + std::to_string(max_bytes) + ")";
    return out;
  }
  if (const void* nul = std::memchr(text.data(), '\0', text.size())) {
    const std::size_t at = static_cast<std::size_t>(static_cast<const char*>(nul) - text.data());
    out.error = "holds a NUL byte at " + text_position(text, at) + "; JSON text cannot contain one";
    return out;
  }
  std::size_t read = 0;
  json value;
  BoundedDom dom(text, &read, &value);
  const CountingIterator first{text.data(), &read}, last{text.data() + text.size(), &read};
  if (!json::sax_parse(first, last, &dom)) {
    out.error = dom.error().empty() ? "is not valid JSON" : dom.error();
    return out;
  }
  out.value = std::move(value);
  return out;
}

}  // namespace sizer
