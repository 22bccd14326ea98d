// libFuzzer target for embed cards: the input as an address fragment and as a JSON request
// (the JS API's embedCard). A card shows results or says why it cannot.
#include <cstdint>
#include <string_view>

#include "fuzz_common.h"
#include "sizer/contract/catalog_load.h"
#include "sizer/contract/json_safe.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const sizer::EmbedRequest q = sizer::parse_embed_fragment(text);
  fuzz::check_issues(q.issues);
  const sizer::JsonDocument j = sizer::parse_json(text, 1 << 20);
  const sizer::EmbedRequest r = j.ok() ? sizer::embed_request_from_json(j.value) : sizer::EmbedRequest{};
  fuzz::check_issues(r.issues);
  if (size < 2048) {  // a card evaluates a scenario: keep the run fast
    for (const sizer::EmbedRequest* req : {&q, &r}) {
      const sizer::EmbedCard card = sizer::embed_card(*req, sizer::bundled_catalog());
      if (card.outputs.empty() && card.issues.empty()) std::abort();  // shows results, or says why not
      fuzz::check_issues(card.issues);
      (void)sizer::embed_card_to_json(card).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
  }
  return 0;
}
