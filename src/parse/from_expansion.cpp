// Glue between expansion and parsing: marker spans for the parser (also inside the
// values of semantic parameters), and diagnostics re-anchored through provenance.
#include "parse/from_expansion.hpp"
#include "parse/offset_warnings.hpp"

#include <algorithm>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

namespace wikic::parse {

namespace {
/// The semantic nodes of an expansion by marker. Markers all have one size (a fixed
/// prefix, eight hex digits and a suffix), so a marker in a text is one lookup.
/// (A sorted vector rather than a hash map: one allocation instead of one per node.)
struct MarkerIndex {
  const expand::Expansion& e;
  std::vector<std::pair<std::string_view, std::uint32_t>> nodes;  ///< marker -> index in e.semantic, sorted
  std::size_t marker_size = 0;
  std::vector<std::uint32_t> seen_in;  ///< per node: the last text scan that met it
  std::uint32_t scans = 0;
  explicit MarkerIndex(const expand::Expansion& ex) : e(ex), seen_in(ex.semantic.size(), 0) {
    nodes.reserve(e.semantic.size());
    for (std::uint32_t i = 0; i < e.semantic.size(); ++i) {
      nodes.emplace_back(e.semantic[i].marker, i);
      marker_size = e.semantic[i].marker.size();
    }
    // Equal markers keep the first node, as the map's emplace did.
    std::stable_sort(nodes.begin(), nodes.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  }
  /// The node index of `marker`, or null.
  const std::uint32_t* find(std::string_view marker) const {
    auto it = std::lower_bound(nodes.begin(), nodes.end(), marker,
                               [](const auto& entry, std::string_view m) { return entry.first < m; });
    return it != nodes.end() && it->first == marker ? &it->second : nullptr;
  }
};

/// Semantic refs for the markers in `text`, in text order: each node whose marker occurs
/// there, with its parameters and, recursively, the nodes inside their values. A marker
/// repeated in one text (an argument used twice) is a node at its first place only.
/// One pass over the text, then one per parameter value: linear in the texts' sizes,
/// whatever the number of nodes.
std::vector<SemanticNodeRef> refs_in(MarkerIndex& index, std::string_view text, int depth) {
  std::vector<SemanticNodeRef> refs;
  if (depth > 64 || index.nodes.empty()) return refs;
  // The whole text is scanned before any parameter is, so this scan's marks stand.
  const std::uint32_t scan = ++index.scans;
  std::vector<std::pair<std::size_t, std::uint32_t>> found;
  for (std::size_t at = text.find(expand::kMarkerPrefix); at != std::string_view::npos;
       at = text.find(expand::kMarkerPrefix, at + 1)) {
    const std::uint32_t* node = index.find(text.substr(at, index.marker_size));
    if (!node) continue;  // page text that merely looks like a marker
    if (index.seen_in[*node] == scan) continue;
    index.seen_in[*node] = scan;
    found.emplace_back(at, *node);
    at += index.marker_size - 1;
  }
  refs.reserve(found.size());
  for (const auto& [at, i] : found) {
    const expand::SemanticNode& node = index.e.semantic[i];
    SemanticNodeRef ref;
    ref.marker = {static_cast<std::uint32_t>(at), static_cast<std::uint32_t>(at + node.marker.size())};
    ref.name = node.name;
    ref.params.reserve(node.parameters.size());
    for (const auto& p : node.parameters)
      ref.params.push_back({p.name, p.value.text, refs_in(index, p.value.text, depth + 1)});
    refs.push_back(std::move(ref));
  }
  return refs;
}
}  // namespace

Document parse_expansion(const expand::Expansion& expansion, support::DiagnosticSink& diagnostics,
                         const ParseOptions& options) {
  return parse_expansion(expansion, diagnostics, options, Document());
}

Document parse_expansion(const expand::Expansion& expansion, support::DiagnosticSink& diagnostics,
                         const ParseOptions& options, Document&& recycled) {
  ParseInput input;
  input.text = expansion.text;
  input.borrow_texts = true;  // the caller keeps the expansion (see the header)
  MarkerIndex markers(expansion);
  input.semantic = refs_in(markers, expansion.text, 0);
  // The parser's warnings carry offsets in the expanded text; each is moved to the
  // byte of the page or template that produced it.
  OffsetWarning warning = [&](std::uint32_t offset, std::string message) {
    auto where = expansion.locate_offset(offset);
    diagnostics.report({support::Severity::warning, where.file, where.at,
                        std::move(message) + where.chain});
  };
  return parse_document_offsets(input, diagnostics, options, warning, std::move(recycled));
}

}  // namespace wikic::parse
