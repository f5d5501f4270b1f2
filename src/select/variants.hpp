// Per-edition wording of a text run: "followermeeple" written as a showC1 span and a
// showC2 span reads "follower" to a C1 reader and "meeple" to C2 and WE readers. The
// rule database stores these variants instead of the concatenation.
#pragma once
#include <string>
#include <vector>

#include "select/condition.hpp"
#include "select/vocabulary.hpp"

namespace wikic::select {

/// A piece of text and the condition under which it is visible.
struct TextRun {
  std::string text;
  Condition condition;
};

struct EditionVariants {
  std::string c1, c2, we;
  const std::string& operator[](Edition e) const;
  /// All three editions read the same.
  bool uniform() const { return c1 == c2 && c2 == we; }
};

/// For each preferred edition, the concatenation of the runs some selection of
/// expansions can show under it (expansions stay open: only the edition is fixed).
EditionVariants text_variants(const std::vector<TextRun>& runs, const Vocabulary& v = Vocabulary::builtin());

}  // namespace wikic::select
