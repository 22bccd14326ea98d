// json_object (sizer/contract/json_object.h).
#include "sizer/contract/json_object.h"

#include <utility>

namespace sizer {

nlohmann::json json_object(std::initializer_list<JsonField> fields) {
  nlohmann::json j = nlohmann::json::object();
  for (const JsonField& f : fields) j.emplace(f.key, std::move(f.value));
  return j;
}

}  // namespace sizer
