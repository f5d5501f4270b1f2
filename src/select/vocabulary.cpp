// Loads schema/selectors.yaml and answers questions that need the meaning of atoms.
// Satisfiability is exact for the constraints the schema declares: the preferred edition
// is one of three (edition atoms are functions of it), an atom implies what it lists
// (suffix forms imply their base, members of an `any_of` imply the family), and the
// `_ForC1`/`_ForC2` variants of one expansion exclude each other. Expansions are otherwise
// independent, so a term is satisfiable iff, for some edition, the closure of its
// positive atoms meets none of its negative ones.
#include "select/vocabulary.hpp"

#include <algorithm>
#include <atomic>
#include <deque>
#include <stdexcept>
#include <unordered_map>
#include <yaml-cpp/yaml.h>

#include "support/embedded.hpp"

namespace wikic::select {

const char* to_string(Edition e) {
  switch (e) {
  case Edition::C1: return "C1";
  case Edition::C2: return "C2";
  case Edition::WE: return "WE";
  }
  return "C2";
}

std::optional<Edition> parse_edition(std::string_view text) {
  if (text == "C1") return Edition::C1;
  // C3 is folded into the New Edition by the selector (seed 004: "C2+C3").
  if (text == "C2" || text == "C3") return Edition::C2;
  if (text == "WE") return Edition::WE;
  return std::nullopt;
}

namespace {

// The suffixes generated for every declared expansion atom; `_Any` needs a member list
// and `_Graphics` belongs to editions only, so neither is generated.
struct GeneratedSuffix {
  std::string suffix;
  std::optional<Edition> variant_of;
};

Edition variant_for(Edition preferred) { return preferred == Edition::C1 ? Edition::C1 : Edition::C2; }

std::vector<Edition> editions_of(const YAML::Node& list) {
  std::vector<Edition> out;
  if (!list) return out;
  for (const auto& e : list) {
    auto ed = parse_edition(e.as<std::string>());
    if (!ed) throw std::runtime_error("unknown edition '" + e.as<std::string>() + "'");
    out.push_back(*ed);
  }
  return out;
}

std::vector<std::string> strings_of(const YAML::Node& list) {
  std::vector<std::string> out;
  if (list)
    for (const auto& s : list) out.push_back(s.as<std::string>());
  return out;
}

std::optional<Projection> parse_projection(const std::string& s) {
  if (s == "show") return Projection::show;
  if (s == "hide") return Projection::hide;
  if (s == "computed") return Projection::computed;
  return std::nullopt;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t up = row[j];
      std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + cost});
      diagonal = up;
    }
  }
  return row[b.size()];
}

bool contains(const std::vector<Edition>& list, Edition e) {
  return std::find(list.begin(), list.end(), e) != list.end();
}

bool id_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

// Structural globs: `*` matches one or more id characters. Iterative with one
// backtrack point per star (the classic wildcard walk), so matching is linear-ish and
// cannot blow up on long names.
bool glob_match(std::string_view pattern, std::string_view text) {
  std::size_t p = 0, t = 0, star = std::string_view::npos, resume = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*' && id_char(text[t])) {
      star = p++;
      resume = ++t;  // the star takes at least one character
    } else if (p < pattern.size() && pattern[p] != '*' && pattern[p] == text[t]) {
      ++p;
      ++t;
    } else if (star != std::string_view::npos && id_char(text[resume])) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  return p == pattern.size();
}

}  // namespace

void Vocabulary::add_atom(AtomInfo info) {
  std::size_t index = atoms_.size();
  if (!by_name_.emplace(info.id, index).second) throw std::runtime_error("atom '" + info.id + "' declared twice");
  atoms_.push_back(std::move(info));
}

