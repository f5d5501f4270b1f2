// Condition algebra. Every result goes through canonicalise(): contradictory terms are
// dropped, absorbed terms removed and consensus terms added until the set of prime
// implicants is reached; that fixpoint is what makes equal functions print equal.
#include "select/condition.hpp"

#include "select/probe_table.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>

#include <boost/container/small_vector.hpp>

namespace wikic::select {

namespace {

// Sorts a term and removes duplicates; false when it holds an atom and its negation.
bool normalise_term(Term& t) {
  std::sort(t.begin(), t.end());
  t.erase(std::unique(t.begin(), t.end()), t.end());
  // After dedup, an atom seen twice occurs with both polarities.
  // On the stack: terms hold a few literals, and this runs for every term built.
  boost::container::small_vector<std::string_view, 8> names;
  for (const auto& l : t) names.push_back(l.atom);
  std::sort(names.begin(), names.end());
  return std::adjacent_find(names.begin(), names.end()) == names.end();
}

bool subsumes(const Term& general, const Term& specific) {
  return std::includes(specific.begin(), specific.end(), general.begin(), general.end());
}

// Keeps only terms not implied by a shorter (or equal, earlier) one.
void absorb(std::vector<Term>& terms) {
  std::sort(terms.begin(), terms.end(), [](const Term& a, const Term& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
  });
  terms.erase(std::unique(terms.begin(), terms.end()), terms.end());
  std::vector<Term> kept;
  for (auto& t : terms) {
    bool absorbed = std::any_of(kept.begin(), kept.end(), [&](const Term& k) { return subsumes(k, t); });
    if (!absorbed) kept.push_back(std::move(t));
  }
  terms = std::move(kept);
}

// The consensus of two terms that clash on exactly one atom, if any.
bool consensus(const Term& a, const Term& b, Term& out) {
  const std::string* clash = nullptr;
  for (const auto& la : a)
    for (const auto& lb : b)
      if (la.atom == lb.atom && la.negated != lb.negated) {
        if (clash) return false;
        clash = &la.atom;
      }
  if (!clash) return false;
  out.clear();
  for (const auto& l : a)
    if (l.atom != *clash) out.push_back(l);
  for (const auto& l : b)
    if (l.atom != *clash) out.push_back(l);
  return normalise_term(out);
}

// Pair checks allowed per canonicalisation; with kMaxDnfTerms terms a full pass is
// ~32k checks, so this allows a few dozen passes and guarantees termination in
// milliseconds on any input.
constexpr std::size_t kMaxConsensusChecks = 1'000'000;

// Returns false when a bound was exceeded.
bool canonicalise(std::vector<Term>& terms) {
  std::vector<Term> clean;
  for (auto& t : terms)
    if (normalise_term(t)) clean.push_back(std::move(t));
  terms = std::move(clean);
  absorb(terms);
  if (terms.size() > kMaxDnfTerms) return false;
  // Consensus passes: add every new resolvent not already implied, absorb, repeat until
  // nothing is new. The fixpoint is the set of all prime implicants.
  std::size_t checks = 0;
  while (true) {
    std::vector<Term> fresh;
    for (std::size_t i = 0; i < terms.size(); ++i)
      for (std::size_t j = i + 1; j < terms.size(); ++j) {
        if (++checks > kMaxConsensusChecks) return false;
        Term r;
        if (!consensus(terms[i], terms[j], r)) continue;
        auto implied = [&](const Term& k) { return subsumes(k, r); };
        if (std::any_of(terms.begin(), terms.end(), implied) || std::any_of(fresh.begin(), fresh.end(), implied))
          continue;
        fresh.push_back(std::move(r));
        if (terms.size() + fresh.size() > 4 * kMaxDnfTerms) return false;
      }
    if (fresh.empty()) break;
    for (auto& f : fresh) terms.push_back(std::move(f));
    absorb(terms);
    if (terms.size() > kMaxDnfTerms) return false;
  }
  // Final order: lexicographic by literals, so `Castles | Robbers | Teacher`.
  std::sort(terms.begin(), terms.end());
  return true;
}

}  // namespace

Condition overflow_condition() {
  Condition c;
  c.overflowed_ = true;
  return c;
}

Condition::Condition(std::vector<Term> terms) : rep_(support::SharedConst<Rep>::make(std::move(terms))) {}

Condition Condition::always() { return Condition(); }

Condition Condition::never() {
  static const Condition c{std::vector<Term>{}};
  return c;
}

Condition Condition::atom(std::string name, bool negated) {
  return Condition(std::vector<Term>{Term{Literal{std::move(name), negated}}});
}

Condition Condition::from_terms(std::vector<Term> terms) {
  if (terms.size() > kMaxDnfTerms * kMaxDnfTerms) return overflow_condition();
  if (!canonicalise(terms)) return overflow_condition();
  if (terms.size() == 1 && terms.front().empty()) return Condition();
  return Condition(std::move(terms));
}

std::vector<std::string> Condition::atoms() const {
  std::vector<std::string> out;
  std::size_t literals = 0;
  for (const auto& t : terms()) literals += t.size();
  out.reserve(literals);  // extraction asks this of every rule: one allocation, not a regrowth per atom
  for (const auto& t : terms())
    for (const auto& l : t) out.push_back(l.atom);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// The product of two conditions, canonicalised.
static Condition conjoin_terms(const Condition& a, const Condition& b) {
  if (a.terms().size() * b.terms().size() > kMaxDnfTerms * 4) return overflow_condition();
  std::vector<Term> product;
  product.reserve(a.terms().size() * b.terms().size());
  for (const auto& ta : a.terms())
    for (const auto& tb : b.terms()) {
      Term t;
      t.reserve(ta.size() + tb.size());
      t.insert(t.end(), ta.begin(), ta.end());
      t.insert(t.end(), tb.begin(), tb.end());
      product.push_back(std::move(t));
    }
  return Condition::from_terms(std::move(product));
}

// conjoin()'s answers that need no product: the operand that is the answer, or nullptr
// when the product is needed (an overflowed operand makes `overflowed` true instead).
// Pointers, not a copy: the caller copies the answer once.
static const Condition* conjoin_shortcut(const Condition& a, const Condition& b, bool& overflowed) {
  if (a.overflowed() || b.overflowed()) {
    overflowed = true;
    return nullptr;
  }
  // Every condition is canonical already and canonicalise() keeps a canonical form as
  // it is, so these shortcuts give what the product would.
  if (a.is_true() || b.is_false() || a.same(b)) return &b;
  if (b.is_true() || a.is_false()) return &a;
  return nullptr;
}

Condition conjoin_once(const Condition& a, const Condition& b) {
  bool overflowed = false;
  if (const Condition* answer = conjoin_shortcut(a, b, overflowed)) return *answer;
  if (overflowed) return overflow_condition();
  return conjoin_terms(a, b);
}

Condition conjoin(const Condition& a, const Condition& b) {
  bool overflowed = false;
  if (const Condition* answer = conjoin_shortcut(a, b, overflowed)) return *answer;
  if (overflowed) return overflow_condition();
  // Pages conjoin the same pairs of (shared) conditions over and over: the product is
  // kept by the pair's identity, so it is computed once and its answers cached on it
  // (Vocabulary::satisfiable_under) are shared too. An entry holds both operands alive,
  // so their identities cannot be reused while it lives. Per thread, bounded; an open
  // addressing table, as select's other per-node memos are (extraction asks it for
  // every element with a class in a rule's cells).
  struct Entry {
    Condition a, b, product;
  };
  thread_local ProbeTable<Entry> memo{16384};
  const void* x = a.identity();
  const void* y = b.identity();
  std::uint64_t hash = mix64(reinterpret_cast<std::uintptr_t>(x) * 0x9E3779B97F4A7C15ull ^ reinterpret_cast<std::uintptr_t>(y));
  if (Entry* hit = memo.find(hash, [&](const Entry& e) { return e.a.identity() == x && e.b.identity() == y; }))
    return hit->product;
  Condition product = conjoin_terms(a, b);
  if (product.overflowed()) return product;
  memo.insert(hash, Entry{a, b, product});
  return product;
}

Condition disjoin(const Condition& a, const Condition& b) {
  if (a.overflowed() || b.overflowed()) return overflow_condition();
  std::vector<Term> all = a.terms();
  all.insert(all.end(), b.terms().begin(), b.terms().end());
  return Condition::from_terms(std::move(all));
}

// De Morgan: the negation of a disjunction of terms is the conjunction, over the terms,
// of the disjunction of their negated literals; `conj` is conjoin or conjoin_once.
static Condition negate_with(const Condition& a, Condition (*conj)(const Condition&, const Condition&)) {
  if (a.overflowed()) return overflow_condition();
  Condition result = Condition::always();
  for (const auto& t : a.terms()) {
    std::vector<Term> alternatives;
    for (const auto& l : t) alternatives.push_back(Term{Literal{l.atom, !l.negated}});
    result = conj(result, Condition::from_terms(std::move(alternatives)));
    if (result.overflowed() || result.is_false()) break;
  }
  return result;
}

Condition negate(const Condition& a) { return negate_with(a, conjoin); }
Condition negate_once(const Condition& a) { return negate_with(a, conjoin_once); }

Condition conjoin_all(const std::vector<Condition>& parts) {
  Condition result;
  for (const auto& p : parts) {
    result = conjoin(result, p);
    if (result.overflowed()) break;
  }
  return result;
}

Condition disjoin_all(const std::vector<Condition>& parts) {
  Condition result = Condition::never();
  for (const auto& p : parts) {
    result = disjoin(result, p);
    if (result.overflowed()) break;
  }
  return result;
}

std::string to_string(const Condition& c) {
  if (c.is_false()) return "false";
  if (c.is_true()) return "true";
  // Sized first: every rule's condition is printed, and growing the string piecewise
  // reallocated it for most of them.
  std::size_t size = 0;  // exactly the printed length, so short ones stay in the string itself
  for (std::size_t i = 0; i < c.terms().size(); ++i) {
    if (i) size += 3;
    const Term& t = c.terms()[i];
    for (std::size_t j = 0; j < t.size(); ++j) size += (j ? 3 : 0) + (t[j].negated ? 1 : 0) + t[j].atom.size();
  }
  std::string out;
  out.reserve(size);
  for (std::size_t i = 0; i < c.terms().size(); ++i) {
    if (i) out += " | ";
    const Term& t = c.terms()[i];
    for (std::size_t j = 0; j < t.size(); ++j) {
      if (j) out += " & ";
      if (t[j].negated) out += '!';
      out += t[j].atom;
    }
  }
  return out;
}

}  // namespace wikic::select
