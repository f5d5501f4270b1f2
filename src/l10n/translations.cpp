// From the pages of an export to the translation report: unit pages
// (Translations:Page/N/xx, namespace 1198), translation pages (Page/xx as FuzzyBot
// writes them), the source page's units, and the rule database compiled from both
// sides. Statuses follow Translate's MessageGroupStats: a unit is translated when a
// translation exists without the !!FUZZY!! mark, fuzzy with it, untranslated otherwise;
// % complete is translated / total (fuzzy units do not count), as in
// TranslatablePage::getTranslationPercentages.
#include "l10n/translations.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>
#include <tuple>

#include "extract/rules.hpp"
#include "ingest/languages.hpp"
#include "support/files.hpp"
#include "support/scan.hpp"
#include "support/sha1.hpp"

namespace wikic::l10n {

const char* to_string(Status s) {
  switch (s) {
    case Status::translated: return "translated";
    case Status::fuzzy: return "fuzzy";
    case Status::untranslated: return "untranslated";
  }
  return "untranslated";
}

std::optional<UnitPageName> parse_unit_page_title(std::string_view title) {
  // Translations:SourcePage/UnitId/lang: the language and the unit id never hold a '/'
  // (TranslatablePage::parseTranslationUnit), the page may.
  std::size_t colon = title.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  std::string_view rest = title.substr(colon + 1);
  std::size_t last = rest.rfind('/');
  if (last == std::string_view::npos || last == 0) return std::nullopt;
  std::size_t middle = rest.rfind('/', last - 1);
  if (middle == std::string_view::npos || middle == 0) return std::nullopt;
  UnitPageName n;
  n.page = std::string(rest.substr(0, middle));
  n.unit = std::string(rest.substr(middle + 1, last - middle - 1));
  n.language = std::string(rest.substr(last + 1));
  if (n.unit.empty() || n.language.empty()) return std::nullopt;
  return n;
}

void Collector::add(const ingest::SiteInfo& site, const ingest::Page& page) {
  source_language_ = site.language.empty() ? "en" : site.language;
  if (page.ns == kTranslationsNamespace || page.title.rfind("Translations:", 0) == 0) {
    unit_pages_.push_back(page);
    return;
  }
  if (page.language != source_language_ && page.title.size() > page.language.size() + 1 &&
      page.title.compare(page.title.size() - page.language.size() - 1, std::string::npos, "/" + page.language) == 0) {
    lang_pages_.push_back(page);
    return;
  }
  // Every page is checked, and most have no <translate>: their whole text is searched,
  // unless the reader saw while decoding it.
  const bool translate = page.revision.translate_tag
                             ? *page.revision.translate_tag
                             : support::find_text(page.revision.text, "<translate") != std::string_view::npos;
  if (translate) sources_.push_back(page);
}

bool Collector::has_translations() const {
  if (sources_.empty()) return false;
  if (!unit_pages_.empty()) return true;
  for (const auto& p : lang_pages_)
    for (const auto& s : sources_)
      if (p.title == s.title + "/" + p.language) return true;
  return false;
}

namespace {

bool ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && ws(s.front())) s.remove_prefix(1);
  while (!s.empty() && ws(s.back())) s.remove_suffix(1);
  return s;
}

struct Slot {
  std::size_t begin = 0, end = 0;
  bool found = false;
};

/// The lines of a literal, trimmed, empty ones dropped.
std::vector<std::string_view> literal_lines(std::string_view lit) {
  std::vector<std::string_view> out;
  std::size_t at = 0;
  while (at <= lit.size()) {
    std::size_t eol = lit.find('\n', at);
    if (eol == std::string_view::npos) eol = lit.size();
    std::string_view l = trim(lit.substr(at, eol - at));
    if (!l.empty()) out.push_back(l);
    at = eol + 1;
  }
  return out;
}

/// Where the literal `lit` starts in `t` at or after `from`: the whole literal, else its
/// longest run of leading lines (the translation page may lack what the source gained
/// after it was marked).
std::size_t literal_start(std::string_view t, std::string_view lit, std::size_t from) {
  if (std::size_t q = t.find(lit, from); q != std::string_view::npos) return q;
  auto lines = literal_lines(lit);
  for (std::size_t n = lines.size(); n-- > 1;) {
    std::string_view head = lit.substr(0, static_cast<std::size_t>(lines[n - 1].data() + lines[n - 1].size() - lit.data()));
    if (std::size_t q = t.find(head, from); q != std::string_view::npos) return q;
  }
  return std::string_view::npos;
}

