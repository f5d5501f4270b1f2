// Glue between expansion and parsing: marker spans for the parser (also inside the
// values of semantic parameters), and diagnostics re-anchored through provenance.
#include "parse/from_expansion.hpp"

#include <algorithm>
#include <memory>

namespace wikic::parse {

namespace {
/// Semantic refs for the markers in `text`: each node whose marker occurs there, with
/// its parameters and, recursively, the nodes inside their values. Markers are unique,
/// so a node is found in exactly one text.
std::vector<SemanticNodeRef> refs_in(const expand::Expansion& e, std::string_view text, int depth) {
  std::vector<SemanticNodeRef> refs;
  if (depth > 64 || text.find(expand::kMarkerPrefix) == std::string_view::npos) return refs;
  std::vector<std::pair<std::size_t, const expand::SemanticNode*>> found;
  for (const auto& node : e.semantic)
    if (auto at = text.find(node.marker); at != std::string_view::npos) found.emplace_back(at, &node);
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [at, node] : found) {
    SemanticNodeRef ref;
    ref.marker = {static_cast<std::uint32_t>(at), static_cast<std::uint32_t>(at + node->marker.size())};
    ref.name = node->name;
    for (const auto& p : node->parameters)
      ref.params.push_back({p.name, p.value.text, refs_in(e, p.value.text, depth + 1)});
    refs.push_back(std::move(ref));
  }
  return refs;
}
}  // namespace

Document parse_expansion(const expand::Expansion& expansion, support::DiagnosticSink& diagnostics,
                         const ParseOptions& options) {
  ParseInput input;
  input.text = expansion.text;
  input.semantic = refs_in(expansion, expansion.text, 0);
  // The parser positions its diagnostics in the expanded text; each is moved to the
  // byte of the page or template that produced it.
  support::LineIndex expanded_lines(expansion.text);
  support::DiagnosticSink local([&](const support::Diagnostic& d) {
    if (d.where.line == 0) {
      diagnostics.report(d);
      return;
    }
    auto where = expansion.locate_offset(expanded_lines.offset(d.where));
    diagnostics.report({d.severity, where.file, where.at, d.message + where.chain});
  });
  return parse_document(input, local, options);
}

}  // namespace wikic::parse
