// Implementations of the string parser functions, each following the PHP function of
// MediaWiki 1.39 named in its header comment.
#include "expand/functions.hpp"

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "expand/title.hpp"
#include "support/html.hpp"
#include "support/utf8.hpp"

namespace wikic::expand {

namespace {
/// Code points of a UTF-8 string, each as its byte substring.
std::vector<std::string_view> characters(std::string_view s) {
  std::vector<std::string_view> out;
  for (std::size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    std::size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
    if (i + len > s.size()) len = 1;
    out.push_back(s.substr(i, len));
    i += len;
  }
  return out;
}

long php_int(std::string_view s) {
  std::string t(s);
  return std::strtol(t.c_str(), nullptr, 10);
}
}  // namespace

std::string decode_char_references(std::string_view s) {
  static const std::pair<std::string_view, std::uint32_t> named[] = {
      {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}, {"nbsp", 0xA0},
      {"ndash", 0x2013}, {"mdash", 0x2014}, {"minus", 0x2212}, {"times", 0xD7}, {"middot", 0xB7},
      {"hellip", 0x2026}, {"laquo", 0xAB}, {"raquo", 0xBB}, {"copy", 0xA9}, {"reg", 0xAE},
      {"eacute", 0xE9}, {"egrave", 0xE8}, {"agrave", 0xE0}, {"ccedil", 0xE7}, {"uuml", 0xFC},
      {"ouml", 0xF6}, {"auml", 0xE4}, {"szlig", 0xDF}, {"euro", 0x20AC}, {"frac12", 0xBD}};
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '&') {
      std::size_t semi = s.find(';', i + 1);
      if (semi != std::string_view::npos && semi - i <= 12) {
        std::string_view body = s.substr(i + 1, semi - i - 1);
        std::uint32_t cp = 0;
        bool ok = false;
        if (body.size() > 1 && body[0] == '#') {
          bool hex = body[1] == 'x' || body[1] == 'X';
          std::string digits(body.substr(hex ? 2 : 1));
          if (!digits.empty() && digits.find_first_not_of(hex ? "0123456789abcdefABCDEF" : "0123456789") == std::string::npos) {
            cp = static_cast<std::uint32_t>(std::strtoul(digits.c_str(), nullptr, hex ? 16 : 10));
            // Sanitizer::validateCodepoint: no surrogates, nothing above U+10FFFF.
            ok = cp > 0 && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
          }
        } else {
          for (const auto& [n, c] : named)
            if (body == n) {
              cp = c;
              ok = true;
            }
        }
        if (ok) {
          support::append_utf8(out, cp);
          i = semi;
          continue;
        }
      }
    }
    out += s[i];
  }
  return out;
}

std::string pad_string(std::string_view s, std::string_view length, std::string_view padding, bool left) {
  auto pad_chars = characters(padding);
  if (pad_chars.empty()) return std::string(s);
  long want = std::min<long>(php_int(length), 500) - static_cast<long>(characters(s).size());
  if (want <= 0) return std::string(s);
  std::string fill;
  while (want > 0) {
    for (std::size_t k = 0; k < pad_chars.size() && static_cast<long>(k) < want; ++k) fill.append(pad_chars[k]);
    want -= static_cast<long>(pad_chars.size());
  }
  return left ? fill + std::string(s) : std::string(s) + fill;
}

std::string url_encode(std::string_view s, std::string_view mode) {
  std::string m = to_upper(mode);
  while (!m.empty() && m.back() == ' ') m.pop_back();
  bool raw = m == "PATH", wiki = m == "WIKI";
  std::string out;
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if (wiki && c == ' ') c = '_';
    bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
                c == '.' || (raw && c == '~');
    if (wiki && std::string_view(";@$!*(),/~:").find(static_cast<char>(c)) != std::string_view::npos) keep = true;
    if (keep) out += static_cast<char>(c);
    else if (c == ' ' && !raw) out += '+';
    else {
      static const char hex[] = "0123456789ABCDEF";
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::string anchor_encode(std::string_view s) {
  // Parser::guessSectionNameFromWikiText: link markup reduced to its text, whitespace
  // normalized, spaces as underscores (HTML5 ids); then Sanitizer::safeEncodeAttribute.
  std::string text;
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] == '<') {  // HTML tags do not make it into the anchor
      std::size_t close = s.find('>', i);
      if (close != std::string_view::npos) {
        i = close + 1;
        continue;
      }
    }
    if (s.compare(i, 2, "[[") == 0) {
      std::size_t close = s.find("]]", i + 2);
      if (close != std::string_view::npos) {
        std::string_view inner = s.substr(i + 2, close - i - 2);
        auto bar = inner.rfind('|');
        text.append(bar == std::string_view::npos ? inner : inner.substr(bar + 1));
        i = close + 2;
        continue;
      }
    }
    text += s[i++];
  }
  std::string collapsed;
  for (char c : decode_char_references(text)) {
    bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '_';
    if (space) {
      if (!collapsed.empty() && collapsed.back() != '_') collapsed += '_';
    } else {
      collapsed += c;
    }
  }
  while (!collapsed.empty() && collapsed.back() == '_') collapsed.pop_back();
  std::string enc = support::html_escape(collapsed, true);
  std::string out;
  for (std::size_t i = 0; i < enc.size(); ++i) {
    char c = enc[i];
    if (c == '{') out += "&#123;";
    else if (c == '}') out += "&#125;";
    else if (c == '[') out += "&#91;";
    else if (c == ']') out += "&#93;";
    else if (c == '|') out += "&#124;";
    else out += c;
  }
  return out;
}

std::string title_parts(std::string_view title, std::string_view parts_text, std::string_view offset_text,
                        const ingest::SiteInfo& site) {
  auto t = make_title(title, 0, site);
  if (!t) return std::string(title);
  std::vector<std::string> bits;
  std::string prefixed = t->prefixed;
  std::size_t start = 0;
  while (bits.size() < 24) {
    auto slash = prefixed.find('/', start);
    if (slash == std::string::npos) break;
    bits.push_back(prefixed.substr(start, slash - start));
    start = slash + 1;
  }
  bits.push_back(prefixed.substr(start));
  long parts = php_int(parts_text), offset = php_int(offset_text);
  if (offset > 0) --offset;
  long n = static_cast<long>(bits.size());
  long from = offset < 0 ? std::max(0L, n + offset) : std::min(offset, n);
  long to = parts == 0 ? n : parts > 0 ? std::min(n, from + parts) : std::max(from, n + parts);
  std::string out;
  for (long i = from; i < to; ++i) {
    if (i > from) out += '/';
    out += bits[static_cast<std::size_t>(i)];
  }
  return out;
}


}  // namespace wikic::expand
