// The YAML string quoting shared by emit's direct printers (printing.hpp): yaml-cpp
// 0.7's double-quoted scalars, byte for byte, with its UTF-8 decoder's view of
// ill-formed input.
#include <cstdint>

#include "emit/printing.hpp"
#include "support/scan.hpp"

namespace wikic::emit::printing {
namespace {

// yaml-cpp 0.7's Utils::GetNextCodePointAndAdvance: the lead byte alone decides the
// length (0x80-0xBF: a bad lead, 0xF8-0xFF: four bytes), overlong forms are accepted,
// a missing trailing byte ends the sequence before it, and surrogates, values above
// U+10FFFF, U+xxFFFE/U+xxFFFF and U+FDD0-U+FDEF become U+FFFD.
std::uint32_t yaml_next_code_point(const char*& p, const char* end) {
  constexpr std::uint32_t replacement = 0xFFFD;
  auto lead = static_cast<unsigned char>(*p);
  int n = 0;
  switch (lead >> 4) {
    case 12: case 13: n = 2; break;
    case 14: n = 3; break;
    case 15: n = 4; break;
    default:
      if (lead < 0x80) {
        ++p;
        return lead;
      }
      ++p;
      return replacement;
  }
  std::uint32_t cp = lead & ~(0xFFu << (7 - n)) & 0xFF;
  ++p;
  for (--n; n > 0; ++p, --n) {
    if (p == end || (static_cast<unsigned char>(*p) & 0xC0) != 0x80) {
      cp = replacement;
      break;
    }
    cp = (cp << 6) | (static_cast<unsigned char>(*p) & 0x3F);
  }
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || (cp & 0xFFFE) == 0xFFFE ||
      (cp >= 0xFDD0 && cp <= 0xFDEF))
    cp = replacement;
  return cp;
}

void utf8(Sink& out, std::uint32_t cp) {
  if (cp <= 0x7F) {
    out.put(static_cast<char>(cp));
  } else if (cp <= 0x7FF) {
    out.put(static_cast<char>(0xC0 | (cp >> 6)));
    out.put(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp <= 0xFFFF) {
    out.put(static_cast<char>(0xE0 | (cp >> 12)));
    out.put(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.put(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.put(static_cast<char>(0xF0 | (cp >> 18)));
    out.put(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.put(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.put(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace

// yaml-cpp 0.7's Utils::WriteDoubleQuotedString (non-ASCII kept): \" \\ \n \t \r \b \f,
// \xNN for other code points below 0x20 and for U+0080-U+00A0, \ufeff for a byte order
// mark, code points re-encoded after decoding as above. Printable ASCII is copied in runs.
void yaml_string(Sink& out, std::string_view s) {
  out.reserve_more(6 * s.size());
  out.put('"');
  const char* p = s.data();
  const char* end = p + s.size();
  const char* run = p;
  static constexpr char hex[] = "0123456789abcdef";
  while (p != end) {
    p = s.data() + support::scan_special<true, '"', '\\'>(s.data(), p - s.data(), s.size());
    if (p == end) break;
    auto c = static_cast<unsigned char>(*p);
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
      ++p;
      continue;
    }
    out.put(run, p);
    std::uint32_t cp = yaml_next_code_point(p, end);
    run = p;
    switch (cp) {
      case '"': out.put("\\\""); break;
      case '\\': out.put("\\\\"); break;
      case '\n': out.put("\\n"); break;
      case '\t': out.put("\\t"); break;
      case '\r': out.put("\\r"); break;
      case '\b': out.put("\\b"); break;
      case '\f': out.put("\\f"); break;
      default:
        if (cp < 0x20 || (cp >= 0x80 && cp <= 0xA0)) {
          out.put("\\x");
          out.put(hex[cp >> 4]);
          out.put(hex[cp & 15]);
        } else if (cp == 0xFEFF) {
          out.put("\\ufeff");
        } else {
          utf8(out, cp);
        }
    }
  }
  out.put(run, p);
  out.put('"');
}

}  // namespace wikic::emit::printing
