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
/// The expander numbers its markers in the order it records the nodes, so node i's
/// marker is normally the one with hex digits i, and the lookup reads the digits. An
/// expansion made otherwise (markers not in that order) falls back to a sorted vector.
struct MarkerIndex {
  const expand::Expansion& e;
  bool numbered = true;  ///< every node's marker carries its own index
  std::vector<std::pair<std::string_view, std::uint32_t>> nodes;  ///< marker -> index in e.semantic, sorted
  std::size_t marker_size = 0;
  std::vector<std::uint32_t> seen_in;  ///< per node: the last text scan that met it
  std::uint32_t scans = 0;
  explicit MarkerIndex(const expand::Expansion& ex) : e(ex), seen_in(ex.semantic.size(), 0) {
    constexpr std::size_t numbered_size = expand::kMarkerPrefix.size() + 8 + expand::kMarkerSuffix.size();
    for (std::uint32_t i = 0; i < e.semantic.size() && numbered; ++i) {
      std::string_view m = e.semantic[i].marker;
      std::uint32_t id = 0;
      numbered = m.size() == numbered_size && m.substr(0, expand::kMarkerPrefix.size()) == expand::kMarkerPrefix &&
                 m.substr(numbered_size - expand::kMarkerSuffix.size()) == expand::kMarkerSuffix &&
                 hex_id(m, id) && id == i;
    }
    if (numbered) {
      if (!e.semantic.empty()) marker_size = numbered_size;
      return;
    }
    nodes.reserve(e.semantic.size());
    for (std::uint32_t i = 0; i < e.semantic.size(); ++i) {
      nodes.emplace_back(e.semantic[i].marker, i);
      marker_size = e.semantic[i].marker.size();
    }
    // Equal markers keep the first node, as the map's emplace did.
    std::stable_sort(nodes.begin(), nodes.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  }
  bool empty() const { return e.semantic.empty(); }
  /// The eight uppercase hex digits after the prefix of `marker` (of the numbered size).
  static bool hex_id(std::string_view marker, std::uint32_t& id) {
    id = 0;
    for (char c : marker.substr(expand::kMarkerPrefix.size(), 8)) {
      std::uint32_t digit;
      if (c >= '0' && c <= '9')
        digit = static_cast<std::uint32_t>(c - '0');
      else if (c >= 'A' && c <= 'F')
        digit = static_cast<std::uint32_t>(c - 'A' + 10);
      else
        return false;
      id = id << 4 | digit;
    }
    return true;
  }
  /// The node index of `marker`, or null.
  const std::uint32_t* find(std::string_view marker) {
    if (numbered) {
      // Markers are distinct here (each carries its index), so the node whose marker
      // matches is the only one.
      if (marker.size() != marker_size || !hex_id(marker, found_) || found_ >= e.semantic.size() ||
          e.semantic[found_].marker != marker)
        return nullptr;
      return &found_;
    }
    auto it = std::lower_bound(nodes.begin(), nodes.end(), marker,
                               [](const auto& entry, std::string_view m) { return entry.first < m; });
    return it != nodes.end() && it->first == marker ? &it->second : nullptr;
  }

private:
  std::uint32_t found_ = 0;
};

/// Semantic refs for the markers in `text`, in text order: each node whose marker occurs
/// there, with its parameters and, recursively, the nodes inside their values. A marker
/// repeated in one text (an argument used twice) is a node at its first place only.
/// One pass over the text, then one per parameter value: linear in the texts' sizes,
/// whatever the number of nodes.
std::vector<SemanticNodeRef> refs_in(MarkerIndex& index, std::string_view text, int depth) {
  std::vector<SemanticNodeRef> refs;
  if (depth > 64 || index.empty()) return refs;
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
  // A page has a few dozen of them, from a handful of sources and call chains, so the
  // `file#title` names and chain notes that Expansion::locate builds for each are built
  // once per source and chain here (the same text: locate's note depends on the chain only).
  std::vector<std::string> files;
  std::vector<std::pair<std::uint32_t, std::string>> chains;
  OffsetWarning warning = [&](std::uint32_t offset, std::string message) {
    if (expansion.segments.empty() || expansion.source_lines.size() < expansion.sources.size()) {
      auto where = expansion.locate_offset(offset);
      diagnostics.report({support::Severity::warning, std::move(where.file), where.at, std::move(message) + where.chain});
      return;
    }
    const expand::Origin origin = expand::byte_origin(expansion.segments, offset);
    const expand::SourceText& source = expansion.sources.at(origin.source);
    if (files.size() <= origin.source) files.resize(origin.source + 1);
    std::string& file = files[origin.source];
    if (file.empty()) file.append(source.file).append(1, '#').append(source.title);
    const support::Position at = expansion.source_lines[origin.source].position(origin.span.begin);
    if (origin.chain != expand::kNoChain) {
      auto known = std::find_if(chains.begin(), chains.end(), [&](const auto& c) { return c.first == origin.chain; });
      if (known == chains.end()) known = chains.insert(chains.end(), {origin.chain, expansion.locate(origin).chain});
      message += known->second;
    }
    diagnostics.report({support::Severity::warning, file, at, std::move(message)});
  };
  return parse_document_offsets(input, diagnostics, options, warning, std::move(recycled));
}

}  // namespace wikic::parse