std::optional<Vocabulary> Vocabulary::from_yaml(std::string_view text, std::string& error) {
  try {
    Vocabulary v;
    YAML::Node doc = YAML::Load(std::string(text));
    v.version_ = doc["version"].as<int>();
    if (auto a = doc["assumptions"]) {
      if (a["multiple_classes"]) {
        auto m = a["multiple_classes"].as<std::string>();
        if (m != "and" && m != "or") throw std::runtime_error("multiple_classes must be 'and' or 'or'");
        v.combination_ = m == "and" ? ClassCombination::all : ClassCombination::any;
      }
      if (a["xor"]) {
        auto x = a["xor"].as<std::string>();
        if (x != "exactly_one" && x != "parity") throw std::runtime_error("xor must be 'exactly_one' or 'parity'");
        v.xor_mode_ = x == "parity" ? XorMode::parity : XorMode::exactly_one;
      }
    }
    auto editions = doc["editions"];
    if (editions["default"]) {
      auto d = parse_edition(editions["default"].as<std::string>());
      if (!d) throw std::runtime_error("bad default edition");
      v.default_edition_ = *d;
    }
    for (const auto& e : editions["atoms"]) {
      AtomInfo info;
      info.id = e["id"].as<std::string>();
      info.label = e["label"].as<std::string>("");
      info.kind = AtomKind::edition;
      info.editions = editions_of(e["true_when"]);
      v.add_atom(std::move(info));
    }
    for (const auto& s : doc["settings"]) {
      AtomInfo info;
      info.id = s["id"].as<std::string>();
      info.label = s["label"].as<std::string>("");
      info.kind = AtomKind::setting;
      v.add_atom(std::move(info));
    }
    v.marks_ = strings_of(doc["marks"]);
    std::vector<GeneratedSuffix> generated;
    for (const auto& s : doc["suffixes"]) {
      GeneratedSuffix g{s["suffix"].as<std::string>(), std::nullopt};
      if (s["variant_of"]) g.variant_of = parse_edition(s["variant_of"].as<std::string>());
      if (g.suffix != "_Any") generated.push_back(std::move(g));
    }
    std::vector<std::pair<std::string, std::size_t>> aliases;
    for (const auto& a : doc["atoms"]) {
      AtomInfo info;
      info.id = a["id"].as<std::string>();
      info.label = a["label"].as<std::string>("");
      info.editions = editions_of(a["editions"]);
      info.group = a["group"].as<std::string>("");
      info.implies = strings_of(a["implies"]);
      info.any_of = strings_of(a["any_of"]);
      info.none_of = strings_of(a["none_of"]);
      for (const auto& g : generated)
        if (info.id.size() > g.suffix.size() && info.id.ends_with(g.suffix)) {
          info.variant_of = g.variant_of;
          info.base = info.id.substr(0, info.id.size() - g.suffix.size());
        }
      for (auto& alias : strings_of(a["aliases"])) aliases.emplace_back(std::move(alias), v.atoms_.size());
      v.add_atom(std::move(info));
    }
    v.declared_count_ = v.atoms_.size();
    for (auto& [alias, index] : aliases)
      if (!v.by_name_.emplace(alias, index).second) throw std::runtime_error("alias '" + alias + "' clashes");
    // Suffix forms of every expansion atom, so `showTower_ForC1` is understood before the
    // wiki uses it; listed atoms win over generated ones.
    for (std::size_t i = 0; i < v.declared_count_; ++i) {
      if (v.atoms_[i].kind != AtomKind::expansion || !v.atoms_[i].base.empty()) continue;
      for (const auto& g : generated) {
        std::string id = v.atoms_[i].id + g.suffix;
        if (v.by_name_.count(id)) {
          AtomInfo& listed = v.atoms_[v.by_name_.find(id)->second];
          if (listed.base.empty()) listed.base = v.atoms_[i].id;
          continue;
        }
        AtomInfo info;
        info.id = id;
        info.label = v.atoms_[i].label + " (" + g.suffix.substr(1) + ")";
        info.editions = v.atoms_[i].editions;
        info.group = v.atoms_[i].group;
        info.variant_of = g.variant_of;
        info.base = v.atoms_[i].id;
        info.synthetic = true;
        v.add_atom(std::move(info));
      }
    }
    if (auto st = doc["structural"]) {
      for (const auto& s : st["ids"]) {
        auto p = parse_projection(s["projection"].as<std::string>());
        if (!p) throw std::runtime_error("bad projection for " + s["id"].as<std::string>());
        v.structural_ids_.emplace(s["id"].as<std::string>(), *p);
      }
      for (const auto& s : st["patterns"]) {
        auto p = parse_projection(s["projection"].as<std::string>());
        if (!p) throw std::runtime_error("bad projection for pattern");
        std::string pattern = s["pattern"].as<std::string>();
        v.patterns_.push_back({std::move(pattern), *p, s["requires"].as<std::string>("")});
      }
    }
    v.finish();
    return v;
  } catch (const std::exception& e) {
    error = std::string("selectors vocabulary: ") + e.what();
    return std::nullopt;
  }
}

