// The pipeline of one page (see pipeline.hpp) and its locator: document positions are in
// the expanded text or in a parameter's Fragment, so diagnostics about them are moved
// back through the expansion's provenance to the page or template byte that produced
// them, as parse::parse_expansion does for the parser's own diagnostics.
#include "cli/pipeline.hpp"

#include <algorithm>
#include <functional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "parse/from_expansion.hpp"

namespace wikic::cli {

namespace {

/// Maps (document source, offset) to a location; built once per page.
class Locator {
public:
  Locator(const expand::Expansion& e, const parse::Document& doc, std::string file)
      : e_(e), file_(std::move(file)), files_(e.sources.size()) {
    if (!by_value_text(doc)) by_semantic_nodes(doc);
  }

  select::Where operator()(std::uint16_t source, std::uint32_t offset) {
    // As Expansion::locate_offset: the expander's segments are exact, so a byte copied
    // from the page or a template maps to itself, any other to the construct making it.
    if (source == 0) return at(expand::byte_origin(e_.segments, offset));
    if (source < pieces_.size() && pieces_[source]) {
      const auto& piece = *pieces_[source];
      return at(piece.segments.empty() ? *calls_[source] : expand::byte_origin(piece.segments, offset));
    }
    return {file_, {0, 0}, {}};
  }

private:
  // Every source after the page text is the value of a semantic parameter, and
  // parse_expansion lends the parser the parameter's own text rather than a copy, so the
  // source's first byte tells which parameter it is: a lookup per source (a few hundred a
  // page) instead of a walk over every node (ten thousand). False if a source is not
  // such a view (a parser that copied the texts), and the walk decides.
  bool by_value_text(const parse::Document& doc) {
    struct Value {
      const char* text;
      const expand::Piece* piece;
      const expand::Origin* call;
    };
    pieces_.assign(doc.source_count(), nullptr);
    calls_.assign(doc.source_count(), nullptr);
    std::vector<Value> values;
    for (const auto& node : e_.semantic)
      for (const auto& param : node.parameters) values.push_back({param.value.text.data(), &param.value, &node.origin});
    std::sort(values.begin(), values.end(), [](const Value& a, const Value& b) { return std::less<>()(a.text, b.text); });
    for (std::size_t source = 1; source < doc.source_count(); ++source) {
      const char* text = doc.source(static_cast<std::uint16_t>(source)).data();
      auto it = std::lower_bound(values.begin(), values.end(), text,
                                 [](const Value& v, const char* t) { return std::less<>()(v.text, t); });
      if (it == values.end() || it->text != text) return false;
      pieces_[source] = it->piece;
      calls_[source] = it->call;
    }
    return true;
  }