/// Where the literal ends (whole, else its longest run of trailing lines).
std::size_t literal_end(std::string_view t, std::string_view lit, std::size_t from) {
  if (std::size_t q = t.find(lit, from); q != std::string_view::npos) return q + lit.size();
  auto lines = literal_lines(lit);
  for (std::size_t n = 1; n < lines.size(); ++n) {
    std::string_view tail = lit.substr(static_cast<std::size_t>(lines[n].data() - lit.data()));
    if (std::size_t q = t.find(tail, from); q != std::string_view::npos) return q + tail.size();
  }
  return std::string_view::npos;
}

/// Finds each unit's text in a translation page by walking the source page's template:
/// the literal text between units is copied verbatim by FuzzyBot, so it anchors the
/// units; whitespace-only literals are matched loosely (an empty line between units).
/// Units outside the message group (no marker, or a duplicated one) are not on a page
/// FuzzyBot wrote, so they never take text.
std::vector<Slot> align(const SourcePage& src, std::string_view t, const std::vector<bool>& in_group) {
  std::vector<Slot> slots(src.units.size());
  std::size_t p = 0;
  auto skip_ws = [&] {
    while (p < t.size() && ws(t[p])) ++p;
  };
  for (std::size_t i = 0; i < src.pieces.size(); ++i) {
    const auto& piece = src.pieces[i];
    if (!piece.is_unit) {
      std::string_view lit = trim(piece.literal);
      skip_ws();
      if (lit.empty()) continue;
      if (std::size_t q = literal_end(t, lit, p); q != std::string_view::npos) p = q;
      continue;
    }
    if (!in_group[piece.unit]) continue;
    skip_ws();
    // The unit ends where the next literal text starts, or at an empty line when the next
    // thing is another unit (units split at empty lines).
    std::size_t end = t.size();
    bool blank_ends = false;
    for (std::size_t j = i + 1; j < src.pieces.size(); ++j) {
      const auto& next = src.pieces[j];
      if (next.is_unit) {
        if (in_group[next.unit]) {
          blank_ends = true;
          break;
        }
        continue;
      }
      std::string_view lit = trim(next.literal);
      if (lit.empty()) continue;
      // A short literal ("|}") may occur in the unit itself: skip as many occurrences as
      // the source unit holds, since a translation keeps the unit's markup.
      std::size_t own = 0;
      const std::string& unit_text = src.units[piece.unit].rendered;
      for (std::size_t k = unit_text.find(lit); k != std::string::npos; k = unit_text.find(lit, k + lit.size())) ++own;
      std::size_t q = literal_start(t, lit, p);
      for (std::size_t skip = 0; skip < own && q != std::string_view::npos; ++skip) {
        std::size_t later = t.find(lit, q + lit.size());
        if (later == std::string_view::npos) break;
        q = later;
      }
      if (q != std::string_view::npos) end = q;
      break;
    }
    if (blank_ends) {
      std::size_t q = p;
      while ((q = t.find('\n', q)) != std::string_view::npos && q < end) {
        std::size_t r = q + 1;
        while (r < t.size() && (t[r] == ' ' || t[r] == '\t' || t[r] == '\r')) ++r;
        if (r < t.size() && t[r] == '\n') {
          end = q;
          break;
        }
        q = r;
      }
    }
    while (end > p && ws(t[end - 1])) --end;
    slots[piece.unit] = {p, end, end > p};  // nothing left: the page lacks the unit
    p = end;
  }
  return slots;
}

