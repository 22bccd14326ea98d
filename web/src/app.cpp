// Phase-1 UI over the core: the default scenario's headline numbers, enough to prove that the
// core, the bundled tables, fonts and layout work in the browser. Phase 2 replaces the panel.
#include "app.h"

#include "imgui.h"

namespace sizer_web {
namespace {
void row(const Fonts& fonts, const char* label, const std::string& value) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(label);
  ImGui::TableNextColumn();
  ImGui::PushFont(fonts.numbers);
  ImGui::TextUnformatted(value.c_str());
  ImGui::PopFont();
}
}  // namespace

App::App()
    : scenario_(sizer::default_scenario(sizer::bundled_catalog())), estimate_(sizer::evaluate(scenario_)) {}

void App::draw(const Fonts& fonts, float width_px, float height_px) {
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImVec2(width_px, height_px));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::Begin("Sizer", nullptr, flags);
  ImGui::TextUnformatted("Sizer \xe2\x80\x94 accelerators, time, money and power for trillion-parameter models");
  ImGui::Separator();
  ImGui::Text("%s on %s", scenario_.model.name.c_str(), scenario_.device.name.c_str());
  if (ImGui::BeginTable("headline", 2, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) {
    row(fonts, "Training compute", sizer::fmt::flops(estimate_.compute.flops));
    row(fonts, "Training state", sizer::fmt::bytes(estimate_.memory.state_bytes));
    row(fonts, "Devices to hold the state", sizer::fmt::count(estimate_.memory.min_devices_usable));
    row(fonts, "Serving weights", sizer::fmt::bytes(estimate_.serving.weight_bytes));
    ImGui::EndTable();
  }
  ImGui::TextDisabled("core %s, contract %s", sizer::kVersion, sizer::kContractVersion);
  ImGui::End();
}

}  // namespace sizer_web
