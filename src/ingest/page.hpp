// What ingest hands to the rest of the pipeline: the wiki's site information and one
// record per page with its latest revision, named as in MediaWiki's export schema
// (https://www.mediawiki.org/xml/export-0.11.xsd: siteinfo, page, revision).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "support/source.hpp"

namespace wikic::ingest {

struct Namespace {
  int key = 0;
  std::string name;  ///< "" for the main namespace
  std::string case_rule = "first-letter";
};

struct SiteInfo {
  std::string sitename;
  std::string dbname;
  std::string base;
  std::string generator;
  std::string case_rule = "first-letter";
  std::string language = "en";  ///< the <mediawiki xml:lang> of the export
  std::string schema_version;   ///< "0.10", "0.11"; empty for .wiki input
  std::vector<Namespace> namespaces;

  const Namespace* find(int key) const;
  /// Splits "Template:Foo" into (10, "Foo"); a title without a known prefix is (0, title).
  /// Prefixes match case-insensitively with '_' and ' ' equal, as MediaWiki's title parser.
  std::pair<int, std::string_view> split_title(std::string_view title) const;
};

/// Site information for input that has none (schema/site.yaml).
const SiteInfo& default_site();

struct Contributor {
  std::string username;
  std::string id;
  std::string ip;
};

struct Revision {
  std::uint64_t id = 0;
  std::uint64_t parent_id = 0;
  std::string timestamp;
  Contributor contributor;
  std::string model = "wikitext";
  std::string format = "text/x-wiki";
  std::string text;
  /// The number of '\n' in `text` when the reader counted them on the way (a plain
  /// decode of the export), else none: restoration then need not search a collapsed page
  /// for them. Whoever puts other text in `text` resets it.
  std::optional<std::size_t> newlines;
  /// Whether `text` holds "<translate" (the Translate extension's markup), when the
  /// reader saw while decoding it: the pages of an export are checked for it, and most
  /// have none, so their whole text would be searched. Reset with `newlines`.
  std::optional<bool> translate_tag;
  std::string sha1;  ///< base 36 as in the export; computed when the export lacks it
  bool sha1_computed = false;
  bool text_skipped = false;  ///< the reader was asked not to decode this text (text is empty)
};

/// Where a page came from, for diagnostics that point into the input file.
struct PageSource {
  std::string file;
  support::Position page_at;  ///< the <page> element (or 1:1 of a .wiki file)
  support::Position text_at;  ///< the start of the <text> element's content
};

struct Page {
  std::string title;
  int ns = 0;
  std::uint64_t id = 0;
  std::string redirect;  ///< target title when the page is a redirect
  std::string language;  ///< from a /xx title suffix, else the site language
  std::size_t revisions_in_input = 0;
  Revision revision;     ///< the latest revision in the input
  PageSource source;
};

}  // namespace wikic::ingest
