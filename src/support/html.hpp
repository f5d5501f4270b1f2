// PHP's htmlspecialchars(), which MediaWiki applies to error messages, tag attributes
// and its preprocessor XML: one escaper for every stage that mirrors it.
#pragma once
#include <string>
#include <string_view>

namespace wikic::support {

/// Appends `s` with & < > " escaped, and ' as &#039; when `single_quotes` (ENT_QUOTES;
/// otherwise ENT_COMPAT leaves it).
void append_html_escaped(std::string& out, std::string_view s, bool single_quotes);

inline std::string html_escape(std::string_view s, bool single_quotes) {
  std::string out;
  append_html_escaped(out, s, single_quotes);
  return out;
}

}  // namespace wikic::support
