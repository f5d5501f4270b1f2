// The language codes the wiki knows (schema/languages.yaml) and the Translate
// extension's convention that "Page/xx" is the xx translation of "Page".
#pragma once
#include <string>
#include <string_view>

namespace wikic::ingest {

/// True when `code` is one of the wiki's language codes.
bool is_language_code(std::string_view code);

/// Display name of a code ("fr" → "French"), or "" when unknown.
std::string_view language_name(std::string_view code);

/// The language of a page titled `title` on a site whose language is `site_language`:
/// the code after the last '/' when it is a known code, otherwise the site language.
std::string page_language(std::string_view title, std::string_view site_language);

}  // namespace wikic::ingest
