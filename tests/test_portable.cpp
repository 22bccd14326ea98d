// Portable scenarios, imported files, user tables and embed cards: what links, exports, the
// import picker and embeds rely on. Every input here may be hostile.
#include <catch2/catch.hpp>
#include <string>

#include "sizer/sizer.h"

using namespace sizer;
using nlohmann::json;

namespace {
const char* kUserTables = R"({
  "devices": [{"id": "my-x1", "name": "My X1", "memory_bytes": 2.56e11, "hbm_bytes_per_s": 1e13,
               "dense_flops": {"bf16": 3e15, "fp8": 6e15}, "scale_up_domain": 16, "scale_up_bytes_per_s": 1e12,
               "system_w": 2000}],
  "systems": [{"id": "my-x1-pod", "name": "X1 pod", "kind": "rack", "device": "my-x1", "devices": 64,
               "scale_up_domain": 64, "scale_up_bytes_per_s": 9e11, "system_w_per_device": 2100}],
  "prices": [{"id": "my-cloud-x1", "device": "my-x1", "provider": "My cloud", "offer_kind": "on_demand",
              "usd_per_device_hour": 4.25, "date_checked": "2026-01-01", "source": "quote"}]})";

Catalog user() {
  std::vector<Issue> issues;
  Catalog c = user_catalog(json::parse(kUserTables), &issues);
  REQUIRE(issues.empty());
  return c;
}

json resolved(const json& draft, const Catalog& c) {
  const auto p = parse_scenario(draft.dump(), c);
  REQUIRE(p.ok());
  return scenario_to_json(p.scenario);
}
}  // namespace

TEST_CASE("a portable scenario inlines user-supplied entries and reproduces the scenario", "[portable]") {
  const Catalog c = user();
  SECTION("device, system and price from the user's tables") {
    const json draft = {{"model", "moe-1t"}, {"device", "my-x1"}, {"system", "my-x1-pod"},
                        {"training", {{"price", "my-cloud-x1"}, {"days", 45}}}};
    const json p = portable_scenario(draft, c);
    CHECK(p["device"].is_object());
    CHECK_FALSE(p.contains("system"));
    CHECK(p["training"]["price"].is_object());
    // The user's system is not in the recipient's catalog: its values are folded into the device,
    // so everything but the system's id is reproduced.
    json want = resolved(draft, c);
    want.erase("system");
    CHECK(resolved(p, bundled_catalog()) == want);
    // And through a link.
    const DecodedShare d = decode_share(encode_share(p.dump()));
    REQUIRE(d.ok());
    CHECK(resolved(json::parse(d.scenario_json), bundled_catalog()) == want);
  }
  SECTION("a user device whose default price is the user's offer keeps the cost") {
    json t = json::parse(kUserTables);
    t["devices"][0]["default_price"] = "my-cloud-x1";
    std::vector<Issue> issues;
    const Catalog c2 = user_catalog(t, &issues);
    REQUIRE(issues.empty());
    const json draft = {{"device", "my-x1"}};
    CHECK(resolved(portable_scenario(draft, c2), bundled_catalog()) == resolved(draft, c2));
  }
  SECTION("bundled entries stay ids") {
    const json draft = {{"device", "h100"}, {"training", {{"price", "aws-p5-h100"}}}};
    CHECK(portable_scenario(draft, c) == draft);
  }
}

TEST_CASE("imported files: scenarios, results and tables, refused whole when wrong", "[portable][bad]") {
  const Catalog& c = bundled_catalog();
  CHECK(import_document(R"({"model": "moe-1t"})", c).kind == ImportKind::scenario);
  CHECK(import_document(R"({"model": "moe-1t"})", c).ok());
  const json r = result_to_json(default_scenario(c), evaluate(default_scenario(c), false));
  const Imported from_result = import_document(r.dump(), c);
  REQUIRE(from_result.ok());
  CHECK(from_result.scenario == r["scenario"]);
  const Imported tables = import_document(kUserTables, c);
  REQUIRE(tables.ok());
  CHECK(tables.kind == ImportKind::tables);
  REQUIRE(tables.catalog.find_device("my-x1"));
  CHECK(tables.catalog.find_device("my-x1")->user_supplied);
  const std::string bad[] = {
      "", "{", "[]", "42", "\"s1.e30\"", "null", R"({"model": "nope"})", R"({"training": {"days": -1}})",
      R"({"devices": [{"id": "BAD ID"}]})", R"({"devices": "x"})", R"({"model": "moe-1t", "devices": []})",
      R"({"schema": "sizer.result.v1"})", R"({"schema": "sizer.scenario.v9"})", std::string(kMaxImportBytes + 1, ' '),
      R"({"prices": [{"id": "p", "device": "ghost", "usd_per_device_hour": 1}]})", "{\"model\": \"\xff\"}",
  };
  for (const std::string& b : bad) {
    INFO(b.substr(0, 60));
    const Imported in = import_document(b, c);
    CHECK_FALSE(in.ok());
    REQUIRE_FALSE(in.issues.empty());
    CHECK_FALSE(in.issues[0].message.empty());
  }
}

