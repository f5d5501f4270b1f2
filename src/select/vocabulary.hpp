// The Expansion Selector vocabulary (schema/selectors.yaml) and everything that needs
// to know what an atom means: evaluation against a reader's selection, satisfiability
// under the edition and implication constraints, and implication between conditions.
#pragma once
#include <cstdint>
#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "select/condition.hpp"

namespace wikic::select {

/// The reader's preferred edition (seed 004: exactly one of three).
enum class Edition { C1, C2, WE };
inline constexpr std::array<Edition, 3> kEditions{Edition::C1, Edition::C2, Edition::WE};
const char* to_string(Edition e);
std::optional<Edition> parse_edition(std::string_view text);

enum class AtomKind {
  expansion,  ///< an expansion, an expansion part, or an id derived from them
  edition,    ///< true as a function of the preferred edition (C1, C2_Graphics, …)
  setting,    ///< a reader option (Mark)
};

struct AtomInfo {
  std::string id;                  ///< canonical name, without `show`
  std::string label;
  AtomKind kind = AtomKind::expansion;
  std::vector<Edition> editions;   ///< expansion: exists in; edition atom: true under
  std::string group;
  std::vector<std::string> implies;     ///< direct implications (includes any_of reversed)
  std::vector<std::string> any_of;
  /// Holds exactly when none of these does (SquareTiles: no OtherTiles); evaluation only.
  std::vector<std::string> none_of;
  std::optional<Edition> variant_of;    ///< `_ForC1`/`_ForC2` forms
  std::string base;                     ///< the atom a suffix form was built on
  bool synthetic = false;               ///< a suffix form not listed in the schema
};

/// What the offline Expansion Selector does with a structural id.
enum class Projection { show, hide, computed };

/// How several show* classes on one element combine.
enum class ClassCombination { all, any };
/// n-ary XOR in dynamic selectors.
enum class XorMode { exactly_one, parity };

/// What a reader chose in the Expansion Selector.
struct Selection {
  Edition edition = Edition::C2;
  std::set<std::string, std::less<>> expansions;  ///< atom ids (aliases allowed)
  bool all_expansions = false;
  bool mark_adaptations = false;
};

class Vocabulary {
public:
  /// The vocabulary embedded from schema/selectors.yaml; throws std::logic_error if the
  /// embedded data is missing or broken (a build defect, not an input error).
  static const Vocabulary& builtin();
  /// Loads a vocabulary from YAML text; nullopt and `error` set when it does not load.
  static std::optional<Vocabulary> from_yaml(std::string_view text, std::string& error);

  int version() const { return version_; }
  /// Distinct for every loaded vocabulary (copies share it): the key of the memos that
  /// depend on what a vocabulary says, never reused the way an address can be.
  std::uint64_t serial() const { return serial_; }
  ClassCombination class_combination() const { return combination_; }
  void set_class_combination(ClassCombination c) { combination_ = c; }
  XorMode xor_mode() const { return xor_mode_; }
  Edition default_edition() const { return default_edition_; }

  /// Atom by canonical id or alias, including suffix forms of known atoms.
  const AtomInfo* find_atom(std::string_view id) const;
  /// Atoms declared in the schema (no synthetic suffix forms), in schema order.
  std::vector<const AtomInfo*> declared_atoms() const;
  /// Every name (id or alias) that is a prefix of `text`, longest first, with the
  /// canonical id it stands for. Used to split compound class names.
  std::vector<std::pair<std::size_t, const AtomInfo*>> atoms_at(std::string_view text) const;
  /// Projection of a structural class (`showAll`, `showStep1A_Empty`, `hideWhenDone`).
  std::optional<Projection> structural(std::string_view class_name) const;
  /// The class a structural id needs for the projection to show it (`showMessages` for
  /// `showStep1A_Messages`), or empty.
  std::string structural_requirement(std::string_view class_name) const;
  std::size_t structural_id_count() const { return structural_ids_.size(); }
  std::size_t structural_pattern_count() const { return patterns_.size(); }
  bool is_mark(std::string_view class_name) const;
  /// Up to `n` known class names nearest to `class_name` by edit distance.
  std::vector<std::string> closest_ids(std::string_view class_name, std::size_t n = 3) const;

  /// True when some preferred edition and some choice of expansions make `c` true.
  bool satisfiable(const Condition& c) const;
  bool satisfiable_under(const Condition& c, Edition e) const;
  /// satisfiable_under for every edition at once: bit e set when `c` is satisfiable
  /// under edition e. Extraction asks it of every text run; once the three answers are
  /// cached on the condition's shared terms (see satisfiable_under), which happens the
  /// first time any page meets the condition, it is one load and compare, inline.
  unsigned satisfiable_editions(const Condition& c) const {
    if (!c.rep_) return 0b111;  // `true`, and overflowed conditions: no restriction
    std::uint64_t cached = c.rep_->satisfiable.load(std::memory_order_relaxed);
    if ((cached >> 8) == serial_ && (cached & 0b111) == 0b111) return static_cast<unsigned>(cached >> 3) & 0b111;
    return satisfiable_editions_computed(c);
  }
  /// Whenever `a` holds, `b` holds (false when undecidable within the DNF bound).
  bool implies(const Condition& a, const Condition& b) const;
  /// Drops the terms no selection can satisfy (e.g. `C1 & C2`), then re-canonicalises.
  Condition simplify(const Condition& c) const;

private:
  friend class Evaluator;
  bool term_satisfiable(const Term& t, Edition e) const;
  bool compute_term_satisfiable(const Term& t, Edition e) const;
  unsigned satisfiable_editions_computed(const Condition& c) const;
  /// The answers cached on `c`'s shared terms (satisfiable_under, simplify) if this
  /// vocabulary wrote them, else none yet: the word tagged with this vocabulary's serial.
  std::uint64_t cached_answers(const Condition& c) const;
  void add_atom(AtomInfo info);
  void finish();

  int version_ = 0;
  std::uint64_t serial_ = 0;
  ClassCombination combination_ = ClassCombination::all;
  XorMode xor_mode_ = XorMode::exactly_one;
  Edition default_edition_ = Edition::C2;
  std::vector<AtomInfo> atoms_;                         ///< index = atom number
  std::size_t declared_count_ = 0;
  std::map<std::string, std::size_t, std::less<>> by_name_;  ///< ids and aliases
  std::vector<std::pair<std::string, std::size_t>> names_by_length_;
  std::map<std::string, Projection, std::less<>> structural_ids_;
  struct Pattern {
    std::string pattern;
    Projection projection;
    std::string requires_class;
  };
  std::vector<Pattern> patterns_;
  std::vector<std::string> marks_;
};

/// Evaluates conditions for one selection; built once per projection.
class Evaluator {
public:
  Evaluator(const Vocabulary& vocabulary, const Selection& selection);
  bool atom_value(std::string_view atom) const;
  bool operator()(const Condition& c) const;

private:
  const Vocabulary& vocabulary_;
  Selection selection_;
  std::set<std::string, std::less<>> closure_;  ///< selected atoms and all they imply
};

/// Shorthand for a single evaluation.
bool evaluate(const Condition& c, const Selection& s, const Vocabulary& v = Vocabulary::builtin());

}  // namespace wikic::select
