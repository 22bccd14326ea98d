// Phase-1 UI over the placeholder core: one panel, enough to prove fonts, input and layout work.
#include "app.h"

#include "imgui.h"
#include "placeholder_core.h"

namespace sizer_web {

void App::draw(const Fonts& fonts, float width_px, float height_px) {
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImVec2(width_px, height_px));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::Begin("Sizer", nullptr, flags);
  ImGui::TextUnformatted("Sizer \xe2\x80\x94 accelerators, time, money and power for trillion-parameter models");
  ImGui::Separator();
  ImGui::InputDouble("Parameters", &params_, 0, 0, "%.3g");
  ImGui::InputDouble("Training tokens", &tokens_, 0, 0, "%.3g");
  const double flops = sizer_placeholder::training_flops(params_, tokens_);
  ImGui::PushFont(fonts.numbers);
  ImGui::Text("C \xe2\x89\x88 6 \xc2\xb7 N \xc2\xb7 D = %.3g FLOP", flops);
  ImGui::PopFont();
  ImGui::TextDisabled("core %s", sizer_placeholder::version());
  ImGui::End();
}

}  // namespace sizer_web
