// `sizer`: command-line front end. Reads scenarios (JSON, v1 contract), prints results.
//
//   sizer eval SCENARIO.json|- [--format json|csv|markdown]   results (JSON: the v1 contract)
//   sizer report SCENARIO.json|-        readable text report with the working
//   sizer list devices|systems|prices|models [--json]
//   sizer table [SCENARIO.json|-] [--format text|csv|json|markdown] [--precisions bf16,fp8]
//               [--devices h100,gb200]
//   sizer plan SCENARIO.json|-          layout model: step time, MFU and memory of training.layout
//   sizer search SCENARIO.json|-        best layouts for training.search (devices, objective, top)
//   sizer validate RUNS.json            predicted vs published runs (docs/validation/runs.json); a
//                                       serving runs file (docs/validation/serving-runs.json) too
//   sizer calibrate RUNS.json [...] [--devices ids] [--fit params] [--loso]   per-chip fit, leave-one-source-out
//   sizer version
// Options for every command: --tables FILE (add or replace catalog entries; repeatable).
// Exit status: 0 success, 2 invalid input (message names the JSON path), 1 other failure.
// Input size caps (reading stops one byte past the cap): scenarios and import-hf's config.json
// 1 MiB, --tables and validation files 8 MiB each.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli.h"
#include "sizer/contract/catalog_load.h"
#include "sizer/io/model_import.h"

namespace {

constexpr int kExitInvalid = 2;

int usage() {
  std::cerr << "usage: sizer eval|report SCENARIO.json|- [--no-working] [--tables FILE]\n"
               "       sizer eval SCENARIO.json|- --format json|csv|markdown\n"
               "       sizer list devices|systems|prices|models [--json]\n"
               "       sizer table [SCENARIO.json|-] [--format text|csv|json|markdown]\n"
               "                   [--precisions bf16,fp8,...] [--devices id,id,...]\n"
               "       sizer plan|search SCENARIO.json|-\n"
               "       sizer serve-search SCENARIO.json|- [--devices all|id,id,...]   (needs serving.workload)\n"
               "       sizer validate RUNS.json [MORE.json ...] [--format text|markdown|json]\n"
               "       sizer calibrate RUNS.json [MORE.json ...] [--devices id,...] [--fit gemm,...] [--loso]\n"
               "       sizer import-hf CONFIG.json|-   (a Hugging Face config.json → a v1 model object)\n"
               "       sizer version\n";
  return kExitInvalid;
}

// A file name as shown in messages: escaped, cut on a character boundary.
std::string shown(const std::string& name) { return name == "-" ? "(stdin)" : sizer::echo(name, 200); }

std::string mib(std::size_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// Reads `name` ("-" = stdin) in chunks, stopping as soon as it holds more than `cap` bytes, so an
// endless input (/dev/zero, a pipe) cannot grow memory. `what` names the input in messages.
bool read_input(const std::string& name, std::size_t cap, const char* what, std::string* out,
                std::string* error) {
  std::FILE* f = name == "-" ? stdin : std::fopen(name.c_str(), "rb");
  if (!f) {
    *error = shown(name) + ": cannot open file (" + std::strerror(errno) + ")";
    return false;
  }
  out->clear();
  char chunk[1 << 16];
  bool failed = false;
  while (out->size() <= cap) {
    const std::size_t want = std::min(sizeof chunk, cap + 1 - out->size());  // never past cap + 1
    const std::size_t n = std::fread(chunk, 1, want, f);
    out->append(chunk, n);
    if (n < want) {
      failed = std::ferror(f) != 0;
      break;
    }
  }
  const int read_errno = errno;
  if (f != stdin) std::fclose(f);
  if (out->size() > cap) {
    *error = shown(name) + ": " + what + " is larger than the " + mib(cap) + " limit (" + std::to_string(cap) +
             " bytes); stopped reading there";
    out->clear();
    return false;
  }
  if (failed) {
    *error = shown(name) + ": cannot read (" + std::strerror(read_errno) + ")";
    return false;
  }
  return true;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == ',') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

struct Args {
  std::string command;
  std::vector<std::string> positional;
  std::vector<std::string> tables;
  std::string format = "text";
  std::string precisions;
  std::string devices;
  std::string fit = "gemm";
  bool loso = false;
  bool json = false;
  bool working = true;
};

bool parse_args(int argc, char** argv, Args* a) {
  if (argc < 2) return false;
  a->command = argv[1];
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](std::string* out) {
      if (i + 1 >= argc) return false;
      *out = argv[++i];
      return true;
    };
    std::string v;
    if (arg == "--tables" && value(&v)) a->tables.push_back(v);
    else if (arg == "--format" && value(&a->format)) {}
    else if (arg == "--precisions" && value(&a->precisions)) {}
    else if (arg == "--devices" && value(&a->devices)) {}
    else if (arg == "--fit" && value(&a->fit)) {}
    else if (arg == "--loso") a->loso = true;
    else if (arg == "--json") a->json = true;
    else if (arg == "--no-working") a->working = false;
    else if (arg.size() > 1 && arg[0] == '-' && arg != "-") {
      std::cerr << "sizer: unknown option " << sizer::echo_quoted(arg) << "\n";
      return false;
    } else {
      a->positional.push_back(arg);
    }
  }
  return true;
}

