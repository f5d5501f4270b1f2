// Glue between expansion and parsing: marker spans for the parser, nested markers
// written back as calls, and diagnostics re-anchored through the expansion's provenance.
#include "parse/from_expansion.hpp"

#include <memory>

namespace wikic::parse {

namespace {
/// `text` with every semantic marker replaced by the call it stands for.
std::string with_calls(const expand::Expansion& e, std::string text) {
  if (text.find(expand::kMarkerPrefix) == std::string::npos) return text;
  for (auto it = e.semantic.rbegin(); it != e.semantic.rend(); ++it)
    for (std::size_t at; (at = text.find(it->marker)) != std::string::npos;) {
      std::string call = "{{" + it->name;
      for (const auto& p : it->parameters) {
        call += '|';
        bool positional = !p.name.empty() && p.name.find_first_not_of("0123456789") == std::string::npos;
        if (!positional) call += p.name + "=";
        call += p.value.text;
      }
      text.replace(at, it->marker.size(), call + "}}");
    }
  return text;
}
}  // namespace

Document parse_expansion(const expand::Expansion& expansion, support::DiagnosticSink& diagnostics,
                         const ParseOptions& options) {
  ParseInput input;
  input.text = expansion.text;
  std::size_t from = 0;
  for (const auto& node : expansion.semantic) {
    std::size_t at = expansion.text.find(node.marker, from);
    if (at == std::string::npos) continue;  // nested in another node's parameter
    SemanticNodeRef ref;
    ref.marker = {static_cast<std::uint32_t>(at), static_cast<std::uint32_t>(at + node.marker.size())};
    ref.name = node.name;
    for (const auto& p : node.parameters) ref.params.push_back({p.name, with_calls(expansion, p.value.text)});
    input.semantic.push_back(std::move(ref));
    from = at + node.marker.size();
  }
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
