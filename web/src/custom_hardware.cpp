// The custom hardware dialog (see custom_hardware.h).
#include "custom_hardware.h"

#include <cmath>
#include <cstdio>
#include <cstring>

#include "input_fields.h"
#include "scenario_edit.h"
#include "share_actions.h"

namespace sizer_web {

using nlohmann::json;

namespace {

// The form's numbers are the field kit's (input_fields.h): rect "custom:<id>", committed on Enter,
// Tab or leaving the field.
constexpr FieldPlace kDialog = FieldPlace::custom_dialog;
constexpr const char* kOfferKinds[] = {"on_demand", "capacity_block", "commit_1y", "commit_3y", "spot", "reserved", "marketplace"};

void text_field(Ui& ui, const char* label, const char* id, char* buf, size_t size) {
  dialog_label(ui, label);
  ImGui::SetNextItemWidth(ui.px(260));
  ImGui::InputText((std::string("##") + id).c_str(), buf, size);
  note_rect(ui, std::string("custom:") + id);
}

// A device picker over the catalog (systems and prices name the device they are for).
void device_field(Ui& ui) {
  CustomForm& f = ui.state.share.form;
  dialog_label(ui, "Device id");
  ImGui::SetNextItemWidth(ui.px(260));
  if (ImGui::BeginCombo("##device", f.device[0] ? f.device : "choose a device")) {
    for (const sizer::Device& d : ui.state.share.catalog.devices) {
      if (d.user_supplied) ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.warn);
      if (ImGui::Selectable((d.id + (d.user_supplied ? "  · user-supplied" : "")).c_str(), d.id == f.device)) {
        std::snprintf(f.device, sizeof f.device, "%s", d.id.c_str());
      }
      if (d.user_supplied) ImGui::PopStyleColor();
    }
    ImGui::EndCombo();
  }
  note_rect(ui, "custom:device");
}

json form_row(const CustomForm& f) {
  auto opt = [](double v) { return v > 0 ? json(v) : json(nullptr); };
  if (f.tab == 0) {
    return {{"devices", json::array({{{"id", f.id}, {"name", f.name[0] ? f.name : f.id},
                                      {"memory_bytes", f.memory_gb * 1e9}, {"hbm_bytes_per_s", f.hbm_tb_s * 1e12},
                                      {"dense_flops", {{"bf16", opt(f.bf16_tflops * 1e12)}, {"fp8", opt(f.fp8_tflops * 1e12)},
                                                       {"fp4", opt(f.fp4_tflops * 1e12)}}},
                                      {"scale_up_domain", f.scale_up_domain}, {"scale_up_bytes_per_s", f.scale_up_gb_s * 1e9},
                                      {"scale_out_bytes_per_s", opt(f.scale_out_gb_s * 1e9)}, {"system_w", opt(f.system_w)}}})}};
  }
  if (f.tab == 1) {
    return {{"systems", json::array({{{"id", f.id}, {"name", f.name[0] ? f.name : f.id}, {"kind", "server"},
                                      {"device", f.device}, {"devices", f.devices}, {"scale_up_domain", f.scale_up_domain},
                                      {"scale_up_bytes_per_s", f.scale_up_gb_s * 1e9},
                                      {"scale_out_bytes_per_s", opt(f.scale_out_gb_s * 1e9)},
                                      {"system_w_per_device", opt(f.system_w)}}})}};
  }
  return {{"prices", json::array({{{"id", f.id}, {"device", f.device}, {"provider", f.provider[0] ? f.provider : "user"},
                                   {"offer", "user-supplied offer"}, {"offer_kind", kOfferKinds[f.offer_kind]},
                                   {"region", f.region}, {"usd_per_device_hour", f.usd_per_hour},
                                   {"date_checked", f.date}, {"source", "entered by the user"}}})}};
}

// Loads a stored row into the form for editing.
void edit_row(CustomForm& f, int tab, const json& row) {
  f = CustomForm{};
  f.tab = tab;
  auto str = [&](const char* k, char* buf, size_t n) {
    if (row.contains(k) && row[k].is_string()) std::snprintf(buf, n, "%s", row[k].get<std::string>().c_str());
  };
  auto num = [&](const char* k, double scale, double* out) {
    if (row.contains(k) && row[k].is_number()) *out = row[k].get<double>() / scale;
    else if (row.contains(k) && row[k].is_null()) *out = 0;
  };
  str("id", f.id, sizeof f.id);
  str("name", f.name, sizeof f.name);
  str("device", f.device, sizeof f.device);
  str("provider", f.provider, sizeof f.provider);
  str("region", f.region, sizeof f.region);
  str("date_checked", f.date, sizeof f.date);
  num("memory_bytes", 1e9, &f.memory_gb);
  num("hbm_bytes_per_s", 1e12, &f.hbm_tb_s);
  if (row.contains("dense_flops") && row["dense_flops"].is_object()) {
    const json& d = row["dense_flops"];
    auto flops = [&](const char* k, double* out) { *out = d.contains(k) && d[k].is_number() ? d[k].get<double>() / 1e12 : 0; };
    flops("bf16", &f.bf16_tflops);
    flops("fp8", &f.fp8_tflops);
    flops("fp4", &f.fp4_tflops);
  }
  num("scale_up_domain", 1, &f.scale_up_domain);
  num("scale_up_bytes_per_s", 1e9, &f.scale_up_gb_s);
  num("scale_out_bytes_per_s", 1e9, &f.scale_out_gb_s);
  num(tab == 1 ? "system_w_per_device" : "system_w", 1, &f.system_w);
  num("devices", 1, &f.devices);
  num("usd_per_device_hour", 1, &f.usd_per_hour);
  if (row.contains("offer_kind") && row["offer_kind"].is_string()) {
    for (int i = 0; i < 7; ++i) if (row["offer_kind"] == kOfferKinds[i]) f.offer_kind = i;
  }
}

void saved_rows(Ui& ui) {
  ShareState& sh = ui.state.share;
  static constexpr const char* kLists[] = {"devices", "systems", "prices"};
  bool any = false;
  for (int tab = 0; tab < 3; ++tab) {
    const json& rows = sh.user_tables.contains(kLists[tab]) ? sh.user_tables[kLists[tab]] : json::array();
    if (!rows.is_array()) continue;
    for (size_t i = 0; i < rows.size(); ++i) {
      if (!rows[i].is_object() || !rows[i].contains("id") || !rows[i]["id"].is_string()) continue;
      any = true;
      const std::string id = rows[i]["id"].get<std::string>();
      ImGui::PushID(tab * 10000 + static_cast<int>(i));
      ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.warn);
      ImGui::Text("%s  %s  · user-supplied", kLists[tab], id.c_str());
      ImGui::PopStyleColor();
      ImGui::SameLine();
      if (ImGui::SmallButton("Edit")) edit_row(sh.form, tab, rows[i]);
      ImGui::SameLine();
      if (ImGui::SmallButton("Delete")) {
        delete_user_row(ui.state, kLists[tab], id);
        ImGui::PopID();
        return;  // the rows changed under us
      }
      ImGui::PopID();
    }
  }
  if (!any) caption(ui, "Nothing saved yet. Rows you save stay in this browser and travel inside links.");
}

}  // namespace

