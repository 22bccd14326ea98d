// Internal: typed, range-checked reads from nlohmann::json with JSON-path error messages.
// Used by the catalog loader and the scenario parser; never throws.
#pragma once
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sizer/contract/issue.h"

namespace sizer::detail {

using nlohmann::json;

struct Range {
  double min;
  double max;
  bool min_open = false;  // true: min itself is not allowed
  bool integer = false;
};

// Short, safe rendering of a JSON value for messages: strings quoted() (escaped, cut on a
// character boundary), containers named, numbers as written.
std::string show(const json& v);
std::string describe(const Range& r);

std::string join(const std::string& path, const char* key);
std::string index(const std::string& path, std::size_t i);

class Reader {
 public:
  explicit Reader(std::vector<Issue>* issues) : issues_(issues) {}
  // Paths and messages are made printable() here, so user text that reached them unescaped
  // (a cut id, a key) still cannot forge a line or leave broken UTF-8.
  void error(const std::string& path, const std::string& message);

  // Each read returns true when the key is present and valid; absent keys leave *out unchanged.
  bool number(const json& obj, const char* key, const std::string& path, Range r, double* out);
  bool integer(const json& obj, const char* key, const std::string& path, Range r, int* out);
  bool string(const json& obj, const char* key, const std::string& path, std::string* out);
  bool boolean(const json& obj, const char* key, const std::string& path, bool* out);
  bool number_value(const json& v, const std::string& path, Range r, double* out);
  // Reports keys not in `allowed`.
  void only_keys(const json& obj, const std::string& path, std::initializer_list<const char*> allowed);
  bool object(const json& v, const std::string& path);

 private:
  std::vector<Issue>* issues_;
};

}  // namespace sizer::detail