void Vocabulary::finish() {
  static std::atomic<std::uint64_t> next_serial{1};
  serial_ = next_serial++;
  for (auto& a : atoms_) {
    // A listed name that merely ends like a suffix form (`AbbotAndGardens_Full`) has no
    // base atom of its own; its implications are listed explicitly.
    if (!a.base.empty() && !by_name_.count(a.base)) {
      a.base.clear();
      a.variant_of.reset();
    }
    if (!a.base.empty() && std::find(a.implies.begin(), a.implies.end(), a.base) == a.implies.end())
      a.implies.push_back(a.base);
  }
  // A member of a family implies the family (`River` implies `Rivers_Any`).
  for (std::size_t i = 0; i < atoms_.size(); ++i)
    for (const auto& member : atoms_[i].any_of) {
      auto it = by_name_.find(member);
      if (it == by_name_.end()) throw std::runtime_error("any_of names unknown atom '" + member + "'");
      atoms_[it->second].implies.push_back(atoms_[i].id);
    }
  for (const auto& a : atoms_)
    for (const auto& target : a.implies)
      if (!by_name_.count(target)) throw std::runtime_error("'" + a.id + "' implies unknown atom '" + target + "'");
  // A complement is of plain atoms: evaluation then never loops.
  for (const auto& a : atoms_)
    for (const auto& other : a.none_of) {
      auto it = by_name_.find(other);
      if (it == by_name_.end()) throw std::runtime_error("'" + a.id + "' none_of names unknown atom '" + other + "'");
      if (!atoms_[it->second].none_of.empty())
        throw std::runtime_error("'" + a.id + "' none_of names '" + other + "', itself a complement");
    }
  names_by_length_.assign(by_name_.begin(), by_name_.end());
  std::stable_sort(names_by_length_.begin(), names_by_length_.end(),
                   [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
}

const Vocabulary& Vocabulary::builtin() {
  static const Vocabulary v = [] {
    auto bytes = support::embedded_file("selectors.yaml");
    if (!bytes) throw std::logic_error("schema/selectors.yaml is not embedded");
    std::string error;
    auto loaded = from_yaml(*bytes, error);
    if (!loaded) throw std::logic_error(error);
    return std::move(*loaded);
  }();
  return v;
}

const AtomInfo* Vocabulary::find_atom(std::string_view id) const {
  auto it = by_name_.find(id);
  return it == by_name_.end() ? nullptr : &atoms_[it->second];
}

std::vector<const AtomInfo*> Vocabulary::declared_atoms() const {
  std::vector<const AtomInfo*> out;
  for (std::size_t i = 0; i < declared_count_; ++i) out.push_back(&atoms_[i]);
  return out;
}

std::vector<std::pair<std::size_t, const AtomInfo*>> Vocabulary::atoms_at(std::string_view text) const {
  std::vector<std::pair<std::size_t, const AtomInfo*>> out;
  for (const auto& [name, index] : names_by_length_)
    if (text.starts_with(name)) out.emplace_back(name.size(), &atoms_[index]);
  return out;
}

std::optional<Projection> Vocabulary::structural(std::string_view class_name) const {
  if (auto it = structural_ids_.find(class_name); it != structural_ids_.end()) return it->second;
  for (const auto& p : patterns_)
    if (glob_match(p.pattern, class_name)) return p.projection;
  return std::nullopt;
}

std::string Vocabulary::structural_requirement(std::string_view class_name) const {
  if (structural_ids_.count(class_name)) return {};
  for (const auto& p : patterns_)
    if (glob_match(p.pattern, class_name)) return p.requires_class;
  return {};
}

bool Vocabulary::is_mark(std::string_view class_name) const {
  return std::find(marks_.begin(), marks_.end(), class_name) != marks_.end();
}

std::vector<std::string> Vocabulary::closest_ids(std::string_view class_name, std::size_t n) const {
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const auto& [name, index] : by_name_)
    if (!atoms_[index].synthetic) {
      std::string candidate = "show" + name;
      scored.emplace_back(edit_distance(class_name, candidate), std::move(candidate));
    }
  for (const auto& [name, projection] : structural_ids_) scored.emplace_back(edit_distance(class_name, name), name);
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (std::size_t i = 0; i < scored.size() && i < n; ++i) out.push_back(scored[i].second);
  return out;
}

// Every node's path condition is checked term by term, and pages repeat the same few
// hundred terms: the answers are kept per thread and vocabulary (bounded), keyed by
// the term's text, so the implication closure is computed once per term and edition.
bool Vocabulary::term_satisfiable(const Term& t, Edition e) const {
  struct Memo {
    std::uint64_t vocabulary = 0;  ///< serial()
    std::unordered_map<std::string, std::uint8_t> answers;  ///< bit e: known, bit e+3: satisfiable
  };
  thread_local Memo memo;
  if (memo.vocabulary != serial_ || memo.answers.size() >= 8192) {
    memo.answers.clear();
    memo.vocabulary = serial_;
  }
  thread_local std::string key;  // reused: most lookups then allocate nothing
  key.clear();
  for (const auto& l : t) {
    if (l.negated) key += '!';
    key += l.atom;
    key += '&';
  }
  auto found = memo.answers.find(key);
  if (found == memo.answers.end()) found = memo.answers.emplace(key, 0).first;
  std::uint8_t& bits = found->second;
  auto bit = static_cast<unsigned>(e);
  if (!(bits & (1u << bit))) {
    bits = static_cast<std::uint8_t>(bits | (1u << bit));
    if (compute_term_satisfiable(t, e)) bits = static_cast<std::uint8_t>(bits | (1u << (bit + 3)));
  }
  return bits & (1u << (bit + 3));
}

bool Vocabulary::compute_term_satisfiable(const Term& t, Edition e) const {
  std::set<std::string, std::less<>> closure;
  std::deque<std::string> queue;
  for (const auto& l : t) {
    const AtomInfo* info = find_atom(l.atom);
    if (info && info->kind == AtomKind::edition) {
      if (contains(info->editions, e) == l.negated) return false;
      continue;
    }
    if (!l.negated && closure.insert(l.atom).second) queue.push_back(l.atom);
  }
  while (!queue.empty()) {
    const AtomInfo* info = find_atom(queue.front());
    queue.pop_front();
    if (!info) continue;
    for (const auto& target : info->implies)
      if (closure.insert(target).second) queue.push_back(target);
  }
  for (const auto& l : t)
    if (l.negated && closure.count(l.atom)) return false;
  // The two rule variants of one expansion exclude each other.
  std::map<std::string, Edition, std::less<>> variant_by_base;
  for (const auto& id : closure) {
    const AtomInfo* info = find_atom(id);
    if (!info || !info->variant_of) continue;
    auto [it, fresh] = variant_by_base.emplace(info->base, *info->variant_of);
    if (!fresh && it->second != *info->variant_of) return false;
  }
  return true;
}

std::uint64_t Vocabulary::cached_answers(const Condition& c) const {
  std::uint64_t tag = serial_ << 8;
  std::uint64_t cached = c.rep_->satisfiable.load(std::memory_order_relaxed);
  return (cached >> 8) << 8 == tag ? cached : tag;
}

// Text runs, notes and every node's path ask this of the same few conditions over and
// over, so the answer is kept on the condition's shared terms, tagged with this
// vocabulary's serial (another vocabulary's answer is simply recomputed).
bool Vocabulary::satisfiable_under(const Condition& c, Edition e) const {
  if (c.overflowed()) return true;
  auto compute = [&] {
    return std::any_of(c.terms().begin(), c.terms().end(), [&](const Term& t) { return term_satisfiable(t, e); });
  };
  if (!c.rep_) return true;  // `true`: its one empty term needs nothing
  auto bit = static_cast<unsigned>(e);
  std::uint64_t cached = cached_answers(c);
  if (cached & (1u << bit)) return cached & (1u << (bit + 3));
  bool answer = compute();
  cached |= (1u << bit) | (answer ? 1u << (bit + 3) : 0u);
  c.rep_->satisfiable.store(cached, std::memory_order_relaxed);
  return answer;
}

// satisfiable_editions() before all three answers are cached.
unsigned Vocabulary::satisfiable_editions_computed(const Condition& c) const {
  unsigned editions = 0;
  for (Edition e : kEditions)
    if (satisfiable_under(c, e)) editions |= 1u << static_cast<unsigned>(e);
  return editions;
}

bool Vocabulary::satisfiable(const Condition& c) const {
  return std::any_of(kEditions.begin(), kEditions.end(), [&](Edition e) { return satisfiable_under(c, e); });
}

bool Vocabulary::implies(const Condition& a, const Condition& b) const {
  Condition counter = conjoin(a, negate(b));
  if (counter.overflowed()) return false;
  return !satisfiable(counter);
}

Condition Vocabulary::simplify(const Condition& c) const {
  if (c.overflowed()) return c;
  auto satisfiable_term = [&](const Term& t) {
    return std::any_of(kEditions.begin(), kEditions.end(), [&](Edition e) { return term_satisfiable(t, e); });
  };
  // Usually nothing is dropped, and a canonical condition canonicalises to itself. Whether
  // that is so is kept with satisfiable_under's answers (bit 6 known, bit 7 the answer).
  if (!c.rep_) return c;
  std::uint64_t cached = cached_answers(c);
  if (!(cached & (1u << 6))) {
    bool all = std::all_of(c.terms().begin(), c.terms().end(), satisfiable_term);
    cached |= (1u << 6) | (all ? 1u << 7 : 0u);
    c.rep_->satisfiable.store(cached, std::memory_order_relaxed);
  }
  if (cached & (1u << 7)) return c;
  std::vector<Term> kept;
  for (const auto& t : c.terms())
    if (satisfiable_term(t)) kept.push_back(t);
  return Condition::from_terms(std::move(kept));
}

Evaluator::Evaluator(const Vocabulary& vocabulary, const Selection& selection)
    : vocabulary_(vocabulary), selection_(selection) {
  std::deque<std::string> queue;
  auto add = [&](const std::string& id) {
    if (closure_.insert(id).second) queue.push_back(id);
  };
  auto close = [&] {
    while (!queue.empty()) {
      const AtomInfo* info = vocabulary_.find_atom(queue.front());
      queue.pop_front();
      if (!info) continue;
      for (const auto& target : info->implies) add(target);
    }
  };
  std::set<std::string, std::less<>> explicit_bases_with_variant;
  for (const auto& name : selection_.expansions) {
    const AtomInfo* info = vocabulary_.find_atom(name);
    add(info ? info->id : name);
    if (info && info->variant_of) explicit_bases_with_variant.insert(info->base);
  }
  close();
  // Selecting only the base expansion gets the rule variant of the preferred edition.
  Edition variant = variant_for(selection_.edition);
  std::vector<std::string> defaults;
  for (const auto& atom : vocabulary_.atoms_)
    if (atom.variant_of == variant && closure_.count(atom.base) && !explicit_bases_with_variant.count(atom.base))
      defaults.push_back(atom.id);
  for (const auto& id : defaults) add(id);
  close();
}

bool Evaluator::atom_value(std::string_view atom) const {
  const AtomInfo* info = vocabulary_.find_atom(atom);
  if (!info) return selection_.expansions.count(atom) > 0;
  switch (info->kind) {
  case AtomKind::edition: return contains(info->editions, selection_.edition);
  case AtomKind::setting: return selection_.mark_adaptations || closure_.count(info->id) > 0;
  case AtomKind::expansion: break;
  }
  if (closure_.count(info->id)) return true;
  if (!info->none_of.empty())
    return std::none_of(info->none_of.begin(), info->none_of.end(), [&](const std::string& a) { return atom_value(a); });
  if (!selection_.all_expansions) return false;
  if (info->variant_of) return *info->variant_of == variant_for(selection_.edition);
  return true;
}

bool Evaluator::operator()(const Condition& c) const {
  return std::any_of(c.terms().begin(), c.terms().end(), [&](const Term& t) {
    return std::all_of(t.begin(), t.end(), [&](const Literal& l) { return atom_value(l.atom) != l.negated; });
  });
}

bool evaluate(const Condition& c, const Selection& s, const Vocabulary& v) { return Evaluator(v, s)(c); }

}  // namespace wikic::select
