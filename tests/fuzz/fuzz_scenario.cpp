// libFuzzer target for the untrusted-input parsers: scenarios, share-link fragments, user tables,
// imported files and embed addresses.
// Any input must either be refused with issues, or evaluate to a finite result. Build with
// -DSIZER_FUZZ=ON using clang (scripts/fuzz.sh does this) and run for as long as you like.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "sizer/sizer.h"

namespace {

bool all_finite(const nlohmann::json& j) {
  if (j.is_number_float()) return std::isfinite(j.get<double>());
  if (j.is_structured()) {
    for (const auto& x : j) {
      if (!all_finite(x)) return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const sizer::ParsedScenario p = sizer::parse_scenario(text, sizer::bundled_catalog());
  if (p.ok()) {
    const sizer::Estimate e = sizer::evaluate(p.scenario);
    const nlohmann::json r = sizer::result_to_json(p.scenario, e, p.warnings);
    if (!all_finite(r)) std::abort();
    (void)r.dump();  // serialization must not throw on any produced string
    const nlohmann::json plan = sizer::plan_to_json(p.scenario);
    if (!all_finite(plan)) std::abort();
  } else if (p.issues.front().message.empty()) {
    std::abort();
  }
  // Share-link fragments (untrusted): decode, then the ordinary parser.
  const sizer::DecodedShare link = sizer::decode_share(text);
  if (link.ok()) (void)sizer::parse_scenario(link.scenario_json, sizer::bundled_catalog());
  const sizer::DecodedShare round = sizer::decode_share(sizer::encode_share(text));
  if (p.ok() && size < 8000 && !round.ok()) std::abort();  // valid scenarios survive a link round trip
  sizer::Catalog c = sizer::bundled_catalog();
  (void)sizer::merge_tables(c, text, true);
  // Imported files (scenario, result or tables) and embed addresses (untrusted).
  const sizer::Imported in = sizer::import_document(text, sizer::bundled_catalog());
  if (!in.ok() && in.issues.empty()) std::abort();
  if (in.ok() && in.kind == sizer::ImportKind::scenario) {
    (void)sizer::portable_scenario(in.scenario, sizer::bundled_catalog());
  }
  if (size < 2048) {  // the card evaluates a scenario: keep the run fast
    const sizer::EmbedCard card = sizer::embed_card(sizer::parse_embed_fragment(text), sizer::bundled_catalog());
    if (card.outputs.empty()) std::abort();  // a card always shows something (the defaults at worst)
    (void)sizer::embed_card_to_json(card).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  return 0;
}
