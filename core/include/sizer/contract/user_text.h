// Echoing user-supplied text (keys, ids, values, file names) in error messages, safely.
//
// Untrusted text must not forge a message line, drive a terminal (ESC sequences), reorder what
// the reader sees (bidi controls) or leave a broken UTF-8 character behind after a cut. Every place
// that puts user text into a message goes through echo() (or echo_quoted()); whole messages that may
// still hold user text are made printable() before they are shown.
//
//   r.error(path, "unknown device " + sizer::echo_quoted(id) + "; known: ...");
//   // id = "h1\n\x1b[2J" + 60 × "é"  ->  unknown device "h1\n\u001b[2Jéééééééééééé..."
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace sizer {

constexpr std::size_t kEchoMaxBytes = 40;  // default length of echoed text, "..." included

// `text` made safe to show inside a quoted message: \n \r \t \b \f \\ \" as JSON escapes, other
// control and format characters (C0, DEL, C1, bidi and line separators, BOM) as \uXXXX, invalid
// UTF-8 replaced by U+FFFD; then cut to at most `max_bytes` on a character (and escape) boundary,
// "..." marking a cut. Adds no quotes.
std::string echo(std::string_view text, std::size_t max_bytes = kEchoMaxBytes);

// "\"" + echo(text, max_bytes) + "\"".
std::string echo_quoted(std::string_view text, std::size_t max_bytes = kEchoMaxBytes);

// A whole message made printable on one line: control and format characters escaped as in echo(),
// invalid UTF-8 replaced; backslashes and quotes are kept (the text may already be echoed) and
// nothing is cut.
std::string printable(std::string_view message);

}  // namespace sizer
