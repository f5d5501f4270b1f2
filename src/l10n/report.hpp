// The translation report's files: per language `<lang>.yaml`/`.xml`/`.json`, the
// `summary.yaml` (with the definition hashes a later `--previous` run reads) and the
// static `index.html` dashboard. Built from one JSON-shaped document so the three formats
// cannot drift apart; every file is a pure function of the report (no clock, no paths
// beyond what the export names), so two runs write identical bytes.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "l10n/translations.hpp"

namespace wikic::l10n {

/// (file name, content) of every output, in a fixed order.
std::vector<std::pair<std::string, std::string>> render_report(const Report& report);

/// The dashboard alone (also part of render_report).
std::string render_html(const Report& report);

}  // namespace wikic::l10n
