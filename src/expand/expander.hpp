// Template expansion with MediaWiki 1.39's semantics (Parser::preprocess: frames,
// braceSubstitution, argSubstitution, core and ParserFunctions parser functions, magic
// words, limits), over wikic's preprocessor tree, keeping the semantic templates of
// schema/templates.yaml as typed nodes and recording where every output byte came from.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "expand/piece.hpp"
#include "expand/semantic.hpp"
#include "ingest/page.hpp"
#include "preprocess/tree.hpp"
#include "support/diagnostic.hpp"

namespace wikic::preprocess {
struct PlainRuns;
}

namespace wikic::expand {

/// MediaWiki's default limits (MainConfigSchema: MaxTemplateDepth, MaxPPExpandDepth,
/// MaxPPNodeCount, MaxIncludeSize in bytes).
inline constexpr int kMaxTemplateDepth = 100;
inline constexpr int kMaxExpandDepth = 100;
inline constexpr std::uint64_t kMaxNodeCount = 1'000'000;
inline constexpr std::uint64_t kMaxIncludeSize = 2 * 1024 * 1024;

/// Pages that templates and transclusions are fetched from.
class TemplateStore {
public:
  struct Entry {
    std::string title;  ///< prefixed, normalized
    int ns = 0;
    std::string text;
    std::string redirect;  ///< target title when the page is a redirect
    std::string file;
    support::Position text_at;
    std::unique_ptr<preprocess::Tree> inclusion_tree;  ///< built on first use
  };
  explicit TemplateStore(const ingest::SiteInfo& site) : site_(site) {}
  /// Adds (or replaces) a page; titles are normalized as MediaWiki would. Returns its
  /// entry (null for an invalid title); a later page with the same title replaces the
  /// contents of the same entry.
  const Entry* add(const ingest::Page& page);
  /// The same, taking the page's text over instead of copying it.
  const Entry* add(ingest::Page&& page);
  /// The entry for a normalized prefixed title, or null.
  Entry* find(const std::string& title);
  const ingest::SiteInfo& site() const { return site_; }
  std::size_t size() const { return entries_.size(); }

private:
  const Entry* add(const ingest::Page& page, std::string text);
  ingest::SiteInfo site_;
  std::unordered_map<std::string, Entry> entries_;
};

struct ExpandOptions {
  bool expand_all = false;       ///< expand claimed semantic templates too
  bool remove_comments = true;   ///< ParserOptions::getRemoveComments(), on for preprocess()
  bool translate = true;         ///< the Translate extension: #translation:, <translate>, <tvar>
  bool subpages_in_main = true;  ///< $wgNamespacesWithSubpages[NS_MAIN] (BASEPAGENAME …)
  /// Tags the preprocessor keeps opaque; empty = its defaults.
  std::vector<std::string> extension_tags;
  const SemanticSchema* schema = &SemanticSchema::builtin();
};

/// A template call on the chain that produced some text.
struct Call {
  std::string template_title;
  Origin called_at;  ///< source, span of the call, and the chain it was itself made in
};

struct SourceText {
  std::string title;
  std::string file;
  support::Position text_at;  ///< where the page text starts in the file (1:1 for .wiki)
};

/// A template kept as a typed node: parameters expanded, in call order.
struct SemanticNode {
  std::string name;
  const TemplateSpec* spec = nullptr;
  struct Parameter {
    std::string name;  ///< "1", "2"… for positional ones
    Piece value;       ///< named: trimmed; positional: as written (MediaWiki's rules)
  };
  std::vector<Parameter> parameters;
  Origin origin;  ///< the call
  std::string marker;  ///< the placeholder standing for the node in Expansion::text
  bool line_start = false;
  const Parameter* find(const std::string& param) const;
};

/// A <translate> unit boundary kept as metadata (Translate's markup is transparent).
struct TranslateRegion {
  std::uint32_t begin = 0, end = 0;  ///< in Expansion::text
  Origin origin;
};

struct Expansion {
  std::string text;  ///< expanded wikitext; semantic nodes appear as their markers
  std::vector<Segment> segments;
  std::vector<SourceText> sources;
  std::vector<Call> calls;  ///< calls[0] is a placeholder for "no call"
  std::vector<SemanticNode> semantic;
  std::vector<TranslateRegion> translate_regions;

  /// `{{Name|param=value…}}` in place of each marker: what `wikic expand` prints.
  std::string text_with_semantic_calls() const;
  /// "file:line:col" of a source origin, and " (in Template:X called at …)" for its chain.
  std::string describe(const Origin& origin) const;

  /// A diagnostic location for an origin: the source's `file#title`, the position in
  /// that source, and the note naming the template calls it was expanded in.
  struct Location {
    std::string file;
    support::Position at;
    std::string chain;  ///< " (in Template:X called at f#P:3:1)…", or ""
  };
  Location locate(const Origin& origin) const;
  /// The location of byte `offset` of `text` (the page itself where nothing is known).
  Location locate_offset(std::size_t offset) const;

  /// Line indexes of the sources (they view the texts of the page and the template
  /// store, which must outlive the Expansion for locate() to be used).
  std::vector<support::LineIndex> source_lines;
};

/// The marker MediaWiki-style strip markers use: parse recognises it as a node.
inline constexpr std::string_view kMarkerPrefix = "\x7f'\"`UNIQ--semantic-";
inline constexpr std::string_view kMarkerSuffix = "-QINU`\"'\x7f";

class Expander {
public:
  Expander(TemplateStore& store, ExpandOptions options, support::DiagnosticSink& sink);
  ~Expander();
  /// Expands a page's text as Parser::preprocess does when the page is viewed.
  Expansion expand_page(const ingest::Page& page);
  /// The same, building the result in the storage of `recycled` (an Expansion no
  /// longer needed, e.g. the previous page's): its buffers are reused, its contents
  /// dropped.
  Expansion expand_page(const ingest::Page& page, Expansion&& recycled);
  /// The same for a page restored from a collapsed one, with restoration's plain runs
  /// (preprocess::PlainRuns; null: none), which spare the page's preprocess part of its
  /// scan.
  Expansion expand_page(const ingest::Page& page, Expansion&& recycled, const preprocess::PlainRuns* plain_runs);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace wikic::expand
