// Class names, class lists, elements and template parameters to conditions. The class
// language mirrors the site script as the seed shows it (notes §3.3): `show` + terms joined
// by `And`/`Or`, `Not` negating one term, And binding tighter than Or; the three-way
// partitions `showCircusAndAcrobats` / `showCircusAndNotAcrobats` / `showNotCircusAndAcrobats`
// are the evidence. Atoms may themselves contain `And` (`KingAndRobber`), so names are
// split against the vocabulary, longest atom first, with backtracking.
#include "select/classes.hpp"

#include <algorithm>

namespace wikic::select {

support::Position Where::after(std::string_view prefix) const {
  if (at.line == 0) return at;
  support::Position p = at;
  for (unsigned char c : prefix)
    if ((c & 0xC0) != 0x80) ++p.column;  // count code points, not bytes
  return p;
}

void Where::warn(support::DiagnosticSink& sink, support::Position pos, std::string message) const {
  sink.warning(file, pos, std::move(message) + chain);
}

namespace {

// Backtracking budget: the number of split attempts per class name. Real names need a
// few dozen; the bound only guarantees termination on adversarial input.
constexpr int kSplitBudget = 20000;

struct Splitter {
  std::string_view body;
  const Vocabulary& vocabulary;
  int budget = kSplitBudget;
  std::vector<std::vector<Literal>> groups{{}};  // OR of ANDs

  bool term_at(std::size_t pos) {
    if (--budget < 0) return false;
    std::string_view rest = body.substr(pos);
    for (auto [length, info] : vocabulary.atoms_at(rest))
      if (continue_after(pos + length, Literal{info->id, false})) return true;
    if (rest.starts_with("Not"))
      for (auto [length, info] : vocabulary.atoms_at(rest.substr(3)))
        if (continue_after(pos + 3 + length, Literal{info->id, true})) return true;
    return false;
  }

  bool continue_after(std::size_t pos, Literal literal) {
    groups.back().push_back(std::move(literal));
    if (pos == body.size()) return true;
    std::string_view rest = body.substr(pos);
    if (rest.starts_with("And") && term_at(pos + 3)) return true;
    if (rest.starts_with("Or")) {
      groups.emplace_back();
      if (term_at(pos + 2)) return true;
      groups.pop_back();
    }
    groups.back().pop_back();
    return false;
  }
};

void unknown_id(std::string_view token, const Where& where, std::string_view prefix, support::DiagnosticSink& sink,
                const Vocabulary& v) {
  std::string message = "unknown selector id '" + std::string(token) + "'";
  auto near = v.closest_ids(token);
  if (!near.empty()) {
    message += " (closest known: ";
    for (std::size_t i = 0; i < near.size(); ++i) message += (i ? ", " : "") + near[i];
    message += ')';
  }
  where.warn(sink, where.after(prefix), std::move(message));
}

Condition combine(const std::vector<Condition>& parts, ClassCombination how) {
  return how == ClassCombination::all ? conjoin_all(parts) : disjoin_all(parts);
}

void report_overflow(const Condition& c, const Where& where, support::DiagnosticSink& sink) {
  if (c.overflowed())
    where.warn(sink, where.at,
                 "selector condition has more than " + std::to_string(kMaxDnfTerms) +
                     " terms; treated as unrestricted");
}

int projection_rank(Projection p) {
  switch (p) {
  case Projection::show: return 0;
  case Projection::computed: return 1;
  case Projection::hide: return 2;
  }
  return 0;
}

}  // namespace

std::optional<Condition> parse_class_name(std::string_view name, const Vocabulary& v) {
  if (!name.starts_with("show") || name.size() == 4) return std::nullopt;
  Splitter s{name.substr(4), v};
  if (!s.term_at(0)) return std::nullopt;
  std::vector<Term> terms(s.groups.begin(), s.groups.end());
  return v.simplify(Condition::from_terms(std::move(terms)));
}

ClassMeaning classify_class(std::string_view token, const Where& where, support::DiagnosticSink& sink,
                            const Vocabulary& v) {
  ClassMeaning m;
  if (auto projection = v.structural(token)) {
    m.kind = ClassKind::structural;
    m.projection = projection;
    return m;
  }
  if (v.is_mark(token)) {
    m.kind = ClassKind::mark;
    return m;
  }
  if (!token.starts_with("show")) return m;
  if (auto c = parse_class_name(token, v)) {
    m.kind = ClassKind::condition;
    m.condition = std::move(*c);
    return m;
  }
  // Unknown ids stay opaque atoms: they restrict (no selection names them, so content
  // under them is hidden, as the site script hides a class it does not know).
  m.kind = ClassKind::unknown;
  m.condition = Condition::atom(std::string(token.size() > 4 ? token.substr(4) : token));
  unknown_id(token, where, {}, sink, v);
  return m;
}

ClassList classify_class_list(std::string_view attr, const Where& where, support::DiagnosticSink& sink,
                              const Vocabulary& v) {
  ClassList out;
  std::vector<Condition> parts;
  std::vector<std::string_view> seen;
  std::size_t i = 0;
  auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; };
  while (i < attr.size()) {
    while (i < attr.size() && is_space(attr[i])) ++i;
    std::size_t start = i;
    while (i < attr.size() && !is_space(attr[i])) ++i;
    if (start == i) break;
    std::string_view token = attr.substr(start, i - start);
    Where at{where.file, where.after(attr.substr(0, start)), where.chain};
    if (std::find(seen.begin(), seen.end(), token) != seen.end()) {
      at.warn(sink, at.at, "class '" + std::string(token) + "' is repeated in one class attribute");
      continue;
    }
    seen.push_back(token);
    ClassMeaning m = classify_class(token, at, sink, v);
    switch (m.kind) {
    case ClassKind::structural:
      out.selector_classes.emplace_back(token);
      if (!out.projection || projection_rank(*m.projection) > projection_rank(*out.projection))
        out.projection = m.projection;
      if (auto needed = v.structural_requirement(token); !needed.empty())
        if (auto c = parse_class_name(needed, v)) out.projection_condition = conjoin(out.projection_condition, *c);
      break;
    case ClassKind::mark: out.marks.emplace_back(token); break;
    case ClassKind::condition:
    case ClassKind::unknown:
      out.selector_classes.emplace_back(token);
      parts.push_back(std::move(m.condition));
      break;
    case ClassKind::non_selector: break;
    }
  }
  out.condition = v.simplify(combine(parts, v.class_combination()));
  report_overflow(out.condition, where, sink);
  if (parts.size() > 1 && !v.satisfiable(out.condition) &&
      std::all_of(parts.begin(), parts.end(), [&](const Condition& c) { return v.satisfiable(c); })) {
    std::string names;
    for (const auto& s : out.selector_classes) names += (names.empty() ? "" : " ") + s;
    where.warn(sink, where.at, "classes '" + names + "' on one element can never be shown together");
  }
  return out;
}

