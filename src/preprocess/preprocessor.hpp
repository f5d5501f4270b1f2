// The preprocessor stage: wikitext in, preprocessor tree out, with MediaWiki 1.39's
// brace matching, comment, heading and tag rules (Preprocessor_Hash::
// buildDomTreeArrayFromText). Never fails: whatever does not close becomes text.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "preprocess/tree.hpp"
#include "support/diagnostic.hpp"

namespace wikic::preprocess {

/// Pieces (open `{{`, `[[`, `-{`, headings) on the matching stack at once. Beyond it an
/// opening is left as text: MediaWiki has no such limit, but no real page comes near it
/// and it bounds the depth of every recursive walk over the tree.
inline constexpr std::size_t kMaxStackDepth = 1000;
/// Spans are 32-bit; a longer page is cut here (with an error) rather than wrapped.
inline constexpr std::size_t kMaxSourceBytes = 0xFFFFFFF0u;

/// wikic's default extension tags (the tags Wikicarpedia registers and that are opaque
/// to the preprocessor).
const std::vector<std::string>& default_extension_tags();
/// `Parser::getStripList()` of the oracle wiki in ../shared/peers (MediaWiki 1.39 with
/// ParserFunctions only), for the differential test.
const std::vector<std::string>& oracle_extension_tags();

struct Options {
  /// Transclusion mode (Preprocessor::DOM_FOR_INCLUSION): <noinclude> hides, <includeonly>
  /// shows, <onlyinclude> selects. Page view otherwise.
  bool for_inclusion = false;
  /// Lower-case tag names kept opaque, like the parser's strip list.
  std::vector<std::string> extension_tags = default_extension_tags();
  /// `-{ … }-` language-conversion markup takes part in matching unless conversion is
  /// disabled on the wiki (it is enabled on the oracle and on Wikicarpedia).
  bool language_conversion = true;
  /// Report `{{`/`{{{` that never close and unclosed comments as warnings.
  bool report_unclosed = true;
};

/// Where diagnostics go and which file name they carry (`file#Page` for a page).
struct DiagnosticTarget {
  support::DiagnosticSink* sink = nullptr;
  std::string file;
};

/// Builds the tree of `text`. The tree refers to `text`, which must outlive it.
Tree preprocess(std::string_view text, const Options& options = {}, const DiagnosticTarget& diagnostics = {});
/// The same, building the tree in the storage of `recycled` (a tree no longer needed):
/// a caller preprocessing page after page reuses one node array instead of allocating
/// and freeing one per page.
Tree preprocess(std::string_view text, const Options& options, const DiagnosticTarget& diagnostics, Tree&& recycled);

}  // namespace wikic::preprocess