TEST_CASE("user tables: upsert by id, validated, removable", "[portable]") {
  json t = json::object();
  CHECK(upsert_user_tables(&t, json::parse(kUserTables)).empty());
  CHECK(t["devices"].size() == 1);
  json edit = json::parse(kUserTables);
  edit.erase("systems");
  edit.erase("prices");
  edit["devices"][0]["name"] = "My X1 v2";
  CHECK(upsert_user_tables(&t, edit).empty());
  CHECK(t["devices"].size() == 1);
  CHECK(t["devices"][0]["name"] == "My X1 v2");
  const json before = t;
  CHECK_FALSE(upsert_user_tables(&t, json::parse(R"({"devices": [{"id": "y", "memory_bytes": -1}]})")).empty());
  CHECK(t == before);  // refused edits leave the tables alone
  remove_user_row(&t, "prices", "my-cloud-x1");
  CHECK(t["prices"].empty());
}

TEST_CASE("embed fragments and cards", "[embed]") {
  const std::string link = encode_share(R"({"model": "moe-1t", "training": {"days": 30}})");
  SECTION("a good fragment") {
    const EmbedRequest q = parse_embed_fragment("#s=" + link + "&show=cluster_devices,cost_usd,serving.replica_devices&in=training.days&title=My%20run");
    REQUIRE(q.issues.empty());
    CHECK(q.title == "My run");
    const EmbedCard card = embed_card(q, bundled_catalog());
    CHECK(card.issues.empty());
    REQUIRE(card.outputs.size() == 3);
    CHECK(card.outputs[0].path == "training.compute.cluster_devices");
    CHECK(card.outputs[2].path == "serving.replica_devices");
    REQUIRE(card.inputs.size() == 1);
    CHECK(card.inputs[0].value == 30);
    const auto p = parse_scenario(R"({"model": "moe-1t", "training": {"days": 30}})", bundled_catalog());
    const json r = result_to_json(p.scenario, evaluate(p.scenario, false));
    CHECK(card.outputs[1].value == r["training"]["compute"]["cost_usd"]);
  }
  SECTION("JSON scenarios and links both work in j=") {
    CHECK(parse_embed_fragment("j=%7B%22model%22%3A%22moe-1t%22%7D").scenario["model"] == "moe-1t");
    CHECK(parse_embed_fragment("j=" + link).scenario["model"] == "moe-1t");
  }
  SECTION("unknown names are listed; fragments without a scenario give messages and the defaults") {
    const EmbedCard card = embed_card(parse_embed_fragment("s=" + link + "&show=cost_usd,nope,bogus_leaf"), bundled_catalog());
    REQUIRE(card.issues.size() == 1);
    CHECK(card.issues[0].message.find("nope, bogus_leaf") != std::string::npos);
    CHECK(card.error.empty());
    const std::string bad[] = {"", "show=<script>", "x=1", std::string(kMaxEmbedFragmentChars + 1, 'a'),
                               "s=" + link + "&in=model.layers,__proto__"};
    for (const std::string& b : bad) {
      INFO(b.substr(0, 60));
      const EmbedCard c = embed_card(parse_embed_fragment(b), bundled_catalog());
      CHECK_FALSE(c.issues.empty());
      CHECK(c.error.empty());
      CHECK_FALSE(c.outputs.empty());  // no scenario was named (or it was read): its numbers show
      // The JS API hands the request to the card as JSON: its problems must survive the trip.
      const EmbedCard via_json = embed_card(embed_request_from_json(embed_request_to_json(parse_embed_fragment(b))),
                                            bundled_catalog());
      CHECK_FALSE(via_json.issues.empty());
    }
  }
  SECTION("a scenario that is named but cannot be used gives an error and no numbers") {
    const std::string unknown_model = encode_share(R"({"model": "no-such-model", "training": {"days": 30}})");
    const std::string bad[] = {"s=" + unknown_model + "&title=My%20run", "j=%7B%22model%22%3A%22llama-9t%22%7D",
                               "s=", "s=s2.e30", "s=s1.!!", "j=%7B", "j=%ZZ", "s=" + link + "&s=" + link, "j=%5B1%5D",
                               "j=%7B%22device%22%3A%22h100%22%2C%22training%22%3A%7B%22days%22%3A-1%7D%7D"};
    for (const std::string& b : bad) {
      INFO(b.substr(0, 60));
      for (const EmbedCard& c : {embed_card(parse_embed_fragment(b), bundled_catalog()),
                                 embed_card(embed_request_from_json(embed_request_to_json(parse_embed_fragment(b))),
                                            bundled_catalog())}) {
        CHECK_FALSE(c.error.empty());
        CHECK(c.outputs.empty());
        CHECK(c.inputs.empty());
        CHECK(c.model.empty());
        CHECK(c.link.empty());
        CHECK_FALSE(c.issues.empty());
      }
    }
    const EmbedCard c = embed_card(parse_embed_fragment("s=" + unknown_model + "&title=My%20run&show=cost_usd&in=training.days"),
                                   bundled_catalog());
    CHECK(c.title == "My run");
    bool names_model = false;
    for (const Issue& i : c.issues) names_model = names_model || (i.path == "model" && i.message.find("no-such-model") != std::string::npos);
    CHECK(names_model);
    const json j = embed_card_to_json(c);
    CHECK(j["outputs"].empty());
    CHECK(j["error"].get<std::string>().find("no numbers") != std::string::npos);
  }
}
