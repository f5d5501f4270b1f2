// Source-page reading after the Translate extension's TranslatablePageParser (2020.08+):
// <nowiki> is armoured first, each <translate>…</translate> region (non-greedy, no
// nesting) is split into units at runs of whitespace holding an empty line, and a unit's
// marker is accepted at its start (followed by a space or newline) or at a line end
// (headings: `== Title == <!--T:1-->`). Translate refuses to mark a page with nested tags,
// two markers in one unit or a marker elsewhere; wikic reports those and reads on.
#include "l10n/source_page.hpp"

#include <algorithm>
#include <map>

namespace wikic::l10n {
namespace {

// PHP's \s in preg (no /u): space, \t, \n, \v, \f, \r.
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

struct Armour {
  std::vector<std::pair<std::size_t, std::size_t>> spans;  ///< <nowiki>…</nowiki>, sorted
  bool inside(std::size_t at) const {
    for (const auto& [b, e] : spans)
      if (at >= b && at < e) return true;
    return false;
  }
};

Armour armour_nowiki(std::string_view text) {
  Armour a;
  std::size_t at = 0;
  while ((at = text.find("<nowiki>", at)) != std::string_view::npos) {
    std::size_t close = text.find("</nowiki>", at + 8);
    if (close == std::string_view::npos) break;  // Translate's regex needs the closing tag too
    a.spans.emplace_back(at, close + 9);
    at = close + 9;
  }
  return a;
}

std::size_t find_outside(std::string_view text, std::string_view needle, std::size_t from, const Armour& armour) {
  while ((from = text.find(needle, from)) != std::string_view::npos) {
    if (!armour.inside(from)) return from;
    ++from;
  }
  return std::string_view::npos;
}

/// `<translate>` or `<translate nowrap>` at `at`: the tag's length, else 0.
std::size_t open_tag_length(std::string_view text, std::size_t at) {
  for (std::string_view tag : {std::string_view("<translate>"), std::string_view("<translate nowrap>")})
    if (text.substr(at, tag.size()) == tag) return tag.size();
  return 0;
}

std::size_t find_open(std::string_view text, std::size_t from, std::size_t until, const Armour& armour,
                      std::size_t* length) {
  while ((from = find_outside(text, "<translate", from, armour)) != std::string_view::npos && from < until) {
    if (std::size_t n = open_tag_length(text, from)) {
      *length = n;
      return from;
    }
    ++from;
  }
  return std::string_view::npos;
}

struct MarkerMatch {
  std::size_t begin, end;  ///< the whole `<!--T:id-->`
  std::string id;
};

std::vector<MarkerMatch> find_markers(std::string_view text, std::size_t begin, std::size_t end) {
  std::vector<MarkerMatch> out;
  std::size_t at = begin;
  while ((at = text.find("<!--T:", at)) != std::string_view::npos && at < end) {
    std::size_t close = text.find("-->", at + 6);
    if (close == std::string_view::npos || close + 3 > end) break;
    out.push_back({at, close + 3, std::string(text.substr(at + 6, close - at - 6))});
    at = close + 3;
  }
  return out;
}

}  // namespace

std::size_t SourcePage::find(std::string_view id) const {
  for (std::size_t i = 0; i < units.size(); ++i)
    if (units[i].id == id) return i;
  return static_cast<std::size_t>(-1);
}

std::vector<Tvar> find_tvars(std::string_view text, std::string* definition, std::string* rendered) {
  std::vector<Tvar> out;
  std::string def, ren;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t open = text.find("<tvar", at);
    if (open == std::string_view::npos) break;
    def.append(text.substr(at, open - at));
    ren.append(text.substr(at, open - at));
    Tvar tvar;
    std::size_t after = std::string_view::npos;
    std::size_t gt = text.find('>', open);
    if (gt != std::string_view::npos && open + 5 < text.size() && text[open + 5] == '|') {
      // The old syntax `<tvar|name>value</>` (Translate before 2021.07).
      std::size_t close = text.find("</>", gt);
      if (close != std::string_view::npos) {
        tvar.name = std::string(text.substr(open + 6, gt - open - 6));
        tvar.value = std::string(text.substr(gt + 1, close - gt - 1));
        tvar.old_syntax = true;
        after = close + 3;
      }
    } else if (gt != std::string_view::npos && open + 5 < text.size() && is_space(text[open + 5])) {
      // `<tvar name=x>value</tvar>`, the name quoted or not.
      std::string_view attrs = text.substr(open + 5, gt - open - 5);
      std::size_t n = attrs.find("name");
      std::size_t close = text.find("</tvar>", gt);
      if (n != std::string_view::npos && close != std::string_view::npos) {
        std::size_t v = attrs.find('=', n);
        if (v != std::string_view::npos) {
          ++v;
          while (v < attrs.size() && is_space(attrs[v])) ++v;
          char quote = v < attrs.size() && (attrs[v] == '"' || attrs[v] == '\'') ? attrs[v] : 0;
          if (quote) ++v;
          std::size_t e = v;
          while (e < attrs.size() && (quote ? attrs[e] != quote : !is_space(attrs[e]) && attrs[e] != '/')) ++e;
          tvar.name = std::string(attrs.substr(v, e - v));
          tvar.value = std::string(text.substr(gt + 1, close - gt - 1));
          after = close + 7;
        }
      }
    }
    if (after == std::string_view::npos || tvar.name.empty()) {
      // Not a tvar after all: keep the text as it is.
      def += '<';
      ren += '<';
      at = open + 1;
      continue;
    }
    def += "$" + tvar.name;
    ren += tvar.value;
    out.push_back(std::move(tvar));
    at = after;
  }
  if (at < text.size()) {
    def.append(text.substr(at));
    ren.append(text.substr(at));
  }
  if (definition) *definition = std::move(def);
  if (rendered) *rendered = std::move(ren);
  return out;
}

