// The phone's on-screen keyboard for the canvas' text fields.
//
// A canvas cannot bring up a touch screen's keyboard; a focused DOM <input> can. When an ImGui text
// or number field becomes active after a touch, a visually hidden <input id="sizer-keyboard">
// (16 px text, so iOS does not zoom; inputmode "decimal" for number fields) takes the focus, and
// what is typed into it reaches ImGui: characters from input and composition events, Backspace,
// while Enter and Escape arrive as the keys they are (GLFW reads every keydown on the window, so
// the field commits and reverts as on a desktop). When the field closes the input is blurred and
// the canvas has the focus again. A tap on a published field ("input:<path>") focuses the input in
// the tap's own click handler, as iOS requires; other fields are focused from the next frame.
// With a mouse or the keyboard alone nothing changes: the input is never focused.
//
//   soft_keyboard_install();                  // once, at start-up
//   soft_keyboard_poll(press_key);            // each frame, before ImGui::NewFrame
//   soft_keyboard_sync();                     // each frame, after the UI is drawn
#pragma once

namespace sizer_web {

void soft_keyboard_install();

// Hands ImGui what was typed into the hidden input since the last frame: characters through
// io.AddInputCharactersUTF8, a deletion as `press_key(GLFW_KEY_BACKSPACE)` (a press and release).
void soft_keyboard_poll(void (*press_key)(int glfw_key));

// Focuses the hidden input when a text field became active after a touch (with the keyboard
// kind of that field), and blurs it when no field is being edited.
void soft_keyboard_sync();

// Whether the last pointer to go down on the page was a finger or a pen (the UI then says "tap"
// and "long-press" where a mouse would "click" and "hover").
bool soft_keyboard_touch_pointer();

}  // namespace sizer_web