void custom_window(Ui& ui) {
  ShareState& sh = ui.state.share;
  if (!sh.custom_open) return;
  CustomForm& f = sh.form;
  centre_next(ui, 620, 720);
  if (ImGui::Begin("Custom hardware and prices", &sh.custom_open, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
    caption(ui, "Add or edit a device, system or price offer. Your rows are marked user-supplied wherever they "
                "appear, kept in this browser's storage and carried in links. Import a table file (Import button) "
                "to add many at once.");
    const char* tabs[] = {"Device", "System", "Price offer"};
    for (int t = 0; t < 3; ++t) {
      if (t > 0) ImGui::SameLine();
      if (ImGui::RadioButton(tabs[t], f.tab == t)) f.tab = t, f.issues.clear();
      note_rect(ui, std::string("custom:tab:") + tabs[t]);
    }
    ImGui::Separator();
    text_field(ui, "Id (a-z 0-9 - _ .)", "id", f.id, sizeof f.id);
    if (f.tab != 2) text_field(ui, "Name", "name", f.name, sizeof f.name);
    if (f.tab == 0) {
      value_field(ui, {"memory", "HBM capacity", 1, "GB"}, &f.memory_gb, kDialog);
      value_field(ui, {"hbm", "HBM bandwidth", 1, "TB/s"}, &f.hbm_tb_s, kDialog);
      value_field(ui, {"bf16", "BF16 dense", 1, "TFLOP/s"}, &f.bf16_tflops, kDialog);
      value_field(ui, {"fp8", "FP8 dense", 1, "TFLOP/s (0 = none)"}, &f.fp8_tflops, kDialog);
      value_field(ui, {"fp4", "FP4 dense", 1, "TFLOP/s (0 = none)"}, &f.fp4_tflops, kDialog);
    }
    if (f.tab == 1) {
      device_field(ui);
      value_field(ui, {"devices", "Devices per system", 1, ""}, &f.devices, kDialog);
    }
    if (f.tab != 2) {
      value_field(ui, {"domain", "Scale-up domain", 1, "devices"}, &f.scale_up_domain, kDialog);
      value_field(ui, {"scaleup", "Scale-up bandwidth", 1, "GB/s per device"}, &f.scale_up_gb_s, kDialog);
      value_field(ui, {"scaleout", "Scale-out bandwidth", 1, "GB/s per device"}, &f.scale_out_gb_s, kDialog);
      value_field(ui, {"power", "System power", 1, "W per device"}, &f.system_w, kDialog);
    }
    if (f.tab == 2) {
      device_field(ui);
      text_field(ui, "Provider", "provider", f.provider, sizeof f.provider);
      dialog_label(ui, "Offer kind");
      ImGui::SetNextItemWidth(ui.px(260));
      ImGui::Combo("##kind", &f.offer_kind, kOfferKinds, 7);
      value_field(ui, {"usd", "Price", 1, "USD per device-hour"}, &f.usd_per_hour, kDialog);
      text_field(ui, "Region", "region", f.region, sizeof f.region);
      text_field(ui, "Date checked", "date", f.date, sizeof f.date);
    }
    for (const sizer::Issue& i : f.issues) {
      ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.bad);
      ImGui::TextWrapped("%s%s%s", i.path.c_str(), i.path.empty() ? "" : ": ", i.message.c_str());
      ImGui::PopStyleColor();
    }
    const bool save = ImGui::Button("Save");
    note_rect(ui, "custom:save");
    ImGui::SameLine();
    const bool use = ImGui::Button(f.tab == 0 ? "Save and use this device" : f.tab == 1 ? "Save and use this system"
                                                                                         : "Save and use this price");
    note_rect(ui, "custom:save-use");
    ImGui::SameLine();
    if (ImGui::Button("Close")) sh.custom_open = false;
    note_rect(ui, "custom:close");
    if ((save || use) && save_user_rows(ui.state, form_row(f))) {
      set_message(ui.state, std::string("Saved ") + f.id + " (user-supplied)",
                  {"Kept in this browser and carried in links you copy."}, false);
      if (use && f.tab == 0) choose_device(ui.state, f.id);
      if (use && f.tab == 1) choose_device(ui.state, f.device), choose_system(ui.state, f.id);
      if (use && f.tab == 2) choose_device(ui.state, f.device), choose_price(ui.state, f.id);
    }
    ImGui::Separator();
    ImGui::PushFont(ui.fonts.strong);
    ImGui::TextUnformatted("Saved in this browser");
    ImGui::PopFont();
    saved_rows(ui);
  }
  ImGui::End();
}

}  // namespace sizer_web
