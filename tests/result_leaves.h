// Result leaves for tests that check the public API's output against their own arithmetic
// (test_recompute_real_models.cpp, test_cross_output_properties.cpp, the refusal and rounding
// cases): run a scenario through the public API, look leaves up in the result JSON by dotted
// path, and compare them with values the test computed itself.
//
//   leaves::Run r = leaves::run(R"({"model": "llama-3-70b", "device": "gb200"})");
//   leaves::Expect x(r.result);
//   x.num("training.compute.flops", 6 * 70.55e9 * 15e12);        // relative tolerance 1e-9
//   x.count("training.compute.cluster_devices[0]", hours / 1944);  // a ceil()ed count
//
// Nothing here calls the core's formula helpers: only parse_scenario, evaluate, result_to_json
// and plan_to_json (the public front-end API).
#pragma once
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "sizer/sizer.h"

namespace leaves {

using nlohmann::json;

struct Run {
  bool ok = false;
  std::string issues;  // "path: message" lines when !ok
  std::vector<sizer::Issue> issue_list;
  sizer::Scenario s;
  json result;
};

inline Run run(const std::string& scenario_json) {
  Run r;
  sizer::ParsedScenario p = sizer::parse_scenario(scenario_json, sizer::bundled_catalog());
  r.issue_list = p.issues;
  r.ok = p.ok();
  if (!r.ok) {
    r.issues = sizer::format_issues(p.issues);
    return r;
  }
  r.s = p.scenario;
  r.result = sizer::result_to_json(r.s, sizer::evaluate(r.s), p.warnings);
  return r;
}

// "training.compute.cost_usd[1]" → the JSON value, or nullptr when any step is missing.
inline const json* find(const json& root, const std::string& path) {
  const json* cur = &root;
  std::size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '.') ++i;
    if (path[i] == '[') {
      const std::size_t close = path.find(']', i);
      const std::size_t idx = std::stoul(path.substr(i + 1, close - i - 1));
      if (!cur->is_array() || idx >= cur->size()) return nullptr;
      cur = &(*cur)[idx];
      i = close + 1;
      continue;
    }
    std::size_t end = path.find_first_of(".[", i);
    if (end == std::string::npos) end = path.size();
    const std::string key = path.substr(i, end - i);
    if (!cur->is_object()) return nullptr;
    auto it = cur->find(key);
    if (it == cur->end()) return nullptr;
    cur = &*it;
    i = end;
  }
  return cur;
}

inline bool close_rel(double got, double want, double rel) {
  if (want == 0) return std::fabs(got) <= rel;
  return std::fabs(got - want) <= rel * std::fabs(want);
}

// Collects leaf-by-leaf comparisons against one result document; counts them.
class Expect {
 public:
  explicit Expect(const json& result, std::string label = "") : r_(result), label_(std::move(label)) {}

  // A number computed by the test. `why` justifies any tolerance looser than 1e-9.
  void num(const std::string& path, double want, double rel = 1e-9, const char* why = "") {
    ++compared_;
    const json* v = find(r_, path);
    INFO(label_ << " leaf " << path << " expected " << fmt(want) << " (rel tol " << rel << ") " << why);
    if (v == nullptr) {
      FAIL_CHECK("missing leaf " << path);
      return;
    }
    if (!v->is_number()) {
      FAIL_CHECK(path << " is " << v->dump() << ", not a number");
      return;
    }
    const double got = v->get<double>();
    INFO("got " << fmt(got));
    CHECK(close_rel(got, want, rel));
  }

  // A whole count that the method rounds UP (ceil): devices, replicas, domains. When the exact
  // value sits within 1e-9 of an integer, floating-point noise may land on either side, so both
  // neighbours are accepted there.
  void count(const std::string& path, double exact) {
    const double up = std::ceil(exact);
    const double nearest = std::round(exact);
    if (std::fabs(exact - nearest) <= 1e-9 * std::max(1.0, std::fabs(exact))) {
      ++compared_;
      const json* v = find(r_, path);
      INFO(label_ << " leaf " << path << " expected ceil(" << fmt(exact) << ") = " << fmt(nearest) << " (exact multiple)");
      if (v == nullptr || !v->is_number()) {
        FAIL_CHECK("missing or non-numeric leaf " << path);
        return;
      }
      CHECK(v->get<double>() == nearest);
      return;
    }
    num(path, up, 0, "(a ceil()ed count must match exactly)");
  }

  void list(const std::string& path, const std::vector<double>& want, double rel = 1e-9, const char* why = "") {
    const json* v = find(r_, path);
    INFO(label_ << " list " << path);
    if (v == nullptr || !v->is_array()) {
      ++compared_;
      FAIL_CHECK(path << (v == nullptr ? " is missing" : " is " + v->dump() + ", not a list of " +
                                                             std::to_string(want.size()) + " values"));
      return;
    }
    CHECK(v->size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) num(path + "[" + std::to_string(i) + "]", want[i], rel, why);
  }

  void counts(const std::string& path, const std::vector<double>& exact) {
    for (std::size_t i = 0; i < exact.size(); ++i) count(path + "[" + std::to_string(i) + "]", exact[i]);
  }

  void str(const std::string& path, const std::string& want) {
    ++compared_;
    const json* v = find(r_, path);
    INFO(label_ << " leaf " << path << " expected \"" << want << "\"");
    if (v == nullptr) {
      FAIL_CHECK("missing leaf " << path);
      return;
    }
    CHECK(*v == json(want));
  }

  void null(const std::string& path, const char* why) {
    ++compared_;
    const json* v = find(r_, path);
    INFO(label_ << " leaf " << path << " must be null: " << why);
    if (v == nullptr) {
      FAIL_CHECK("missing leaf " << path);
      return;
    }
    CHECK(v->is_null());
  }

  void boolean(const std::string& path, bool want) {
    ++compared_;
    const json* v = find(r_, path);
    INFO(label_ << " leaf " << path);
    if (v == nullptr) {
      FAIL_CHECK("missing leaf " << path);
      return;
    }
    CHECK(*v == json(want));
  }

  int compared() const { return compared_; }

  static std::string fmt(double v) {
    char b[64];
    std::snprintf(b, sizeof b, "%.17g", v);
    return b;
  }

 private:
  const json& r_;
  std::string label_;
  int compared_ = 0;
};

// Visits every leaf (non-object, non-array value, including null) with its dotted path.
inline void walk(const json& v, const std::string& path, const std::function<void(const std::string&, const json&)>& f) {
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it) walk(it.value(), path.empty() ? it.key() : path + "." + it.key(), f);
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i) walk(v[i], path + "[" + std::to_string(i) + "]", f);
  } else {
    f(path, v);
  }
}

}  // namespace leaves
