// Typed JSON reads with path-named errors (see json_read.h).
#include "sizer/contract/json_read.h"

#include <cmath>
#include <cstring>

#include "sizer/contract/user_text.h"
#include "sizer/formulas/working.h"

namespace sizer {

std::string format_issues(const std::vector<Issue>& issues) {
  std::string out;
  for (const Issue& i : issues) {
    // Messages echo user text through echo(); printable() also guards anything that did not.
    out += printable(i.path.empty() ? std::string("(document)") : i.path) + ": " + printable(i.message) + "\n";
  }
  return out;
}

namespace detail {

std::string show(const json& v) {
  switch (v.type()) {
    case json::value_t::string: return echo_quoted(v.get_ref<const std::string&>());
    case json::value_t::object: return "an object";
    case json::value_t::array: return "a list";
    case json::value_t::null: return "null";
    default: return echo(v.dump(-1, ' ', true, json::error_handler_t::replace));
  }
}

std::string describe(const Range& r) {
  std::string kind = r.integer ? "a whole number" : "a number";
  if (r.max >= 1e300) return kind + (r.min_open ? " > " : " ≥ ") + num(r.min);
  return kind + " in " + (r.min_open ? "(" : "[") + num(r.min) + ", " + num(r.max) + "]";
}

std::string join(const std::string& path, const char* key) {
  return path.empty() ? std::string(key) : path + "." + key;
}
std::string index(const std::string& path, std::size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

void Reader::error(const std::string& path, const std::string& message) {
  issues_->push_back({printable(path), printable(message)});
}

bool Reader::number_value(const json& v, const std::string& path, Range r, double* out) {
  if (!v.is_number()) {
    error(path, "must be " + describe(r) + "; got " + show(v));
    return false;
  }
  const double x = v.get<double>();
  const bool below = r.min_open ? !(x > r.min) : !(x >= r.min);
  if (!std::isfinite(x) || below || x > r.max) {
    error(path, "must be " + describe(r) + "; got " + show(v));
    return false;
  }
  if (r.integer && std::floor(x) != x) {
    error(path, "must be a whole number; got " + show(v));
    return false;
  }
  *out = x;
  return true;
}

bool Reader::number(const json& obj, const char* key, const std::string& path, Range r, double* out) {
  auto it = obj.find(key);
  if (it == obj.end()) return false;
  return number_value(*it, join(path, key), r, out);
}

bool Reader::integer(const json& obj, const char* key, const std::string& path, Range r, int* out) {
  double x = 0;
  r.integer = true;
  if (!number(obj, key, path, r, &x)) return false;
  *out = static_cast<int>(x);
  return true;
}

bool Reader::string(const json& obj, const char* key, const std::string& path, std::string* out) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return false;  // null = not given
  if (!it->is_string()) {
    error(join(path, key), "must be a string; got " + show(*it));
    return false;
  }
  const std::string& s = it->get_ref<const std::string&>();
  if (s.size() > 2000) {
    error(join(path, key), "is too long (at most 2000 characters)");
    return false;
  }
  *out = s;
  return true;
}

bool Reader::boolean(const json& obj, const char* key, const std::string& path, bool* out) {
  auto it = obj.find(key);
  if (it == obj.end()) return false;
  if (!it->is_boolean()) {
    error(join(path, key), "must be true or false; got " + show(*it));
    return false;
  }
  *out = it->get<bool>();
  return true;
}

void Reader::only_keys(const json& obj, const std::string& path,
                       std::initializer_list<const char*> allowed) {
  // Runs for every record of the bundled tables at start-up (thousands of keys against lists of up
  // to ~40 names), so most comparisons stop at the first character.
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    const std::string& key = it.key();
    const std::size_t n = key.size();
    const char first = n > 0 ? key[0] : '\0';
    bool known = false;
    for (const char* a : allowed) {
      if (a[0] == first && std::strlen(a) == n && std::memcmp(a, key.data(), n) == 0) {
        known = true;
        break;
      }
    }
    if (!known) {
      std::string list;
      for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      error(join(path, echo(it.key()).c_str()), "unknown field; allowed here: " + list);
    }
  }
}

bool Reader::object(const json& v, const std::string& path) {
  if (v.is_object()) return true;
  error(path, "must be an object; got " + show(v));
  return false;
}

}  // namespace detail
}  // namespace sizer
