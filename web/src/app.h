// The calculator UI: owns the AppState (the scenario being edited, the last valid estimate, the
// view state) and draws one ImGui frame: a top bar, the inputs panel on the left and the result
// views in tabs on the right. Platform-free (no Emscripten, no GLFW): main.cpp owns the window,
// calls App::draw each frame and mirrors results_document() and rects() into the page.
#pragma once
#include <string>
#include <vector>

#include "app_state.h"
#include "fonts.h"
#include "theme.h"

namespace sizer_web {

class App {
 public:
  App();
  void set_dark(bool dark) { state_.view.dark = dark; }
  bool dark() const { return state_.view.dark; }
  // Draws the whole UI into a `width_px` × `height_px` framebuffer at device pixel ratio `dpr`.
  void draw(const Fonts& fonts, float width_px, float height_px, float dpr);
  ImVec4 clear_color() const { return palette_.clear; }
  // The results and inputs as a text document (results_text.h, JSON); `results_revision` changes
  // whenever it may have changed.
  const std::string& results_document() const { return results_text_; }
  int results_revision() const { return text_revision_; }
  // Named rectangles of interactive items drawn this frame (physical pixels).
  const std::vector<NamedRect>& rects() const { return state_.view.rects; }
  const AppState& state() const { return state_; }
  AppState& mutable_state() { return state_; }  // for the page glue (page_io.h)

 private:
  void update_results();
  AppState state_;
  Palette palette_{};
  bool palette_dark_ = false;
  float palette_dpr_ = 0;
  std::string results_text_;
  int text_revision_ = -1;
  int text_issue_count_ = -1;
  int text_planner_revision_ = -1;
  bool text_stale_ = false;  // an edit was applied this frame: the mirror is rewritten in the next
  std::vector<ShownInput> text_inputs_;  // ViewState::inputs_shown the text mirror was written with
  bool focused_once_ = false;  // the main window got the keyboard focus on the first frame
  long frames_drawn_ = 0;      // draw() calls so far
  std::string text_pending_;   // ViewState::pending.path the text mirror was written with
};

}  // namespace sizer_web