std::optional<Condition> condition_of_text(std::string_view text, const Where& where, support::DiagnosticSink& sink,
                                           const Vocabulary& v) {
  std::size_t lead = text.find_first_not_of(" \t\r\n");
  if (lead != std::string_view::npos && text[lead] == '[') return parse_dynamic_selector(text, where, sink, v);
  return classify_class_list(text, where, sink, v).condition;
}

ElementSelection element_selection(const ElementSelectors& element, support::DiagnosticSink& sink,
                                   const Vocabulary& v) {
  ElementSelection out;
  if (!element.class_values.empty()) {
    std::size_t last = element.class_values.size() - 1;
    auto where_of = [&](std::size_t i) { return i < element.class_where.size() ? element.class_where[i] : Where{}; };
    for (std::size_t i = 0; i < last; ++i) {
      Where w = where_of(i + 1);
      w.warn(sink, w.at,
                   "duplicate class attribute; MediaWiki keeps the last one (\"" +
                       std::string(element.class_values[last]) + "\") and drops \"" +
                       std::string(element.class_values[i]) + "\" before the browser sees it");
    }
    ClassList list = classify_class_list(element.class_values[last], where_of(last), sink, v);
    out.condition = std::move(list.condition);
    out.projection = list.projection;
    out.projection_condition = std::move(list.projection_condition);
    out.has_selector = list.has_selector();
  }
  if (element.dynamic_selector) {
    out.has_selector = true;
    auto dynamic = parse_dynamic_selector(*element.dynamic_selector, element.dynamic_where, sink, v);
    if (dynamic) out.condition = v.simplify(conjoin(out.condition, *dynamic));
  }
  return out;
}

Condition element_condition(const ElementSelectors& element, support::DiagnosticSink& sink, const Vocabulary& v) {
  return element_selection(element, sink, v).condition;
}

Condition template_condition(std::optional<std::string_view> selectorid, const Where& selectorid_where,
                             std::optional<std::string_view> dynamicselector, const Where& dynamic_where,
                             support::DiagnosticSink& sink, const Vocabulary& v) {
  Condition own;
  if (selectorid) {
    std::size_t b = selectorid->find_first_not_of(" \t\r\n");
    if (b != std::string_view::npos)
      own = classify_class_list(*selectorid, selectorid_where, sink, v).condition;
  }
  if (dynamicselector) {
    std::size_t b = dynamicselector->find_first_not_of(" \t\r\n");
    if (b != std::string_view::npos) {
      auto dynamic = parse_dynamic_selector(*dynamicselector, dynamic_where, sink, v);
      if (dynamic) own = v.simplify(conjoin(own, *dynamic));
    }
  }
  return own;
}

Condition lint_nested(const Condition& ancestors, const Condition& own, std::string_view own_text, const Where& where,
                      support::DiagnosticSink& sink, const Vocabulary& v, bool redundant) {
  Condition full = v.simplify(conjoin(ancestors, own));
  report_overflow(full, where, sink);
  if (own.is_true() || full.overflowed()) return full;
  // Content already dead through an ancestor is reported once, at that ancestor.
  if (!v.satisfiable(ancestors)) return full;
  if (!v.satisfiable(full)) {
    where.warn(sink, where.at,
                 "content can never be shown: '" + std::string(own_text) + "' (" + to_string(own) +
                     ") contradicts the enclosing condition " + to_string(ancestors));
  } else if (redundant && v.implies(ancestors, own)) {
    where.warn(sink, where.at,
                 "class '" + std::string(own_text) + "' repeats a condition already implied by the enclosing " +
                     to_string(ancestors));
  }
  return full;
}

}  // namespace wikic::select
