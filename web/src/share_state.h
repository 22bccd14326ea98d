// State of sharing, import/export and custom hardware (share_actions.h, share_panel.h): the user's
// own tables and the catalog they make, the message shown after a link, import or export, the
// requests waiting for the page (clipboard, downloads, address bar, local storage) and the forms
// of the dialogs. Plain data; AppState owns one.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sizer/sizer.h"

namespace sizer_web {

// Something only the page can do; main.cpp's page glue (page_io.h) carries these out.
struct PageAction {
  enum class Kind { copy, download, png, push_hash, replace_hash, store, pick_file, offline_copy, open_page } kind;
  std::string name;  // file name (download, png, offline_copy), storage key (store) or site page (open_page)
  std::string mime;
  std::string text;  // contents, fragment or link
};

struct ShareMessage {
  std::string title;               // "Could not open the link"
  std::vector<std::string> lines;  // "path: message" lines (plain text, shown as text)
  bool error = false;
  int serial = 0;                  // bumps per message (the page mirrors it for tests)
};

// The custom hardware dialog's form: one row being edited, in display units.
struct CustomForm {
  int tab = 0;  // 0 device, 1 system, 2 price
  char id[65] = "";
  char name[96] = "";
  char device[65] = "";  // system/price: the device it is for
  char provider[64] = "";
  char region[64] = "";
  char date[16] = "";
  int offer_kind = 0;
  double memory_gb = 192, hbm_tb_s = 8, bf16_tflops = 2500, fp8_tflops = 5000, fp4_tflops = 0;
  double scale_up_domain = 8, scale_up_gb_s = 900, scale_out_gb_s = 50, system_w = 1500;
  double devices = 8, usd_per_hour = 5;
  std::vector<sizer::Issue> issues;
};

struct EmbedForm {
  bool show[12] = {true, true, true, false, false, false, false, true, true, false, false, false};
  bool inputs[6] = {true, false, false, false, false, false};
  char title[81] = "";
};

struct ShareState {
  nlohmann::json user_tables = nlohmann::json::object();  // {"devices": [...], "systems": [...], "prices": [...]}
  sizer::Catalog catalog = sizer::bundled_catalog();      // bundled + user tables
  std::vector<PageAction> outbox;
  ShareMessage message;
  std::string shown_fragment;   // fragment in the address bar (or the one it would have)
  double last_edit_s = -1;      // page time of the last draft change not yet in the address bar
  std::string last_draft_text;  // to notice draft changes
  bool address_started = false; // the address bar's start-up state has been taken
  nlohmann::json start_draft;   // the scenario the page opened with (history back to it)
  bool adopt_next = false;      // the next draft change came from the address bar: do not push it
  std::string page_url;         // the page's address without its fragment (links)
  std::string page_base;        // "https://host/path/" of the page (embed snippets); "" until known
  bool hosted = false;          // served over http(s), not file://
  bool link_open = false, embed_open = false, custom_open = false;
  int mirrored_serial = -1;     // message serial last written into the page
  bool page_wants_text = false; // last io.WantTextInput told to the page
  CustomForm form;
  EmbedForm embed;
};

}  // namespace sizer_web