/// Strips FuzzyBot's outdated-translation wrapper: `<div class="mw-translate-fuzzy">`
/// around block units, `<span class="mw-translate-fuzzy">` around inline ones.
bool strip_fuzzy_wrapper(std::string_view& text, std::size_t& offset) {
  for (auto [open, close] : {std::pair<std::string_view, std::string_view>{"<div class=\"mw-translate-fuzzy\">", "</div>"},
                             std::pair<std::string_view, std::string_view>{"<span class=\"mw-translate-fuzzy\">", "</span>"}}) {
    if (text.substr(0, open.size()) != open) continue;
    std::string_view inner = text.substr(open.size());
    std::size_t skipped = open.size();
    if (inner.size() >= close.size() && inner.substr(inner.size() - close.size()) == close)
      inner.remove_suffix(close.size());
    if (!inner.empty() && inner.front() == '\n') inner.remove_prefix(1), ++skipped;
    if (!inner.empty() && inner.back() == '\n') inner.remove_suffix(1);
    text = inner;
    offset += skipped;
    return true;
  }
  return false;
}

/// The page FuzzyBot would write from the unit pages: the template with each unit
/// translated, wrapped when fuzzy, in the source language when untranslated.
std::string assemble(const SourcePage& src, const std::vector<UnitState>& states, const std::vector<std::size_t>& state_of,
                     const std::vector<bool>& in_group) {
  std::string out;
  for (const auto& piece : src.pieces) {
    if (!piece.is_unit) {
      out += piece.literal;
      continue;
    }
    // FuzzyBot writes from the marked version: units not marked yet are not there.
    if (!in_group[piece.unit]) continue;
    const TranslationUnit& u = src.units[piece.unit];
    std::size_t s = state_of[piece.unit];
    if (s == static_cast<std::size_t>(-1) || states[s].status == Status::untranslated) {
      out += u.rendered;
      continue;
    }
    std::string text = substitute_tvars(states[s].translation, u.tvars);
    if (states[s].status == Status::fuzzy)
      text = u.inline_unit ? "<span class=\"mw-translate-fuzzy\">" + text + "</span>"
                           : "<div class=\"mw-translate-fuzzy\">\n" + text + "\n</div>";
    out += text;
  }
  return out;
}

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

/// A rule's scoring by what does not depend on the language: the operations, amounts and
/// conditions, as a set (an edition's wording may repeat an amount the other states once).
/// Words are left out: `per` and `quantity` are the language's, and rounding is read from
/// English words ("rounded up") the grammar does not know in other languages; so is the
/// basis ("primary points").
std::string points_text(const extract::Rule& r) {
  if (r.points_unparsed) return "unparsed";
  std::set<std::string> entries;
  for (const auto& e : r.points) {
    char buf[64];
    if (e.points.op == extract::PointsOp::fraction)
      std::snprintf(buf, sizeof buf, "%s %g/%g", extract::to_string(e.points.op), e.points.value, e.points.denominator);
    else if (!e.points.quantity.empty())
      std::snprintf(buf, sizeof buf, "%s quantity", extract::to_string(e.points.op));
    else
      std::snprintf(buf, sizeof buf, "%s %g", extract::to_string(e.points.op), e.points.value);
    entries.insert(std::string(buf) + (e.when != "true" ? " when " + e.when.str() : ""));
  }
  return entries.empty() ? "none" : join(std::vector<std::string>(entries.begin(), entries.end()));
}

/// The numbers of a rule's rules text ("1", "1/2", "-2"), sorted: what stays when the
/// points grammar (English words) cannot read a translation.
std::string numbers_text(const extract::Rule& r) {
  const std::string& s = r.rules.text;
  std::vector<std::string> nums;
  for (std::size_t i = 0; i < s.size();) {
    bool in_word = i > 0 && std::isalpha(static_cast<unsigned char>(s[i - 1]));
    if (!std::isdigit(static_cast<unsigned char>(s[i])) || in_word) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < s.size() && (std::isdigit(static_cast<unsigned char>(s[j])) ||
                            ((s[j] == '/' || s[j] == '.' || s[j] == ',') && j + 1 < s.size() &&
                             std::isdigit(static_cast<unsigned char>(s[j + 1])))))
      ++j;
    std::string n = s.substr(i, j - i);
    std::replace(n.begin(), n.end(), ',', '.');
    nums.push_back(n);
    i = j;
  }
  std::sort(nums.begin(), nums.end());
  return nums.empty() ? "no numbers" : "numbers " + join(nums);
}

