// MediaWiki page titles as the expander needs them: Title::newFromText's normalization
// (underscores and runs of spaces, namespace prefixes, first-letter capitals, invalid
// characters, fragments), so `{{feature}}`, `{{Template:Feature}}` and
// `{{ Template_feature }}` all find the same page.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "ingest/page.hpp"

namespace wikic::expand {

struct Title {
  int ns = 0;
  std::string text;  ///< without namespace, spaces not underscores ("Scoring Row")
  std::string prefixed;  ///< "Template:Scoring Row"
  std::string namespace_name;
};

/// Title::newFromText($text, $default_ns); nullopt for an invalid title (empty, or a
/// character MediaWiki forbids in titles: < > [ ] { } | and control characters).
std::optional<Title> make_title(std::string_view text, int default_ns, const ingest::SiteInfo& site);

/// Content-language upper/lower case of the first character, and of the whole string
/// (UTF-8 aware for Latin, Greek and Cyrillic; other scripts are left as they are).
std::string uc_first(std::string_view s);
std::string lc_first(std::string_view s);
std::string to_upper(std::string_view s);
std::string to_lower(std::string_view s);

/// wfEscapeWikiText(): what PAGENAME and friends return, so a title's characters are
/// never read as markup.
std::string escape_wikitext(std::string_view s);

}  // namespace wikic::expand
