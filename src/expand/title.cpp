// Title normalization and case mapping (Title::newFromText, Language::ucfirst/lc/uc,
// wfEscapeWikiText), reduced to what template lookup and magic words need.
#include "expand/title.hpp"

#include "expand/functions.hpp"
#include "support/utf8.hpp"

#include <clocale>
#include <cwctype>

namespace wikic::expand {

namespace {
/// Decodes one UTF-8 code point at s[i]; returns its length (1 for a stray byte).
std::size_t decode(std::string_view s, std::size_t i, char32_t& cp) {
  auto c = static_cast<unsigned char>(s[i]);
  std::size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
  if (i + len > s.size()) len = 1;
  if (len == 1) {
    cp = c;
    return 1;
  }
  cp = c & (0x7F >> len);
  for (std::size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  return len;
}

// Simple case mapping for the scripts WICA is written in. glibc's towupper would need
// a UTF-8 locale at run time; a fixed table keeps output independent of the machine.
char32_t upper(char32_t c) {
  if (c >= 'a' && c <= 'z') return c - 32;
  if (c < 0x80) return c;
  if ((c >= 0xE0 && c <= 0xFE && c != 0xF7)) return c - 32;
  if (c == 0xFF) return 0x178;
  if (c >= 0x100 && c <= 0x17F && c != 0x130 && c != 0x131 && c != 0x138 && c != 0x149 && c != 0x17F) {
    if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) return (c % 2 == 0) ? c - 1 : c;
    return (c % 2 == 1) ? c - 1 : c;
  }
  if (c >= 0x3B1 && c <= 0x3C9 && c != 0x3C2) return c - 32;
  if (c >= 0x430 && c <= 0x44F) return c - 32;
  if (c >= 0x450 && c <= 0x45F) return c - 80;
  return c;
}
char32_t lower(char32_t c) {
  if (c >= 'A' && c <= 'Z') return c + 32;
  if (c < 0x80) return c;
  if ((c >= 0xC0 && c <= 0xDE && c != 0xD7)) return c + 32;
  if (c == 0x178) return 0xFF;
  if (c >= 0x100 && c <= 0x17F && c != 0x130 && c != 0x131 && c != 0x138 && c != 0x149 && c != 0x17F) {
    if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) return (c % 2 == 1) ? c + 1 : c;
    return (c % 2 == 0) ? c + 1 : c;
  }
  if (c >= 0x391 && c <= 0x3A9 && c != 0x3A2) return c + 32;
  if (c >= 0x410 && c <= 0x42F) return c + 32;
  if (c >= 0x400 && c <= 0x40F) return c + 80;
  return c;
}

template <typename F>
std::string map_chars(std::string_view s, F f, std::size_t limit) {
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0, n = 0;
  while (i < s.size()) {
    char32_t cp;
    std::size_t len = decode(s, i, cp);
    if (n < limit && !(len == 1 && static_cast<unsigned char>(s[i]) >= 0x80)) support::append_utf8(out, f(cp));
    else out.append(s.substr(i, len));
    i += len;
    ++n;
  }
  return out;
}

bool same_name(std::string_view a, std::string_view b) {
  return to_lower(a) == to_lower(b);
}
}  // namespace

std::string uc_first(std::string_view s) { return map_chars(s, upper, 1); }
std::string lc_first(std::string_view s) { return map_chars(s, lower, 1); }
std::string to_upper(std::string_view s) { return map_chars(s, upper, std::string::npos); }
std::string to_lower(std::string_view s) { return map_chars(s, lower, std::string::npos); }

std::optional<Title> make_title(std::string_view raw_text, int default_ns, const ingest::SiteInfo& site) {
  // Title::newFromText decodes character references first ({{&#x54;emplate}} is {{Template}}).
  std::string decoded = raw_text.find('&') == std::string_view::npos ? std::string(raw_text)
                                                                     : decode_char_references(raw_text);
  std::string_view raw = decoded;
  // Underscores are spaces; runs of whitespace collapse; ends are trimmed.
  std::string s;
  for (char c : raw) {
    char d = (c == '_' || c == '\t' || c == '\n' || c == '\r') ? ' ' : c;
    if (d == ' ' && (s.empty() || s.back() == ' ')) continue;
    s += d;
  }
  while (!s.empty() && s.back() == ' ') s.pop_back();
  if (auto hash = s.find('#'); hash != std::string::npos) {  // a fragment is not part of the title
    s.erase(hash);
    while (!s.empty() && s.back() == ' ') s.pop_back();
  }
  int ns = default_ns;
  if (!s.empty() && s[0] == ':') {
    ns = 0;
    s.erase(0, 1);
    while (!s.empty() && s[0] == ' ') s.erase(0, 1);
  }
  Title t;
  if (auto colon = s.find(':'); colon != std::string::npos) {
    std::string prefix = s.substr(0, colon);
    while (!prefix.empty() && prefix.back() == ' ') prefix.pop_back();
    for (const auto& n : site.namespaces)
      if (!n.name.empty() && same_name(prefix, n.name)) {
        ns = n.key;
        s.erase(0, colon + 1);
        while (!s.empty() && s[0] == ' ') s.erase(0, 1);
        break;
      }
  }
  if (s.empty()) return std::nullopt;
  for (unsigned char c : s)
    if (c == '<' || c == '>' || c == '[' || c == ']' || c == '{' || c == '}' || c == '|' || c < 0x20 || c == 0x7F)
      return std::nullopt;
  t.ns = ns;
  const ingest::Namespace* n = site.find(ns);
  bool first_letter = !n || n->case_rule == "first-letter";
  t.text = first_letter ? uc_first(s) : s;
  t.namespace_name = n ? n->name : "";
  if (t.namespace_name.empty()) {
    t.prefixed = t.text;
  } else {  // one allocation: every template call makes a title
    t.prefixed.reserve(t.namespace_name.size() + 1 + t.text.size());
    t.prefixed.append(t.namespace_name).append(1, ':').append(t.text);
  }
  return t;
}

std::string escape_wikitext(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    const char* rep = nullptr;
    switch (c) {
    case '"': rep = "&#34;"; break;
    case '&': rep = "&#38;"; break;
    case '\'': rep = "&#39;"; break;
    case '<': rep = "&#60;"; break;
    case '=': rep = "&#61;"; break;
    case '>': rep = "&#62;"; break;
    case '[': rep = "&#91;"; break;
    case ']': rep = "&#93;"; break;
    case '{': rep = "&#123;"; break;
    case '|': rep = "&#124;"; break;
    case '}': rep = "&#125;"; break;
    case ';': rep = "&#59;"; break;
    default: break;
    }
    if (i == 0 && (c == '#' || c == '*' || c == ':' || c == ' ' || c == '!' || c == '+' || c == '-' || c == '_' ||
                   c == '~')) {
      out += "&#" + std::to_string(static_cast<int>(c)) + ";";
      continue;
    }
    if (rep) out += rep;
    else if (c == '_' && i + 1 < s.size() && s[i + 1] == '_') out += "_&#95;", ++i;
    else if (c == ':' && s.compare(i, 3, "://") == 0) out += "&#58;";
    else out += c;
  }
  return out;
}

}  // namespace wikic::expand