/// Scoring compared across languages: the parsed expressions when both sides have them,
/// else the numbers of both texts.
std::pair<std::string, std::string> scoring_pair(const extract::Rule& a, const extract::Rule& b) {
  if (a.points_unparsed || b.points_unparsed) return {numbers_text(a), numbers_text(b)};
  return {points_text(a), points_text(b)};
}

/// A rule's notes by what does not depend on the language: how many, under which conditions.
std::string notes_text(const extract::Rule& r) {
  std::vector<std::string> whens;
  for (const auto& n : r.notes) whens.push_back(n.when);
  std::sort(whens.begin(), whens.end());
  return std::to_string(r.notes.size()) + " notes" + (whens.empty() ? "" : ": " + join(whens));
}

/// A rule text's parts by what does not depend on the language: their conditions, in
/// order (a translation that loses a showSquareTiles span loses a part).
std::string parts_text(const std::vector<extract::TextPart>& parts) {
  std::vector<std::string> whens;
  for (const auto& p : parts) whens.push_back(p.when);
  return whens.empty() ? "no parts" : "parts " + join(whens);
}

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || (static_cast<unsigned char>(c) & 0x80); }

/// A description as one line for every edition: where the C1 and C2 wordings differ the
/// differing words are joined with '/' ("Road (thief/highwayman)"), as readers name rules.
std::string merged_description(const extract::Variants& v) {
  if (v.uniform || v.c1.empty() || v.c2.empty() || v.c1 == v.c2) return v.text;
  const std::string &a = v.c1, &b = v.c2;
  std::size_t pre = 0;
  while (pre < a.size() && pre < b.size() && a[pre] == b[pre]) ++pre;
  while (pre > 0 && word_char(a[pre - 1])) --pre;  // whole words
  std::size_t suf = 0;
  while (suf < a.size() - pre && suf < b.size() - pre && a[a.size() - 1 - suf] == b[b.size() - 1 - suf]) ++suf;
  while (suf > 0 && word_char(a[a.size() - suf])) --suf;
  return a.substr(0, pre) + a.substr(pre, a.size() - pre - suf) + "/" + b.substr(pre, b.size() - pre - suf) +
         a.substr(a.size() - suf);
}

/// An id without its first part (the page's slug, which differs for Page/xx).
std::string_view id_rest(std::string_view id) {
  std::size_t slash = id.find('/');
  return slash == std::string_view::npos ? id : id.substr(slash + 1);
}

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

/// Longest common subsequence of a[ra] and b[rb] under `same`, pairs appended in order.
template <class Same>
void lcs_pairs(const std::vector<std::size_t>& ra, const std::vector<std::size_t>& rb, Same same,
               std::vector<std::pair<std::size_t, std::size_t>>& out) {
  if (ra.empty() || rb.empty() || ra.size() * rb.size() > 4'000'000) return;
  std::vector<std::vector<std::uint32_t>> L(ra.size() + 1, std::vector<std::uint32_t>(rb.size() + 1, 0));
  for (std::size_t i = ra.size(); i-- > 0;)
    for (std::size_t j = rb.size(); j-- > 0;)
      L[i][j] = same(ra[i], rb[j]) ? L[i + 1][j + 1] + 1 : std::max(L[i + 1][j], L[i][j + 1]);
  std::size_t i = 0, j = 0;
  while (i < ra.size() && j < rb.size()) {
    if (same(ra[i], rb[j]) && L[i][j] == L[i + 1][j + 1] + 1) {
      out.emplace_back(ra[i], rb[j]);
      ++i, ++j;
    } else if (L[i + 1][j] >= L[i][j + 1]) {
      ++i;
    } else {
      ++j;
    }
  }
}

