// Embeds: a compact card for one scenario, shown by embed.html in a blog post's iframe.
//
// The card's address carries everything in its fragment, so a static page can show it:
//   embed.html#s=s1.<link>&show=cluster_devices,cost_usd&in=training.days&title=My%20run
//   (or j=<percent-encoded scenario JSON> instead of s=, as embed.js writes for data-sizer JSON)
// `show` names v1 result leaves ("cost_usd") or full paths ("training.compute.cost_usd"); `in`
// names scenario inputs (training.*, serving.*, power.*) the reader may edit in the card.
//
//   sizer::EmbedRequest q = sizer::parse_embed_fragment(location_hash);   // untrusted
//   sizer::EmbedCard card = sizer::embed_card(q, sizer::bundled_catalog());
//   for (auto& o : card.outputs) show(o.label, o.text);                      // as text, never HTML
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sizer/planners/catalog.h"
#include "sizer/contract/issue.h"

namespace sizer {

constexpr std::size_t kMaxEmbedFragmentChars = 3 * 16384;  // a percent-encoded JSON scenario is longer
constexpr std::size_t kMaxEmbedOutputs = 12;
constexpr std::size_t kMaxEmbedInputs = 8;
constexpr std::size_t kMaxEmbedTitleChars = 80;

struct EmbedRequest {
  nlohmann::json scenario = nlohmann::json::object();  // sparse scenario draft
  std::vector<std::string> show;    // as given; checked by embed_card
  std::vector<std::string> inputs;  // as given; checked by embed_card
  std::string title;
  std::vector<Issue> issues;        // the fragment's problems ("scenario"/"link": no numbers shown)
};

// Parses "s=...&show=...&in=...&title=..." (leading '#' optional). Strict: size cap, known keys,
// valid percent-encoding, a decodable link or a JSON object.
EmbedRequest parse_embed_fragment(std::string_view fragment);
// The same request from its JSON form {"scenario", "show", "inputs", "title"} (the JS API's).
EmbedRequest embed_request_from_json(const nlohmann::json& j);
nlohmann::json embed_request_to_json(const EmbedRequest& q);

struct EmbedItem {
  std::string name;   // as requested ("cost_usd")
  std::string path;   // resolved ("training.compute.cost_usd")
  std::string label;  // "Cost"
  std::string text;   // "$257M – $371M"
  nlohmann::json value;  // the number(s) exactly as in the result document
  std::string interval;  // "p10–p90: 1,530 – 2,210" for headlines with an interval (result "intervals"), else ""
};

struct EmbedCard {
  std::string title, model, device;
  bool user_supplied = false;  // the scenario uses a user-supplied model, hardware or price
  std::vector<EmbedItem> inputs, outputs;
  std::string link;           // "s1.…" of the scenario (for "open in the full calculator")
  std::vector<Issue> issues;  // unknown names, invalid scenario: the card says so
  // Non-empty when the scenario was given but cannot be used (damaged link, unknown model id):
  // the card then has no outputs, inputs, model or link, only this and the issues.
  std::string error;
};

EmbedCard embed_card(const EmbedRequest& q, const Catalog& catalog);
nlohmann::json embed_card_to_json(const EmbedCard& card);

// Resolves a leaf name or dotted path in a result document; "" when unknown.
std::string resolve_result_name(const nlohmann::json& result, std::string_view name);

}  // namespace sizer
