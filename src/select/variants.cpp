// Text variants per edition: a run belongs to an edition's reading when its condition is
// satisfiable with that preferred edition, so edition-only spans pick the wording while
// expansion conditions do not drop text from any reading.
#include "select/variants.hpp"

namespace wikic::select {

const std::string& EditionVariants::operator[](Edition e) const {
  switch (e) {
  case Edition::C1: return c1;
  case Edition::C2: return c2;
  case Edition::WE: return we;
  }
  return c2;
}

EditionVariants text_variants(const std::vector<TextRun>& runs, const Vocabulary& v) {
  EditionVariants out;
  for (const auto& run : runs) {
    if (v.satisfiable_under(run.condition, Edition::C1)) out.c1 += run.text;
    if (v.satisfiable_under(run.condition, Edition::C2)) out.c2 += run.text;
    if (v.satisfiable_under(run.condition, Edition::WE)) out.we += run.text;
  }
  return out;
}

}  // namespace wikic::select