/// Pairs the source's rules with the translation's. Ids name the description, which a
/// translation changes, so after the id (without the page part) the pairing is by what
/// words do not change, in page order: first rules equal in kind, nesting, condition and
/// scoring (the same rule, translated), then, between two such pairs, rules equal in kind
/// and nesting only (the same row with its condition or points changed). Whatever stays
/// unpaired is missing from, or extra in, the translation.
std::vector<RuleDifference> compare_rules(const extract::PageRules& a, const extract::PageRules& b,
                                          const std::string& lang) {
  std::vector<RuleDifference> out;
  std::vector<std::size_t> match_a(a.rules.size(), kNone), match_b(b.rules.size(), kNone);
  std::vector<std::string> how(a.rules.size());
  std::map<std::string_view, std::size_t> by_rest;
  for (std::size_t j = 0; j < b.rules.size(); ++j) by_rest.emplace(id_rest(b.rules[j].id), j);
  for (std::size_t i = 0; i < a.rules.size(); ++i)
    if (auto it = by_rest.find(id_rest(a.rules[i].id)); it != by_rest.end() && match_b[it->second] == kNone) {
      match_a[i] = it->second;
      match_b[it->second] = i;
      how[i] = "id";
    }
  auto shape_key = [](const extract::Rule& r) { return r.kind + "|" + (r.parent.empty() ? "top" : "sub"); };
  auto full_key = [&](const extract::Rule& r) { return shape_key(r) + "|" + r.when.str() + "|" + numbers_text(r); };
  std::vector<std::string> ka(a.rules.size()), kb(b.rules.size()), sa(a.rules.size()), sb(b.rules.size());
  for (std::size_t i = 0; i < a.rules.size(); ++i) ka[i] = full_key(a.rules[i]), sa[i] = shape_key(a.rules[i]);
  for (std::size_t j = 0; j < b.rules.size(); ++j) kb[j] = full_key(b.rules[j]), sb[j] = shape_key(b.rules[j]);
  auto unmatched = [](const std::vector<std::size_t>& m, std::size_t from, std::size_t to) {
    std::vector<std::size_t> r;
    for (std::size_t i = from; i < to; ++i)
      if (m[i] == kNone) r.push_back(i);
    return r;
  };
  // A description left in English (an untranslated unit) names the same rule; repeated
  // ones (the same wonder tile in the road and the city block) pair in page order when
  // both sides have as many.
  {
    std::map<std::string, std::vector<std::size_t>> da, db;
    for (std::size_t i = 0; i < a.rules.size(); ++i)
      if (match_a[i] == kNone) da[merged_description(a.rules[i].description)].push_back(i);
    for (std::size_t j = 0; j < b.rules.size(); ++j)
      if (match_b[j] == kNone) db[merged_description(b.rules[j].description)].push_back(j);
    for (const auto& [d, is] : da) {
      auto it = db.find(d);
      if (d.empty() || it == db.end() || is.size() != it->second.size()) continue;
      for (std::size_t k = 0; k < is.size(); ++k) {
        match_a[is[k]] = it->second[k];
        match_b[it->second[k]] = is[k];
        how[is[k]] = "description";
      }
    }
  }
  std::vector<std::pair<std::size_t, std::size_t>> strict;
  lcs_pairs(unmatched(match_a, 0, a.rules.size()), unmatched(match_b, 0, b.rules.size()),
            [&](std::size_t i, std::size_t j) { return ka[i] == kb[j]; }, strict);
  for (auto [i, j] : strict) match_a[i] = j, match_b[j] = i, how[i] = "position";
  // The gaps between consecutive pairs (in source order, whatever paired them).
  std::vector<std::pair<std::size_t, std::size_t>> anchors;
  for (std::size_t i = 0; i < a.rules.size(); ++i)
    if (match_a[i] != kNone) anchors.emplace_back(i, match_a[i]);
  anchors.emplace_back(a.rules.size(), b.rules.size());
  std::size_t ai = 0, bj = 0;
  for (auto [na, nb] : anchors) {
    if (nb >= bj) {
      std::vector<std::pair<std::size_t, std::size_t>> loose;
      lcs_pairs(unmatched(match_a, ai, na), unmatched(match_b, bj, nb),
                [&](std::size_t i, std::size_t j) { return sa[i] == sb[j]; }, loose);
      for (auto [i, j] : loose) match_a[i] = j, match_b[j] = i, how[i] = "position";
      bj = nb + 1;
    }
    ai = na + 1;
  }
  for (std::size_t i = 0; i < a.rules.size(); ++i) {
    const auto& r = a.rules[i];
    std::string d = merged_description(r.description);
    if (match_a[i] == kNone) {
      out.push_back({"missing-in-" + lang, r.id, d, "", "", "", ""});
      continue;
    }
    const auto& t = b.rules[match_a[i]];
    if (r.when != t.when) out.push_back({"when-different", r.id, d, r.when, t.when, t.id, how[i]});
    auto [pa, pb] = scoring_pair(r, t);
    if (pa != pb) out.push_back({"points-different", r.id, d, pa, pb, t.id, how[i]});
    std::string na = notes_text(r), nb = notes_text(t);
    if (na != nb) out.push_back({"notes-different", r.id, d, na, nb, t.id, how[i]});
    std::string ra = parts_text(r.rules_parts), rb = parts_text(t.rules_parts);
    if (ra != rb) out.push_back({"parts-different", r.id, d, ra, rb, t.id, how[i]});
    std::string ta = join(r.triggers), tb = join(t.triggers);
    if (ta != tb) out.push_back({"triggers-different", r.id, d, ta, tb, t.id, how[i]});
  }
  for (std::size_t j = 0; j < b.rules.size(); ++j)
    if (match_b[j] == kNone)
      out.push_back({"extra-in-" + lang, b.rules[j].id, merged_description(b.rules[j].description), "", "", b.rules[j].id, ""});
  return out;
}

}  // namespace