// Loads the bundled catalog plus any --tables files. Returns false (after printing) on bad tables.
bool load_catalog(const Args& a, sizer::Catalog* c) {
  *c = sizer::bundled_catalog();
  for (const std::string& file : a.tables) {
    std::string text, error;
    if (!read_input(file, sizer::kMaxTablesBytes, "the tables file", &text, &error)) {
      std::cerr << "sizer: --tables " << error << "\n";
      return false;
    }
    const auto issues = sizer::merge_tables(*c, text, true);
    if (!issues.empty()) {
      std::cerr << "sizer: invalid tables in " << shown(file) << ":\n" << sizer::format_issues(issues);
      return false;
    }
  }
  return true;
}

bool load_scenario(const std::string& name, const sizer::Catalog& c, sizer::ParsedScenario* out) {
  std::string text, error;
  if (!read_input(name, sizer::kMaxScenarioBytes, "the scenario", &text, &error)) {
    std::cerr << "sizer: " << error << "\n";
    return false;
  }
  *out = sizer::parse_scenario(text, c);
  if (!out->ok()) {
    std::cerr << "sizer: invalid scenario " << shown(name) << ":\n"
              << sizer::format_issues(out->issues);
    return false;
  }
  return true;
}

int cmd_list(const Args& a, const sizer::Catalog& c) {
  if (a.positional.size() != 1) return usage();
  const std::string what = a.positional[0];
  nlohmann::json j = nlohmann::json::array();
  std::ostringstream text;
  if (what == "devices") {
    for (const auto& d : c.devices) {
      j.push_back(sizer::device_to_json(d));
      text << d.id << "\t" << d.name << "\t" << sizer::fmt::bytes(d.memory_bytes) << "\t"
           << sizer::fmt::bytes_per_s(d.hbm_bytes_per_s) << "\tBF16 dense "
           << sizer::fmt::flops_per_s(d.dense_flops_bf16) << (d.user_supplied ? "\t(user-supplied)" : "") << "\n";
    }
  } else if (what == "systems") {
    for (const auto& s : c.systems) {
      j.push_back(sizer::system_to_json(s));
      text << s.id << "\t" << s.name << "\t" << s.devices << " × " << s.device << "\tscale-up domain "
           << s.scale_up_domain << (s.user_supplied ? "\t(user-supplied)" : "") << "\n";
    }
  } else if (what == "prices") {
    for (const auto& p : c.prices) {
      j.push_back(sizer::price_to_json(p));
      text << p.id << "\t" << p.device << "\t" << p.provider << "\t" << p.offer_kind << "\t$"
           << p.usd_per_device_hour << "/device-hour\t" << p.region << "\tchecked " << p.date_checked
           << (p.user_supplied ? "\t(user-supplied)" : "") << "\n";
    }
  } else if (what == "models") {
    for (const auto& m : c.models) {
      j.push_back(sizer::model_to_json(m));
      text << m.id << "\t" << m.name << "\t" << sizer::fmt::count(m.params) << " params, "
           << sizer::fmt::count(m.active_params) << " active\n";
    }
  } else {
    std::cerr << "sizer: list " << sizer::echo_quoted(what) << "? allowed: devices, systems, prices, models\n";
    return kExitInvalid;
  }
  std::cout << (a.json ? j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n" : text.str());
  return 0;
}

int cmd_table(const Args& a, const sizer::Catalog& c) {
  sizer::Scenario s = sizer::default_scenario(c);
  if (!a.positional.empty()) {
    sizer::ParsedScenario p;
    if (!load_scenario(a.positional[0], c, &p)) return kExitInvalid;
    s = p.scenario;
  }
  std::vector<sizer::Precision> precisions;
  for (const std::string& p : split(a.precisions.empty() ? "bf16,fp8" : a.precisions)) {
    sizer::Precision prec;
    if (!sizer::parse_precision(p.c_str(), &prec)) {
      std::cerr << "sizer: --precisions: unknown precision " << sizer::echo_quoted(p) << "; allowed: fp32, bf16, fp16, fp8, fp4\n";
      return kExitInvalid;
    }
    precisions.push_back(prec);
  }
  const std::vector<std::string> devices = split(a.devices);
  for (const std::string& d : devices) {
    if (!c.find_device(d) || c.find_device(d)->id != d) {
      std::cerr << "sizer: --devices: unknown device " << sizer::echo_quoted(d) << "; known: " << c.device_ids() << "\n";
      return kExitInvalid;
    }
  }
  if (a.format != "text" && a.format != "csv" && a.format != "json" && a.format != "markdown") {
    std::cerr << "sizer: --format must be text, csv, json or markdown\n";
    return kExitInvalid;
  }
  std::cout << sizer::cli::render_table(sizer::compare_devices(s, c, precisions, devices), a.format);
  return 0;
}

// Predicted against published throughput for each run in a validation file.
// Several files are one set (e.g. runs.json and runs-extended.json): rows in file order.
// Training files (sizer.validation.v1) and serving files (sizer.serving_validation.v1) are told
// apart by their "schema"; one call takes files of one kind only.
struct RunFiles {
  std::vector<std::string> texts;
  bool serving = false;
};

// Reads every runs file named on the command line; false (after printing) on an unreadable file
// or on a mix of training and serving files.
bool read_run_files(const Args& a, RunFiles* out) {
  std::string first_serving, first_training;
  for (const std::string& file : a.positional) {
    std::string text, error;
    if (!read_input(file, sizer::kMaxValidationBytes, "the validation file", &text, &error)) {
      std::cerr << "sizer: " << error << "\n";
      return false;
    }
    const bool serving = sizer::validation_schema(text) == sizer::kServingValidationSchema;
    std::string& first = serving ? first_serving : first_training;
    if (first.empty()) first = file;
    out->texts.push_back(std::move(text));
  }
  if (!first_serving.empty() && !first_training.empty()) {
    std::cerr << "sizer: " << shown(first_serving) << " holds serving runs (" << sizer::kServingValidationSchema
              << ") and " << shown(first_training)
              << " training runs; they are compared on different metrics: validate them in separate calls\n";
    return false;
  }
  out->serving = !first_serving.empty();
  return true;
}

bool load_runs(const Args& a, const sizer::Catalog& c, const RunFiles& files, std::vector<sizer::ValidationRow>* out) {
  for (std::size_t i = 0; i < files.texts.size(); ++i) {
    std::vector<sizer::Issue> issues;
    const auto more = sizer::validate_runs(files.texts[i], c, &issues);
    if (!issues.empty()) {
      std::cerr << "sizer: invalid validation file " << shown(a.positional[i]) << ":\n" << sizer::format_issues(issues);
      return false;
    }
    out->insert(out->end(), more.begin(), more.end());
  }
  return true;
}

bool load_serving_runs(const Args& a, const sizer::Catalog& c, const RunFiles& files,
                       std::vector<sizer::ServeValidationRow>* out) {
  for (std::size_t i = 0; i < files.texts.size(); ++i) {
    std::vector<sizer::Issue> issues;
    const auto more = sizer::validate_serving_runs(files.texts[i], c, &issues);
    if (!issues.empty()) {
      std::cerr << "sizer: invalid serving validation file " << shown(a.positional[i]) << ":\n"
                << sizer::format_issues(issues);
      return false;
    }
    out->insert(out->end(), more.rows.begin(), more.rows.end());
  }
  return true;
}

int cmd_validate(const Args& a, const sizer::Catalog& c) {
  if (a.positional.empty()) return usage();
  if (a.format != "text" && a.format != "markdown" && a.format != "json") {
    std::cerr << "sizer: validate --format must be text, markdown or json\n";
    return kExitInvalid;
  }
  RunFiles files;
  if (!read_run_files(a, &files)) return kExitInvalid;
  if (files.serving) {
    std::vector<sizer::ServeValidationRow> rows;
    if (!load_serving_runs(a, c, files, &rows)) return kExitInvalid;
    std::cout << sizer::cli::render_serving_validation(rows, a.format);
    return 0;
  }
  std::vector<sizer::ValidationRow> rows;
  if (!load_runs(a, c, files, &rows)) return kExitInvalid;
  std::cout << sizer::cli::render_validation(rows, a.format);
  return 0;
}

int cmd_calibrate(const Args& a, const sizer::Catalog& c) {
  if (a.positional.empty()) return usage();
  RunFiles files;
  if (!read_run_files(a, &files)) return kExitInvalid;
  if (files.serving) {
    std::cerr << "sizer: calibrate fits the training layout model; serving runs ("
              << sizer::kServingValidationSchema
              << ") are fitted by scripts/fit-serving.py (docs/serving-validation.md); use sizer validate\n";
    return kExitInvalid;
  }
  std::vector<sizer::ValidationRow> rows;
  if (!load_runs(a, c, files, &rows)) return kExitInvalid;
  const std::vector<std::string> params = split(a.fit);
  for (const std::string& p : params) {
    if (!sizer::is_fittable(p)) {
      std::string names;
      for (const std::string& n : sizer::fittable_parameters()) names += (names.empty() ? "" : ", ") + n;
      std::cerr << "sizer: --fit " << sizer::echo_quoted(p) << " is not a fittable parameter; use one or more of "
                << names << "\n";
      return kExitInvalid;
    }
  }
  std::cout << sizer::cli::render_calibration(&rows, split(a.devices), params, a.loso);
  return 0;
}

// `sizer import-hf`: a Hugging Face config.json (a file, never a download) → {"model", ...}.
int cmd_import_hf(const Args& a) {
  if (a.positional.size() != 1) return usage();
  std::string text, error;
  // The core importer refuses a config.json over kMaxImportBytes (1 MiB, docs/contract.md), so
  // reading stops there too and the message names that cap.
  if (!read_input(a.positional[0], sizer::kMaxImportBytes, "the config.json", &text, &error)) {
    std::cerr << "sizer: " << error << "\n";
    return kExitInvalid;
  }
  const sizer::ImportedModel m = sizer::import_hf_config(text);
  if (!m.ok()) {
    std::cerr << "sizer: cannot import " << shown(a.positional[0]) << ":\n";
    for (const sizer::Issue& i : m.issues) {
      std::cerr << (i.path.empty() ? "config" : "config." + i.path) << ": " << i.message << "\n";
    }
    return kExitInvalid;
  }
  std::cout << sizer::imported_model_to_json(m).dump(2) << "\n";
  return 0;
}

// `sizer plan` / `sizer search`: the layout planner on training.layout, or its search.
int cmd_plan(const Args& a, const sizer::Catalog& catalog) {
  if (a.positional.size() != 1) return usage();
  sizer::ParsedScenario p;
  if (!load_scenario(a.positional[0], catalog, &p)) return kExitInvalid;
  nlohmann::json out;
  if (a.command == "plan") {
    out = sizer::plan_to_json(p.scenario);
  } else {
    const auto start = std::chrono::steady_clock::now();
    sizer::SearchResult r = sizer::search_layouts(p.scenario);
    r.search_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    out = sizer::search_to_json(p.scenario, r);
  }
  std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  return 0;
}

// `sizer serve-search`: the serving search on the scenario's chip, or (--devices) on several.
int cmd_serve_search(const Args& a, const sizer::Catalog& catalog) {
  if (a.positional.size() != 1) return usage();
  sizer::ParsedScenario p;
  if (!load_scenario(a.positional[0], catalog, &p)) return kExitInvalid;
  std::vector<std::string> ids;
  if (!a.devices.empty() && a.devices != "all") ids = split(a.devices);
  const std::vector<sizer::Issue> refused = sizer::serve::serve_search_issues(p.scenario, catalog, ids);
  for (const sizer::Issue& i : refused) {
    std::cerr << "sizer: " << (i.path == "devices" ? "--devices" : i.path) << ": " << i.message << "\n";
  }
  if (!refused.empty()) return kExitInvalid;
  nlohmann::json out;
  if (!a.devices.empty()) {  // every chip (or the ones listed), side by side
    out = sizer::serve::serve_chips_to_json(p.scenario, sizer::serve::search_serving_chips(p.scenario, catalog, ids));
  } else {
    const auto start = std::chrono::steady_clock::now();
    sizer::serve::ServeSearchResult r = sizer::serve::search_serving(p.scenario);
    r.search_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    out = sizer::serve::serve_search_to_json(p.scenario, r);
  }
  std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  return 0;
}

// `sizer eval` (the v1 result as JSON, CSV or Markdown) and `sizer report` (text with the working).
int cmd_eval(const Args& a, const sizer::Catalog& catalog) {
  if (a.positional.size() != 1) return usage();
  sizer::ParsedScenario p;
  if (!load_scenario(a.positional[0], catalog, &p)) return kExitInvalid;
  const sizer::Estimate e = sizer::evaluate(p.scenario, a.working || a.command == "report");
  if (a.command == "report") {
    std::cout << sizer::cli::text_report(p.scenario, e, p.warnings);
    return 0;
  }
  const nlohmann::json r = sizer::result_to_json(p.scenario, e, p.warnings);
  if (a.format == "csv") std::cout << sizer::results_csv(r);
  else if (a.format == "markdown") std::cout << sizer::results_markdown(r, sizer::user_supplied_what(p.scenario));
  else if (a.format == "json" || a.format == "text") std::cout << r.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  else {
    std::cerr << "sizer: eval --format must be json, csv or markdown\n";
    return kExitInvalid;
  }
  return 0;
}

// The commands, by name. import-hf reads no catalog but is dispatched the same way.
struct Command {
  const char* name;
  int (*run)(const Args&, const sizer::Catalog&);
};
const Command kCommands[] = {
    {"eval", cmd_eval},           {"report", cmd_eval},       {"list", cmd_list},
    {"table", cmd_table},         {"plan", cmd_plan},         {"search", cmd_plan},
    {"serve-search", cmd_serve_search}, {"validate", cmd_validate}, {"calibrate", cmd_calibrate},
    {"import-hf", [](const Args& a, const sizer::Catalog&) { return cmd_import_hf(a); }},
};

}  // namespace

int main(int argc, char** argv) {
  Args a;
  if (!parse_args(argc, argv, &a)) return usage();
  if (a.command == "version" || a.command == "--version") {
    std::cout << "sizer " << sizer::kVersion << " (contract " << sizer::kContractVersion << ")\n";
    return 0;
  }
  sizer::Catalog catalog;
  if (!load_catalog(a, &catalog)) return kExitInvalid;
  for (const Command& c : kCommands) {
    if (a.command == c.name) return c.run(a, catalog);
  }
  return usage();
}
