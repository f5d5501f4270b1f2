// Boolean conditions over Expansion Selector atoms, kept in a canonical DNF: the sorted set
// of all prime implicants (Blake canonical form), so two conditions print the same exactly
// when they are the same boolean function of their atoms. Pure algebra: what an atom means
// (editions, implications) lives in vocabulary.hpp.
#pragma once
#include <atomic>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "support/ref_count.hpp"

namespace wikic::select {

/// Bound on the number of DNF terms any operation may produce. Class names and
/// dynamic selectors on WICA have at most a handful of operands; a bigger form means a
/// runaway input, reported as a diagnostic instead of eating memory.
inline constexpr std::size_t kMaxDnfTerms = 256;

/// An atom (a selector id without the `show` prefix), possibly negated.
struct Literal {
  std::string atom;
  bool negated = false;
  // Positive literals sort before negated ones, each group by name, so a term prints as
  // `Circus & !Acrobats` (the form the issue and the wiki's own class names use).
  friend std::strong_ordering operator<=>(const Literal& a, const Literal& b) {
    if (a.negated != b.negated) return a.negated ? std::strong_ordering::greater : std::strong_ordering::less;
    return a.atom <=> b.atom;
  }
  friend bool operator==(const Literal&, const Literal&) = default;
};

/// A conjunction of literals, sorted, no atom twice.
using Term = std::vector<Literal>;

class Condition {
public:
  /// `true` (the default: no restriction).
  Condition() = default;
  static Condition always();
  static Condition never();
  static Condition atom(std::string name, bool negated = false);
  /// Builds from arbitrary terms and canonicalises.
  static Condition from_terms(std::vector<Term> terms);

  bool is_true() const { return !rep_ || (rep_->terms.size() == 1 && rep_->terms.front().empty()); }
  bool is_false() const { return rep_ && rep_->terms.empty(); }
  /// Set when an operation hit kMaxDnfTerms; the value is then `true` (no restriction),
  /// the one safe answer for "may this be shown".
  bool overflowed() const { return overflowed_; }
  const std::vector<Term>& terms() const { return rep_ ? rep_->terms : true_terms(); }
  /// Every atom mentioned, sorted, once.
  std::vector<std::string> atoms() const;
  /// The same object: copies of one condition share their terms (a cheap identity for
  /// memos that hold the condition alive; equal conditions may still differ here).
  bool same(const Condition& o) const { return rep_ == o.rep_; }
  const void* identity() const { return rep_.get(); }

  friend bool operator==(const Condition& a, const Condition& b) { return a.rep_ == b.rep_ || a.terms() == b.terms(); }

private:
  friend Condition overflow_condition();
  friend class Vocabulary;
  // Conditions are immutable once built and copied along every path of every page, so
  // copies share one set of terms; `true` needs none at all (rep_ empty).
  struct Rep {
    std::vector<Term> terms;
    /// Vocabulary::satisfiable_under's answers for these terms: bits 0-2 known per
    /// edition, bits 3-5 the answers, bits 6-7 simplify's, the vocabulary's serial above
    /// (see there).
    mutable std::atomic<std::uint64_t> satisfiable{0};
  };
  static const std::vector<Term>& true_terms() {
    static const std::vector<Term> terms{Term{}};
    return terms;
  }
  explicit Condition(std::vector<Term> terms);
  support::SharedConst<Rep> rep_;
  bool overflowed_ = false;
};

Condition conjoin(const Condition& a, const Condition& b);
Condition disjoin(const Condition& a, const Condition& b);
Condition negate(const Condition& a);
/// conjoin() and negate() without conjoin's memo of shared pairs, for conditions made
/// once (one rule's alternatives): as memo entries they would crowd out the pairs a whole
/// page shares, since the memo is cleared when full. Same answers.
Condition conjoin_once(const Condition& a, const Condition& b);
Condition negate_once(const Condition& a);
/// Conjunction of a sequence, e.g. every condition on the path from the page root.
Condition conjoin_all(const std::vector<Condition>& parts);
Condition disjoin_all(const std::vector<Condition>& parts);

/// Canonical text: `CountOfCarcassonne & !MarketsOfLeipzig`, `Castles | Robbers`,
/// `true`, `false`.
std::string to_string(const Condition& c);

}  // namespace wikic::select
