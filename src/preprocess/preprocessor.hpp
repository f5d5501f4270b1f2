// The preprocessor stage: wikitext in, preprocessor tree out, with MediaWiki 1.39's
// brace matching, comment, heading and tag rules (Preprocessor_Hash::
// buildDomTreeArrayFromText). Never fails: whatever does not close becomes text.
#pragma once
#include <cstddef>
#include <cstdint>
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

/// Spans of a page that a preprocess run added as plain text at the top level, with no
/// piece (`{{`, `[[`, heading) open: MediaWiki's scan decided byte by byte, looking only
/// ahead, that nothing there starts a node. Line restoration records them on the
/// collapsed page. Its restored text differs only by blanks turned into newlines, which
/// every such decision treats like a blank except a newline before '=' (a heading may
/// open): the run over the restored page takes these spans as text up to such a newline
/// instead of scanning them again, and builds the same tree.
struct PlainRuns {
  std::vector<support::Span> spans;  ///< in order, disjoint, none adjacent
  std::vector<support::Span> links;  ///< the `[[…]]` among them that were taken whole, in order
  std::uint32_t source_size = 0;     ///< the length of the text they were found in
  /// The settings they were found with: other tags or conversion decide otherwise.
  std::vector<std::string> extension_tags;
  bool language_conversion = true;
  bool recorded = false;             ///< false: nothing to reuse
  /// Offsets of every '\n' of the restored text, in order, when restoration knows them
  /// (newlines_known): it made most of them itself. The run over that text finds the
  /// newlines before '=' among them, and the page's line index is made from them,
  /// instead of each scanning the page again for newlines.
  std::vector<std::uint32_t> newlines;
  bool newlines_known = false;
  /// The tree the spans were recorded with, when its caller keeps it (restoration does,
  /// for the page it restored in place), or null. It may be lent only if no blank that
  /// became a newline is in a template or argument at its top level (restoration turns
  /// only top-level text into newlines). Such a node is then the same bytes, and MediaWiki's scan decides
  /// its inside from its own bytes alone: the run over the restored page takes such a
  /// node as it is (only its lineStart and heading numbers are decided anew). That run
  /// takes the tree's node arena for its own, leaving the tree empty.
  Tree* tree = nullptr;
  bool depth_limited = false;   ///< the run that recorded them met kMaxStackDepth
  std::uint32_t headings = 0;   ///< headings (<h>, <possible-h>) in that run's tree
};

/// Builds the tree of `text`. The tree refers to `text`, which must outlive it.
Tree preprocess(std::string_view text, const Options& options = {}, const DiagnosticTarget& diagnostics = {});
/// The same, building the tree in the storage of `recycled` (a tree no longer needed):
/// a caller preprocessing page after page reuses one node array instead of allocating
/// and freeing one per page.
Tree preprocess(std::string_view text, const Options& options, const DiagnosticTarget& diagnostics, Tree&& recycled);
/// The same, taking as text the `known` spans (recorded on this text before some of its
/// blanks became newlines, or null) and recording this run's own in `record` (or null).
/// Neither is used for a transclusion (`for_inclusion`).
Tree preprocess(std::string_view text, const Options& options, const DiagnosticTarget& diagnostics, Tree&& recycled,
                const PlainRuns* known, PlainRuns* record);

}  // namespace wikic::preprocess
