// JSON objects built field by field: json_object({{"key", value}, ...}).
//
// The same braces given to nlohmann::json directly make, at every call site, a temporary json
// string for each key and a json_ref for each key and each value, each constructed and destroyed
// inline: about 100 bytes of WebAssembly per field. Here the key stays a pointer to its literal and
// one out-of-line function builds the object: the core's result and planner writers came out 21 KB
// smaller in the app's wasm and 29 KB in the JS API's (docs/budgets.md, tenth session). As with
// nlohmann's own braces, the first of two equal keys is kept.
#pragma once
#include <initializer_list>
#include <nlohmann/json.hpp>

namespace sizer {

// One "key": value of a json_object(). The value is moved into the object (mutable: the elements
// of an initializer list are const).
struct JsonField {
  const char* key;
  mutable nlohmann::json value;
};

nlohmann::json json_object(std::initializer_list<JsonField> fields);

}  // namespace sizer
