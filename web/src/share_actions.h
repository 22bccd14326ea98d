// Sharing, import/export and custom hardware as operations on the AppState, free of ImGui and of
// the page: they change the draft or the user's tables, set the message, and queue PageActions
// (share_state.h) that the page glue (page_io.h) carries out. Every parser is the core's.
//
// [SECTION] Links and the address bar
// [SECTION] Import, export, offline copy
// [SECTION] The user's tables (custom hardware and prices)
#pragma once
#include <string>
#include <string_view>

#include "app_state.h"

namespace sizer_web {

constexpr const char* kTablesStorageKey = "sizer.user-tables.v1";

// [SECTION] Links
// The current scenario as a link fragment ("s1.…"), user-supplied entries inlined.
std::string current_fragment(const AppState& s);
// Opens an untrusted fragment (address bar, history, offline preload). On any problem the state
// is left as it was and the message says why. Returns true when the scenario was replaced.
bool open_fragment(AppState& s, std::string_view fragment, const char* where);
// Called every frame with the page time: a draft that changed and then stayed put for a moment
// is pushed to the address bar (one history entry per edit, so back and forward step through).
void sync_address_bar(AppState& s, double now_s, bool editing);
void copy_link(AppState& s);
// Back to the scenario the page opened with (history back to the address without a fragment).
void restore_start(AppState& s);

// [SECTION] Import, export
// A file's text (drag-and-drop or the picker; untrusted). `too_large` = the page refused to read it.
void import_file(AppState& s, const std::string& name, const std::string& text, bool too_large);
// Text pasted onto the page (not into a field): the same import as a dropped file's.
void import_pasted(AppState& s, const std::string& text, bool too_large);
void export_results(AppState& s, const char* format);      // "json" | "csv" | "markdown"
void export_scenario(AppState& s);
void export_comparison(AppState& s, const char* format);   // "csv" | "markdown"
void export_charts_png(AppState& s);                      // the Charts tab must be showing
void download_offline_copy(AppState& s);
void set_message(AppState& s, std::string title, std::vector<std::string> lines, bool error);

// [SECTION] The user's tables
// Loads the stored tables (untrusted: a bad store is reported and ignored).
void load_user_tables(AppState& s, const std::string& stored);
// Adds or replaces rows ({"devices": [...]} ...); on success saves and re-parses. Issues go to
// the custom form.
bool save_user_rows(AppState& s, const nlohmann::json& rows);
void delete_user_row(AppState& s, const std::string& list, const std::string& id);

// Embed snippets for the current scenario (EmbedForm choices).
std::string embed_fragment(const AppState& s);
std::string embed_iframe_snippet(const AppState& s);
std::string embed_div_snippet(const AppState& s);
// The result leaves and inputs the embed dialog offers (EmbedForm::show / ::inputs order).
extern const char* const kEmbedOutputs[12];
extern const char* const kEmbedInputs[6];

}  // namespace sizer_web