  // The semantic nodes in the document by marker, and their parameters by position.
  void by_semantic_nodes(const parse::Document& doc) {
    // Sorted (a stable sort keeps the first of equal markers, as a map's emplace did):
    // one allocation per page instead of one per semantic node.
    std::vector<std::pair<std::string_view, const expand::SemanticNode*>> by_marker;
    by_marker.reserve(e_.semantic.size());
    for (const auto& node : e_.semantic) by_marker.emplace_back(node.marker, &node);
    std::stable_sort(by_marker.begin(), by_marker.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    pieces_.assign(doc.source_count(), nullptr);
    calls_.assign(doc.source_count(), nullptr);
    for (parse::NodeId id = 0; id < doc.size(); ++id) {
      const parse::Node& n = doc.node(id);
      if (n.kind != parse::NodeKind::SemanticTemplate) continue;
      std::string_view marker = doc.text(n);
      auto it = std::lower_bound(by_marker.begin(), by_marker.end(), marker,
                                 [](const auto& entry, std::string_view m) { return entry.first < m; });
      if (it == by_marker.end() || it->first != marker) continue;
      const expand::SemanticNode& node = *it->second;
      // The parser makes one TemplateParameter per parameter, in order.
      std::size_t k = 0;
      for (parse::NodeId p = n.first_child; p != parse::kNoNode; p = doc.node(p).next_sibling, ++k) {
        const parse::Node& pn = doc.node(p);
        if (pn.kind != parse::NodeKind::TemplateParameter || pn.first_child == parse::kNoNode) continue;
        const expand::SemanticNode::Parameter* param =
            k < node.parameters.size() && node.parameters[k].name == pn.name ? &node.parameters[k] : nullptr;
        if (!param) param = node.find(std::string(pn.name));
        std::uint16_t source = doc.node(pn.first_child).source;
        if (source < pieces_.size() && param) {
          pieces_[source] = &param->value;
          calls_[source] = &node.origin;
        }
      }
    }
  }

  // Expansion::locate, with the file names and chain notes computed once per page (the
  // selector asks for a position for every class attribute, reported or not).
  select::Where at(const expand::Origin& o) {
    if (o.source >= e_.sources.size() || o.source >= e_.source_lines.size()) return {file_, {0, 0}, {}};
    std::string& file = files_[o.source];
    if (file.empty()) file = e_.sources[o.source].file + "#" + e_.sources[o.source].title;
    select::Where w{file, e_.source_lines[o.source].position(o.span.begin), {}};
    if (o.chain != expand::kNoChain) {
      auto [it, fresh] = chains_.try_emplace(o.chain);
      if (fresh) it->second = e_.locate(o).chain;
      w.chain = it->second;
    }
    return w;
  }

  const expand::Expansion& e_;
  std::string file_;
  std::vector<std::string> files_;
  std::vector<const expand::Piece*> pieces_;
  std::vector<const expand::Origin*> calls_;
  std::unordered_map<std::uint32_t, std::string> chains_;
};

}  // namespace

struct Pipeline::Impl {
  Impl(expand::TemplateStore& store, support::DiagnosticSink& s, PipelineOptions o)
      : sink(s), options(std::move(o)), expander(store, options.expand, s) {}
  support::DiagnosticSink& sink;
  PipelineOptions options;
  expand::Expander expander;
};

namespace {
// The last compiled page's big arrays, handed to the next page's stages: a page's
// expansion, document and conditions are hundreds of KB, and allocating and freeing
// them per page made glibc consolidate its free lists every time. Per thread, not per
// Pipeline: `wikic compile` makes a Pipeline per page (each with the page's own sink).
// A page that finds them taken (moved from) simply starts with empty ones.
struct Spares {
  expand::Expansion expansion;
  parse::Document doc;
  select::TreeConditions conditions;
};
Spares& spares() {
  thread_local Spares s;
  return s;
}
}  // namespace

Pipeline::Pipeline(expand::TemplateStore& store, support::DiagnosticSink& sink, PipelineOptions options)
    : impl_(std::make_unique<Impl>(store, sink, std::move(options))) {}

Pipeline::~Pipeline() = default;

std::unique_ptr<PageTrees> Pipeline::parse(ingest::Page& page) {
  Stopwatch clock(impl_->options.times);
  auto trees = std::make_unique<PageTrees>();
  trees->file = page.source.file + "#" + page.title;
  // Pages whose newlines arrived collapsed (the seed) get their line starts back first.
  // In place: a page that needs nothing is not copied (the result's text stays empty).
  trees->restored = preprocess::restore_lines_in_place(page.revision.text, impl_->options.restore,
                                                       impl_->options.preprocess, {&impl_->sink, trees->file},
                                                       page.revision.newlines);
  if (trees->restored.restored) {  // the reader's findings were about the text as read
    page.revision.newlines.reset();
    page.revision.translate_tag.reset();
  }
  clock.lap(&StageTimes::restore);
  trees->expansion = impl_->expander.expand_page(page, std::move(spares().expansion), &trees->restored.plain_runs);
  clock.lap(&StageTimes::expand);
  parse::ParseOptions parse_options;
  parse_options.page = trees->file;
  trees->doc = parse::parse_expansion(trees->expansion, impl_->sink, parse_options, std::move(spares().doc));
  trees->locate = Locator(trees->expansion, trees->doc, trees->file);
  clock.lap(&StageTimes::parse);
  return trees;
}

std::unique_ptr<PageTrees> Pipeline::select(ingest::Page& page) {
  auto trees = parse(page);
  Stopwatch clock(impl_->options.times);
  select::TreeOptions options;
  options.locate = std::ref(trees->locate);
  options.lint_redundant = impl_->options.lint_redundant;
  trees->conditions = select::tree_conditions(trees->doc, trees->file, impl_->sink, select::Vocabulary::builtin(), options,
                                              std::move(spares().conditions));
  clock.lap(&StageTimes::select);
  return trees;
}

extract::PageRules Pipeline::compile(ingest::Page& page) {
  auto trees = select(page);
  Stopwatch clock(impl_->options.times);
  extract::PageInput input{page,          trees->file, trees->restored,  trees->expansion,
                           trees->doc,    trees->conditions, trees->locate};
  auto rules = extract::extract_rules(input, impl_->sink);
  clock.lap(&StageTimes::extract);
  // The rules own their data; the trees are done with and their storage goes to the next page.
  Spares& spare = spares();
  spare.conditions = std::move(trees->conditions);
  spare.doc = std::move(trees->doc);
  spare.expansion = std::move(trees->expansion);
  return rules;
}

}  // namespace wikic::cli
