// Safe echoing of user text in messages (see user_text.h): one UTF-8 decoder, one escape table.
#include "sizer/contract/user_text.h"

#include <cstdint>
#include <cstdio>

namespace sizer {

namespace {

constexpr std::uint32_t kReplacement = 0xFFFD;

// Decodes the character at s[i]: returns its length in bytes (1 for an invalid byte, whose code
// point is then U+FFFD). Refuses overlong forms, surrogates and values above U+10FFFF.
std::size_t decode(std::string_view s, std::size_t i, std::uint32_t* cp) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  *cp = kReplacement;
  if (c < 0x80) {
    *cp = c;
    return 1;
  }
  std::size_t n = 0;
  std::uint32_t v = 0, min = 0;
  if ((c & 0xE0) == 0xC0) n = 2, v = c & 0x1F, min = 0x80;
  else if ((c & 0xF0) == 0xE0) n = 3, v = c & 0x0F, min = 0x800;
  else if ((c & 0xF8) == 0xF0) n = 4, v = c & 0x07, min = 0x10000;
  else return 1;
  if (i + n > s.size()) return 1;
  for (std::size_t k = 1; k < n; ++k) {
    const unsigned char t = static_cast<unsigned char>(s[i + k]);
    if ((t & 0xC0) != 0x80) return 1;
    v = (v << 6) | (t & 0x3F);
  }
  if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 1;
  *cp = v;
  return n;
}

// Characters that move the cursor, end a line, change direction or are invisible.
bool unsafe(std::uint32_t cp) {
  return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) || cp == 0x200E || cp == 0x200F ||
         (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0xFEFF;
}

// The shown form of one character: an escape, U+FFFD, or its own bytes.
std::string unit(std::string_view bytes, std::uint32_t cp, bool escape_quotes) {
  switch (cp) {
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    case '\b': return "\\b";
    case '\f': return "\\f";
    case '\\': return escape_quotes ? "\\\\" : "\\";
    case '"': return escape_quotes ? "\\\"" : "\"";
    case kReplacement: return "\xEF\xBF\xBD";
    default: break;
  }
  if (unsafe(cp)) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
    return buf;
  }
  return std::string(bytes);
}

std::string render(std::string_view text, std::size_t max_bytes, bool escape_quotes) {
  static constexpr std::string_view kCut = "...";
  const std::size_t budget = max_bytes > kCut.size() ? max_bytes - kCut.size() : 0;
  std::string out;
  std::size_t fits = 0;  // length of `out` at the last unit boundary within the budget
  for (std::size_t i = 0; i < text.size();) {
    std::uint32_t cp = 0;
    const std::size_t n = decode(text, i, &cp);
    out += unit(text.substr(i, n), cp, escape_quotes);
    i += n;
    if (out.size() <= budget) fits = out.size();
    if (out.size() > max_bytes) {
      out.resize(fits);
      return out + std::string(kCut);
    }
  }
  return out;
}

}  // namespace

std::string echo(std::string_view text, std::size_t max_bytes) { return render(text, max_bytes, true); }

std::string echo_quoted(std::string_view text, std::size_t max_bytes) { return "\"" + echo(text, max_bytes) + "\""; }

std::string printable(std::string_view message) { return render(message, std::string::npos, false); }

}  // namespace sizer