Report Collector::build(const Options& options, const CompilePage& compile, support::DiagnosticSink& sink) const {
  Report report;
  report.source_language = source_language_;
  std::set<std::string> wanted(options.languages.begin(), options.languages.end());
  std::vector<const ingest::Page*> sources;
  for (const auto& p : sources_) sources.push_back(&p);
  std::sort(sources.begin(), sources.end(), [](auto* x, auto* y) { return x->title < y->title; });
  std::set<std::string> all_languages;

  for (const ingest::Page* sp : sources) {
    const std::string where = sp->source.file + "#" + sp->title;
    SourcePage src = parse_source_page(sp->title, sp->revision.text, sp->source.file, sink);
    if (!src.translatable) continue;
    // Unit pages of this page, by language and unit.
    std::map<std::string, std::map<std::string, const ingest::Page*>> units_by_lang;
    for (const auto& up : unit_pages_) {
      auto name = parse_unit_page_title(up.title);
      if (!name || name->page != sp->title) continue;
      units_by_lang[name->language][name->unit] = &up;
    }
    std::map<std::string, const ingest::Page*> page_by_lang;
    for (const auto& lp : lang_pages_)
      if (lp.title == sp->title + "/" + lp.language) page_by_lang[lp.language] = &lp;

    // The group's units: marked ones, each id once, the title first (MessageGroup keys).
    std::vector<std::size_t> group;
    std::vector<bool> in_group(src.units.size(), false);
    std::set<std::string> seen;
    for (std::size_t i = 0; i < src.units.size(); ++i)
      if (!src.units[i].id.empty() && seen.insert(src.units[i].id).second) group.push_back(i), in_group[i] = true;

    SourceSummary summary;
    summary.page = sp->title;
    summary.file = sp->source.file;
    summary.revision = sp->revision.id;
    summary.timestamp = sp->revision.timestamp;
    // A unit's definition is the source-language unit page when the export has it (the
    // version marked for translation), else the text in the source page now.
    const auto& own = units_by_lang[source_language_];
    std::map<std::string, std::string> definition_of;
    for (std::size_t i : group) {
      const auto& u = src.units[i];
      auto it = own.find(u.id);
      std::string def = it != own.end() ? it->second->revision.text : u.definition;
      definition_of[u.id] = def;
      summary.definitions.emplace_back(u.id, support::sha1_hex(def));
    }
    for (const auto& f : src.findings) {
      Finding finding;
      finding.unit = f.unit;
      finding.kind = f.kind;
      finding.severity = Severity::warning;
      finding.message = f.message;
      finding.page = sp->title;
      finding.lines = f.lines;
      summary.findings.push_back(std::move(finding));
    }

    std::set<std::string> languages;
    for (const auto& [lang, _] : units_by_lang)
      if (lang != source_language_) languages.insert(lang);
    for (const auto& [lang, _] : page_by_lang) languages.insert(lang);
    std::optional<extract::PageRules> source_rules;

    for (const std::string& lang : languages) {
      if (!wanted.empty() && !wanted.count(lang)) continue;
      all_languages.insert(lang);
      PageLanguage entry;
      entry.page = sp->title;
      entry.language = lang;
      const auto& unit_pages = units_by_lang[lang];
      entry.unit_pages = unit_pages.size();
      const ingest::Page* tp = page_by_lang.count(lang) ? page_by_lang[lang] : nullptr;
      std::vector<Slot> slots;
      support::LineIndex tp_lines;
      if (tp) {
        entry.translation_page = tp->title;
        entry.translation_page_file = tp->source.file;
        slots = align(src, tp->revision.text, in_group);
        entry.leak_lines = leaking_table_lines(tp->revision.text);
        tp_lines = support::LineIndex(tp->revision.text);
      }
      std::vector<std::size_t> state_of(src.units.size(), static_cast<std::size_t>(-1));
      for (std::size_t i : group) {
        const TranslationUnit& u = src.units[i];
        UnitState st;
        st.id = u.id;
        const ingest::Page* up = unit_pages.count(u.id) ? unit_pages.at(u.id) : nullptr;
        bool have_slot = tp && !u.is_title && slots[i].found;
        std::string_view slot_text;
        std::size_t slot_offset = 0;
        bool wrapped = false;
        if (have_slot) {
          slot_text = std::string_view(tp->revision.text).substr(slots[i].begin, slots[i].end - slots[i].begin);
          slot_offset = slots[i].begin;
          wrapped = strip_fuzzy_wrapper(slot_text, slot_offset);
          st.line = tp_lines.position(slot_offset).line;
          st.last_line = tp_lines.position(slot_offset + (slot_text.empty() ? 0 : slot_text.size() - 1)).line;
        }
        bool unit_page_fuzzy = false;
        if (up) {
          std::string_view text = up->revision.text;
          // Translate's TRANSLATE_FUZZY prefix marks an outdated translation.
          if (text.substr(0, kFuzzyPrefix.size()) == kFuzzyPrefix) {
            unit_page_fuzzy = true;
            text.remove_prefix(kFuzzyPrefix.size());
          }
          st.translation = std::string(text);
          st.status = unit_page_fuzzy ? Status::fuzzy : Status::translated;
          st.evidence = have_slot ? "both" : "units";
        } else if (have_slot) {
          st.evidence = "translation-page";
          st.translation = std::string(slot_text);
          // FuzzyBot writes the source text for a unit nobody translated.
          if (wrapped) st.status = Status::fuzzy;
          else if (trim(slot_text) == trim(u.rendered)) st.status = Status::untranslated, st.translation.clear();
          else st.status = Status::translated;
        } else {
          st.evidence = "none";
          st.status = Status::untranslated;
        }
        if (options.previous && st.status == Status::translated) {
          auto pit = options.previous->find(sp->title);
          if (pit != options.previous->end()) {
            auto uit = pit->second.find(u.id);
            if (uit != pit->second.end() && uit->second != support::sha1_hex(definition_of[u.id])) {
              st.outdated_unmarked = true;
              Finding f{u.id, "outdated-unmarked", Severity::warning,
                        "the source of this unit changed since the previous run, and the translation is not marked !!FUZZY!!",
                        tp ? tp->title : (up ? up->title : sp->title), {}, {}};
              if (st.line) f.lines.push_back(st.line);
              entry.findings.push_back(std::move(f));
            }
          }
        }
        // Structural comparison: on the translation page when it has the unit (its line
        // numbers are what a translator can find), else on the unit page.
        if (st.status != Status::untranslated && !u.is_title) {
          std::vector<Finding> found;
          // A translation page not yet updated by FuzzyBot still shows the source text.
          bool slot_is_translation = have_slot && trim(slot_text) != trim(u.rendered);
          if (slot_is_translation) {
            found = compare_unit(u.id, u.rendered, slot_text, up ? std::string_view(st.translation) : slot_text, u.tvars,
                                 up != nullptr, tp->title, st.line);
          } else if (up) {
            std::string rendered = substitute_tvars(st.translation, u.tvars);
            found = compare_unit(u.id, u.rendered, rendered, st.translation, u.tvars, true, up->title, 1);
          }
          for (auto& f : found) {
            if (tp && f.page == tp->title)
              entry.leak_lines.insert(entry.leak_lines.end(), f.leak_lines.begin(), f.leak_lines.end());
            entry.findings.push_back(std::move(f));
          }
        }
        switch (st.status) {
          case Status::translated: ++entry.counts.translated; break;
          case Status::fuzzy: ++entry.counts.fuzzy; break;
          case Status::untranslated: ++entry.counts.untranslated; break;
        }
        if (st.outdated_unmarked) ++entry.counts.outdated_unmarked;
        ++entry.counts.total;
        state_of[i] = entry.units.size();
        entry.units.push_back(std::move(st));
      }
      std::sort(entry.leak_lines.begin(), entry.leak_lines.end());
      entry.leak_lines.erase(std::unique(entry.leak_lines.begin(), entry.leak_lines.end()), entry.leak_lines.end());
      // Markers are the source page's business but every language suffers from them.
      for (const auto& f : summary.findings)
        if (f.kind == "marker-duplicated" || f.kind == "marker-missing") entry.findings.push_back(f);

      if (options.compare_rules && compile) {
        if (!source_rules) {
          ingest::Page source = *sp;  // compiling restores the text in place
          source_rules = compile(source);
        }
        ingest::Page translated;
        if (tp) {
          translated = *tp;
          entry.rules_from = "translation-page";
        } else {
          translated = *sp;
          translated.title = sp->title + "/" + lang;
          translated.language = lang;
          translated.revision.text = assemble(src, entry.units, state_of, in_group);
          translated.revision.newlines.reset();  // the source page's findings
          translated.revision.translate_tag.reset();
          entry.rules_from = "units";
        }
        extract::PageRules rules = compile(translated);
        entry.rules_compared = true;
        entry.source_rules = source_rules->rules.size();
        entry.translation_rules = rules.rules.size();
        entry.rule_differences = compare_rules(*source_rules, rules, lang);
      }
      // Findings in unit order, then by kind, so the report reads like the page.
      std::map<std::string, std::size_t> order;
      for (std::size_t k = 0; k < entry.units.size(); ++k) order.emplace(entry.units[k].id, k);
      std::stable_sort(entry.findings.begin(), entry.findings.end(), [&](const Finding& x, const Finding& y) {
        auto ox = order.count(x.unit) ? order[x.unit] : order.size();
        auto oy = order.count(y.unit) ? order[y.unit] : order.size();
        if (ox != oy) return ox < oy;
        return x.kind < y.kind;
      });
      for (const auto& f : entry.findings) {
        if (f.kind == "marker-duplicated" || f.kind == "marker-missing") continue;  // reported with the source
        support::Position at{f.lines.empty() ? 0u : f.lines.front(), f.lines.empty() ? 0u : 1u};
        std::string file = (tp && f.page == tp->title ? tp->source.file : sp->source.file) + "#" + f.page;
        std::string msg = "[" + lang + "] unit " + f.unit + ": " + f.kind + ": " + f.message;
        if (f.severity == Severity::info) sink.note(file, at, msg);
        else sink.warning(file, at, msg);
      }
      report.entries.push_back(std::move(entry));
    }
    report.sources.push_back(std::move(summary));
    (void)where;
  }
  std::sort(report.entries.begin(), report.entries.end(), [](const PageLanguage& x, const PageLanguage& y) {
    return std::tie(x.language, x.page) < std::tie(y.language, y.page);
  });
  report.languages.assign(all_languages.begin(), all_languages.end());
  return report;
}

std::optional<DefinitionHashes> read_previous(const std::string& dir, std::string& error) {
  std::string text;
  error.clear();
  for (const std::string& path : {dir + "/l10n/summary.yaml", dir + "/summary.yaml"}) {
    std::string e;
    if (auto t = support::read_file(path, e)) {
      text = std::move(*t);
      error.clear();
      break;
    }
    if (error.empty()) error = e;
  }
  if (!error.empty()) return std::nullopt;
  DefinitionHashes out;
  try {
    YAML::Node root = YAML::Load(text);
    for (const auto& s : root["sources"]) {
      auto& units = out[s["page"].as<std::string>()];
      for (const auto& u : s["definitions"]) units[u["unit"].as<std::string>()] = u["sha1"].as<std::string>();
    }
  } catch (const YAML::Exception& e) {
    error = dir + ": summary.yaml: " + e.what();
    return std::nullopt;
  }
  return out;
}

}  // namespace wikic::l10n
