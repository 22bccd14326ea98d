// Portable scenarios and imported files: what the web UI puts in links, exports and offline
// copies, and how it reads a file a user drops on it. All input here is untrusted.
//
//   // A draft that names user-supplied catalog entries ("device": "my-x1") becomes one that any
//   // Sizer (the CLI, a link's recipient) can read: those entries are inlined as objects.
//   nlohmann::json p = sizer::portable_scenario(draft, user_catalog);
//   std::string link = sizer::encode_share(p.dump());
//
//   sizer::Imported in = sizer::import_document(file_text, user_catalog);
//   if (!in.ok()) show(in.issues);                 // nothing is applied
//   else if (in.kind == sizer::ImportKind::tables) user_catalog = in.catalog;
//   else use(in.scenario);                         // a valid scenario draft
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sizer/planners/catalog.h"
#include "sizer/contract/issue.h"

namespace sizer {

constexpr std::size_t kMaxImportBytes = 1 << 20;  // files larger than 1 MiB are refused unread

// `draft` (a sparse v1 scenario) with every user-supplied entry of `catalog` it refers to inlined:
// the device (with a user-supplied system's values folded in, the system dropped), the model and
// the training/serving price offers. Bundled entries stay ids. Returns the draft unchanged when it
// does not parse against `catalog`.
nlohmann::json portable_scenario(const nlohmann::json& draft, const Catalog& catalog);

enum class ImportKind { none, scenario, tables };

struct Imported {
  ImportKind kind = ImportKind::none;
  nlohmann::json scenario;    // kind == scenario: the scenario as given (a result file's "scenario")
  Catalog catalog;            // kind == tables: the input catalog with the file's rows merged
  nlohmann::json tables;      // kind == tables: the rows the file added, as {"devices": [...], ...}
  std::vector<Issue> issues;  // why the file was refused (then nothing should be applied)
  std::vector<std::string> notes;  // a Hugging Face config.json: what the model import assumed
  bool ok() const { return issues.empty() && kind != ImportKind::none; }
};

// Reads a scenario file, a result file (its "scenario" is used), a Hugging Face config.json (a
// scenario with that model, model_import.h; quantised checkpoints set serving.weight_precision) or a table file
// ({"devices"|"systems"|"prices"|"models": [...]}). Size-capped, strict: any problem refuses the
// whole file, with the JSON path and a message for each.
Imported import_document(std::string_view text, const Catalog& catalog);

// Adds `rows` ({"devices": [...], ...}) to a stored user-table document (upserting by id) and
// checks the result against the bundled catalog. On success `*tables` is replaced.
std::vector<Issue> upsert_user_tables(nlohmann::json* tables, const nlohmann::json& rows);
// Removes the row `id` from list `list` ("devices" | "systems" | "prices") of the user tables.
void remove_user_row(nlohmann::json* tables, const std::string& list, const std::string& id);
// The bundled catalog plus the user tables (entries with problems are skipped and reported).
Catalog user_catalog(const nlohmann::json& tables, std::vector<Issue>* issues);

}  // namespace sizer