std::string substitute_tvars(std::string_view translation, const std::vector<Tvar>& tvars) {
  std::string out(translation);
  // Longest names first, so `$10` is not read as `$1` followed by "0".
  std::vector<const Tvar*> order;
  for (const auto& t : tvars) order.push_back(&t);
  std::stable_sort(order.begin(), order.end(), [](const Tvar* a, const Tvar* b) { return a->name.size() > b->name.size(); });
  for (const Tvar* t : order) {
    std::string key = "$" + t->name;
    std::size_t at = 0;
    while ((at = out.find(key, at)) != std::string::npos) {
      out.replace(at, key.size(), t->value);
      at += t->value.size();
    }
  }
  return out;
}

SourcePage parse_source_page(std::string_view title, std::string_view text, const std::string& file,
                             support::DiagnosticSink& sink) {
  SourcePage page;
  page.title = std::string(title);
  support::LineIndex lines(text);
  const std::string where = file + "#" + page.title;
  auto report = [&](std::string kind, std::string unit, std::size_t offset, std::string message,
                    std::vector<std::uint32_t> finding_lines = {}) {
    support::Position at = lines.position(offset);
    sink.warning(where, at, message);
    if (finding_lines.empty()) finding_lines.push_back(at.line);
    page.findings.push_back({std::move(kind), std::move(unit), at, std::move(message), std::move(finding_lines)});
  };

  // The title is a unit of its own (Translate's "Page display title"), translated like
  // any other; it has no slot in the page text.
  TranslationUnit title_unit;
  title_unit.id = std::string(kDisplayTitleUnit);
  title_unit.text = title_unit.definition = title_unit.rendered = page.title;
  title_unit.is_title = true;
  page.units.push_back(std::move(title_unit));

  Armour armour = armour_nowiki(text);
  page.has_languages_tag = find_outside(text, "<languages/>", 0, armour) != std::string_view::npos ||
                           find_outside(text, "<languages />", 0, armour) != std::string_view::npos;

  std::string literal;
  auto flush_literal = [&] {
    if (literal.empty()) return;
    if (!page.pieces.empty() && !page.pieces.back().is_unit) page.pieces.back().literal += literal;
    else page.pieces.push_back({false, literal, 0});
    literal.clear();
  };
  std::map<std::string, std::size_t> first_with_id;

  auto add_unit = [&](std::size_t ub, std::size_t ue, bool inline_unit) {
    TranslationUnit unit;
    unit.inline_unit = inline_unit;
    unit.at = lines.position(ub);
    unit.last_line = lines.position(ue > ub ? ue - 1 : ub).line;
    auto markers = find_markers(text, ub, ue);
    if (markers.size() > 1)
      report("marker-multiple", markers.front().id, markers[1].begin,
             "unit has " + std::to_string(markers.size()) +
                 " markers; Translate splits units at empty lines only, so one is probably missing here");
    // Keep the text between the markers Translate removes: at the unit's start with the
    // space or newline after it, and at a line end with the whitespace before it.
    std::string body;
    std::size_t at = ub;
    for (const auto& m : markers) {
      std::size_t cut_begin = m.begin, cut_end = m.end;
      bool at_start = m.begin == ub && m.end < ue && (text[m.end] == ' ' || text[m.end] == '\n');
      bool at_line_end = m.end == ue || text[m.end] == '\n';
      if (at_start) {
        cut_end = m.end + 1;
      } else if (at_line_end) {
        while (cut_begin > at && is_space(text[cut_begin - 1])) --cut_begin;
        unit.heading_marker = cut_begin > ub && text[cut_begin - 1] == '=';
      } else if (m.begin == ub && m.end == ue) {
        // A unit of a marker only: Translate's pt-shake-empty.
      } else {
        report("marker-position", m.id, m.begin,
               "unit marker <!--T:" + m.id + "--> is neither at the unit's start nor at a line end");
      }
      body.append(text.substr(at, cut_begin - at));
      at = cut_end;
    }
    body.append(text.substr(at, ue - at));
    if (!markers.empty()) unit.id = markers.front().id;
    if (unit.id.empty()) {
      report("marker-missing", "", ub, "translation unit has no <!--T:n--> marker (not marked for translation)",
             {unit.at.line, unit.last_line});
    } else if (auto it = first_with_id.find(unit.id); it != first_with_id.end()) {
      report("marker-duplicated", unit.id, markers.front().begin,
             "unit marker T:" + unit.id + " is used again (first on line " +
                 std::to_string(page.units[it->second].at.line) + ")",
             {page.units[it->second].at.line, lines.position(markers.front().begin).line});
    } else {
      first_with_id.emplace(unit.id, page.units.size());
    }
    unit.text = std::move(body);
    unit.tvars = find_tvars(unit.text, &unit.definition, &unit.rendered);
    flush_literal();
    page.pieces.push_back({true, {}, page.units.size()});
    page.units.push_back(std::move(unit));
  };

  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t open_len = 0;
    std::size_t open = find_open(text, pos, text.size(), armour, &open_len);
    if (open == std::string_view::npos) break;
    std::size_t cb = open + open_len;
    std::size_t close = find_outside(text, "</translate>", cb, armour);
    literal.append(text.substr(pos, open - pos));
    if (close == std::string_view::npos) {
      report("translate-unclosed", "", open, "<translate> is never closed (Translate: pt-parse-open)");
      pos = cb;
      break;
    }
    page.translatable = true;
    std::size_t nested_len = 0;
    if (std::size_t nested = find_open(text, cb, close, armour, &nested_len); nested != std::string_view::npos)
      report("translate-nested", "", nested, "<translate> inside <translate> (Translate: pt-parse-nested)");
    // Units are separated by two or more newlines; the whitespace around them belongs to
    // the page template (TranslatablePageParser::parseSection).
    bool inline_region = text.substr(cb, close - cb).find('\n') == std::string_view::npos;
    std::size_t j = cb;
    while (j < close && is_space(text[j])) ++j;
    literal.append(text.substr(cb, j - cb));
    while (j < close) {
      std::size_t k = j;
      std::size_t unit_end = close, next = close;
      while (k < close) {
        if (!is_space(text[k])) {
          ++k;
          continue;
        }
        std::size_t r = k;
        while (r < close && is_space(text[r])) ++r;
        if (r == close || text.substr(k, r - k).find("\n\n") != std::string_view::npos) {
          unit_end = k;
          next = r;
          break;
        }
        k = r;
      }
      add_unit(j, unit_end, inline_region);
      literal.append(text.substr(unit_end, next - unit_end));
      j = next;
    }
    pos = close + 12;
  }
  if (pos < text.size()) literal.append(text.substr(pos));
  flush_literal();
  return page;
}

}  // namespace wikic::l10n
