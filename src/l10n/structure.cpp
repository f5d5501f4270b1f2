// The structural facts of a unit's wikitext and their comparison. Classes are classified
// with the Expansion Selector's vocabulary (select/), templates are read from the
// preprocessor tree (preprocess/), so `{{ScoringRow|…}}` inside a link or a tag is
// found the way MediaWiki finds it; links, bold text and table lines are simple scans.
#include "l10n/structure.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "preprocess/preprocessor.hpp"
#include "select/classes.hpp"

namespace wikic::l10n {

const char* to_string(Severity s) {
  switch (s) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::info: return "info";
  }
  return "error";
}

namespace {

bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

std::string trim(std::string_view s) {
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return std::string(s);
}

/// Line (0-based, within `text`) of byte `at`.
std::uint32_t line_of(std::string_view text, std::size_t at) {
  return static_cast<std::uint32_t>(std::count(text.begin(), text.begin() + std::min(at, text.size()), '\n'));
}

/// A thing found in the text, with where.
struct Item {
  std::string key;
  std::uint32_t line = 0;
};

/// MediaWiki title normalisation for comparing (first letter upper case, '_' = ' ',
/// runs of spaces collapsed), without a trailing `/xx` language suffix: translators
/// link to the translated page on purpose (`[[Hans im Glück/fr|…]]`).
std::string normal_title(std::string_view raw) {
  std::string s;
  for (char c : trim(raw)) {
    if (c == '_') c = ' ';
    if (c == ' ' && (s.empty() || s.back() == ' ')) continue;
    s += c;
  }
  while (!s.empty() && s.back() == ' ') s.pop_back();
  if (std::size_t slash = s.rfind('/'); slash != std::string::npos) {
    std::string_view suffix = std::string_view(s).substr(slash + 1);
    bool code = suffix.size() >= 2 && suffix.size() <= 7 &&
                std::all_of(suffix.begin(), suffix.end(), [](char c) { return std::islower(static_cast<unsigned char>(c)) || c == '-'; });
    if (code) s.erase(slash);
  }
  if (!s.empty() && s[0] != '#') s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

/// Every token of every `class=` attribute.
std::vector<Item> classes(std::string_view text) {
  std::vector<Item> out;
  std::string low = lower(text);
  std::size_t at = 0;
  while ((at = low.find("class", at)) != std::string::npos) {
    std::size_t p = at + 5;
    bool word_start = at == 0 || !(std::isalnum(static_cast<unsigned char>(low[at - 1])) || low[at - 1] == '-');
    at = p;
    if (!word_start) continue;
    while (p < text.size() && (text[p] == ' ' || text[p] == '\t')) ++p;
    if (p >= text.size() || text[p] != '=') continue;
    ++p;
    while (p < text.size() && (text[p] == ' ' || text[p] == '\t')) ++p;
    std::size_t e = p;
    if (p < text.size() && (text[p] == '"' || text[p] == '\'')) {
      char q = text[p++];
      e = text.find(q, p);
      if (e == std::string_view::npos || text.substr(p, e - p).find('\n') != std::string_view::npos)
        e = std::min(text.find('\n', p), text.size());
    } else {
      while (e < text.size() && !space(text[e]) && text[e] != '|' && text[e] != '>') ++e;
    }
    std::string_view value = text.substr(p, e - p);
    std::size_t i = 0;
    while (i < value.size()) {
      while (i < value.size() && space(value[i])) ++i;
      std::size_t j = i;
      while (j < value.size() && !space(value[j])) ++j;
      if (j > i) out.push_back({std::string(value.substr(i, j - i)), line_of(text, p + i)});
      i = j;
    }
    at = e;
  }
  return out;
}

bool is_selector(std::string_view token) {
  support::DiagnosticSink quiet;
  auto kind = select::classify_class(token, select::Where{}, quiet).kind;
  return kind == select::ClassKind::condition || kind == select::ClassKind::structural ||
         kind == select::ClassKind::unknown;
}

/// Numbers inside bold text ('''…'''): on WICA point values are written bold.
std::vector<Item> bold_numbers(std::string_view text) {
  std::vector<Item> out;
  std::size_t at = 0;
  while ((at = text.find("'''", at)) != std::string_view::npos) {
    std::size_t b = at + 3;
    std::size_t e = text.find("'''", b);
    std::size_t eol = text.find('\n', b);
    if (e == std::string_view::npos || (eol != std::string_view::npos && eol < e)) {
      at = b;
      continue;
    }
    std::string_view bold = text.substr(b, e - b);
    for (std::size_t i = 0; i < bold.size();) {
      if (bold[i] == '<') {  // tags inside bold text: `<span class="showC1">` holds no value
        std::size_t gt = bold.find('>', i);
        i = gt == std::string_view::npos ? bold.size() : gt + 1;
        continue;
      }
      bool in_word = i > 0 && std::isalpha(static_cast<unsigned char>(bold[i - 1]));
      if (!std::isdigit(static_cast<unsigned char>(bold[i])) || in_word) {
        ++i;
        continue;
      }
      std::size_t j = i;
      while (j < bold.size() && (std::isdigit(static_cast<unsigned char>(bold[j])) ||
                                 ((bold[j] == '.' || bold[j] == ',' || bold[j] == '/') && j + 1 < bold.size() &&
                                  std::isdigit(static_cast<unsigned char>(bold[j + 1])))))
        ++j;
      std::string n(bold.substr(i, j - i));
      std::replace(n.begin(), n.end(), ',', '.');
      out.push_back({n, line_of(text, b + i)});
      i = j;
    }
    at = e + 3;
  }
  return out;
}

/// Template and parser-function names from the preprocessor tree.
std::vector<Item> templates(std::string_view text) {
  std::vector<Item> out;
  preprocess::Options options;
  options.report_unclosed = false;
  preprocess::Tree tree = preprocess::preprocess(text, options);
  std::vector<preprocess::NodeId> stack{tree.root};
  while (!stack.empty()) {
    preprocess::NodeId id = stack.back();
    stack.pop_back();
    const auto& n = tree.node(id);
    if (n.kind == preprocess::NodeKind::Template && n.first_child != preprocess::kNoNode) {
      std::string name = trim(tree.text(tree.node(n.first_child)));
      if (!name.empty() && name[0] == '#') name = lower(name.substr(0, name.find(':')));
      else name = normal_title(name);
      if (!name.empty()) out.push_back({name, line_of(text, n.span.begin)});
    }
    std::vector<preprocess::NodeId> children;
    for (preprocess::NodeId c : tree.children(id)) children.push_back(c);
    stack.insert(stack.end(), children.rbegin(), children.rend());
  }
  return out;
}

bool is_file_namespace(std::string_view ns) {
  // English names and the French, Czech, Dutch, German, Spanish, Polish ones a translator
  // may use (MediaWiki accepts the content language's aliases).
  static const std::set<std::string> names = {"file", "image", "fichier", "soubor", "bestand", "afbeelding",
                                              "datei", "bild", "archivo", "imagen", "plik", "grafika", "media"};
  return names.count(lower(trim(ns))) != 0;
}

/// Wikilinks, split into files and other links.
void links(std::string_view text, std::vector<Item>& files, std::vector<Item>& pages) {
  std::size_t at = 0;
  while ((at = text.find("[[", at)) != std::string_view::npos) {
    std::size_t b = at + 2;
    std::size_t e = b;
    while (e < text.size() && text[e] != '|' && text[e] != ']' && text[e] != '\n' && text.substr(e, 2) != "[[") ++e;
    std::string_view target = text.substr(b, e - b);
    at = b;
    if (trim(target).empty()) continue;
    std::size_t colon = target.find(':');
    std::string_view t = target;
    if (!t.empty() && t.front() == ':') t.remove_prefix(1);  // [[:File:…]] links to the page
    colon = t.find(':');
    if (colon != std::string_view::npos && is_file_namespace(t.substr(0, colon)) && target.front() != ':')
      files.push_back({normal_title(t.substr(colon + 1)), line_of(text, b)});
    else
      pages.push_back({normal_title(t), line_of(text, b)});
  }
}

/// Differences of two multisets: (removed from a, added in b).
std::pair<std::vector<Item>, std::vector<Item>> multiset_diff(const std::vector<Item>& a, const std::vector<Item>& b) {
  std::map<std::string, int> count;
  for (const auto& i : a) ++count[i.key];
  for (const auto& i : b) --count[i.key];
  std::vector<Item> removed, added;
  std::map<std::string, int> left = count;
  for (const auto& i : a)
    if (left[i.key] > 0) {
      removed.push_back(i);
      --left[i.key];
    }
  left = count;
  for (const auto& i : b)
    if (left[i.key] < 0) {
      added.push_back(i);
      ++left[i.key];
    }
  return {removed, added};
}

/// The table and brace structure of a text: what MediaWiki's table parser reads from
/// line starts (doTableStuff: `{|`, `|}`, `|-`, `|+`, `|`, `!` after optional
/// whitespace), and the balance of `{{ }}` and of block-level HTML tags.
struct Shape {
  std::vector<Item> table_lines;       ///< key: the line-start token
  std::vector<std::uint32_t> leaking;  ///< lines where table markup sits mid-line
  int braces = 0;
  std::map<std::string, int> tags;
};

Shape shape(std::string_view text) {
  Shape s;
  std::uint32_t line = 0;
  std::size_t at = 0;
  while (at <= text.size()) {
    std::size_t eol = text.find('\n', at);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view l = text.substr(at, eol - at);
    std::size_t i = 0;
    while (i < l.size() && (l[i] == ' ' || l[i] == '\t')) ++i;
    std::string_view rest = l.substr(i);
    std::string token;
    if (rest.substr(0, 2) == "{|") token = "{|";
    else if (rest.substr(0, 2) == "|}") token = "|}";
    else if (rest.substr(0, 2) == "|-") token = "|-";
    else if (rest.substr(0, 2) == "|+") token = "|+";
    else if (!rest.empty() && (rest[0] == '|' || rest[0] == '!')) token = std::string(1, rest[0]);
    if (!token.empty()) {
      // A cell line's `||` (or a header line's `!!`) separators are part of its shape: one
      // written as `|` merges two cells and shows the rest as text.
      std::size_t separators = 0;
      std::string_view sep = token == "!" ? "!!" : "||";
      if (token == "|" || token == "!")
        for (std::size_t k = rest.find(sep, 1); k != std::string_view::npos; k = rest.find(sep, k + 2)) ++separators;
      s.table_lines.push_back({token + std::to_string(separators), line});
    }
    // Row and table markup after other text on the line is printed as text by MediaWiki:
    // that is how raw `|- class="…"` ends up on a translated page.
    std::size_t from = token.empty() ? 0 : i + token.size();
    for (std::string_view mark : {std::string_view("|-"), std::string_view("{|"), std::string_view("|}")}) {
      std::size_t m = l.find(mark, from);
      if (m != std::string_view::npos && m > i && l.substr(m, 3) != "|}}" && (m == 0 || l[m - 1] != '|') &&
          (m == 0 || l[m - 1] != '{')) {
        s.leaking.push_back(line);
        break;
      }
    }
    at = eol + 1;
    ++line;
  }
  for (std::size_t i = 0; i + 1 < text.size(); ++i) {
    if (text[i] == '{' && text[i + 1] == '{') ++s.braces, ++i;
    else if (text[i] == '}' && text[i + 1] == '}') --s.braces, ++i;
  }
  static const std::set<std::string> block_tags = {"div", "span", "table", "tr", "td", "th", "ul", "ol", "li",
                                                   "center", "big", "small", "p", "blockquote", "gallery", "includeonly",
                                                   "noinclude", "onlyinclude", "nowiki", "ref"};
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '<') continue;
    bool closing = i + 1 < text.size() && text[i + 1] == '/';
    std::size_t b = i + (closing ? 2 : 1), e = b;
    while (e < text.size() && std::isalpha(static_cast<unsigned char>(text[e]))) ++e;
    std::string name = lower(text.substr(b, e - b));
    if (!block_tags.count(name)) continue;
    std::size_t gt = text.find('>', e);
    if (gt == std::string_view::npos) continue;
    if (!closing && text[gt - 1] == '/') continue;  // <tag/>
    s.tags[name] += closing ? -1 : 1;
  }
  return s;
}

// Adjacent repeats are counted ("showC1 ×3") so a class lost on every variant of a row
// reads as one fact, not as a list a translator has to count.
std::string join_keys(const std::vector<Item>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size();) {
    std::size_t j = i + 1;
    while (j < items.size() && items[j].key == items[i].key) ++j;
    out += (out.empty() ? "" : ", ") + items[i].key;
    if (j - i > 1) out += " \u00d7" + std::to_string(j - i);
    i = j;
  }
  return out;
}

bool has_letters(std::string_view s) {
  // Any letter outside markup names is enough: bytes ≥ 0x80 are letters of other scripts.
  for (char c : s)
    if (std::isalpha(static_cast<unsigned char>(c)) || static_cast<unsigned char>(c) >= 0x80) return true;
  return false;
}

}  // namespace

std::vector<std::uint32_t> leaking_table_lines(std::string_view text) {
  std::vector<std::uint32_t> out;
  int depth = 0, braces = 0;
  bool comment = false;
  std::uint32_t line = 1;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t eol = text.find('\n', at);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view l = text.substr(at, eol - at);
    if (braces == 0 && !comment) {
      std::size_t i = 0;
      while (i < l.size() && (l[i] == ' ' || l[i] == '\t')) ++i;
      std::string_view rest = l.substr(i);
      if (rest.substr(0, 2) == "{|") {
        ++depth;
      } else if (!rest.empty() && (rest[0] == '|' || rest[0] == '!')) {
        if (depth == 0) out.push_back(line);
        else if (rest.substr(0, 2) == "|}") --depth;
      }
    }
    // Track template braces and comments for the next line.
    for (std::size_t i = 0; i < l.size(); ++i) {
      if (comment) {
        if (l.substr(i, 3) == "-->") comment = false, i += 2;
      } else if (l.substr(i, 4) == "<!--") {
        comment = true, i += 3;
      } else if (l.substr(i, 2) == "{{") {
        ++braces, ++i;
      } else if (l.substr(i, 2) == "}}" && braces > 0) {
        --braces, ++i;
      }
    }
    at = eol + 1;
    ++line;
  }
  return out;
}

std::vector<Finding> compare_unit(const std::string& unit, std::string_view source, std::string_view translation,
                                  std::string_view raw_translation, const std::vector<Tvar>& tvars,
                                  bool tvars_as_names, const std::string& page, std::uint32_t first_line) {
  std::vector<Finding> out;
  auto add = [&](std::string kind, Severity sev, std::string message, std::vector<std::uint32_t> lines) {
    for (auto& l : lines) l += first_line;
    std::sort(lines.begin(), lines.end());
    lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
    out.push_back({unit, std::move(kind), sev, std::move(message), page, std::move(lines), {}});
  };

  // Tvars first: a missing one takes its value (a file, a template) with it, which is
  // that one finding, not three.
  std::string source_text(source);
  for (const auto& t : tvars) {
    bool present = tvars_as_names ? raw_translation.find("$" + t.name) != std::string_view::npos
                                  : translation.find(t.value) != std::string_view::npos;
    if (present) continue;
    add("tvar-missing", Severity::error, "translation variable $" + t.name + " is missing", {0});
    if (std::size_t at = source_text.find(t.value); at != std::string::npos && !t.value.empty())
      source_text.erase(at, t.value.size());
  }
  source = source_text;

  if (trim(source) == trim(translation)) {
    if (has_letters(source)) add("untranslated-identical", Severity::info, "translation is identical to the source text", {0});
    return out;
  }

  // Classes: a lost show* class changes who sees the content; other classes its look.
  {
    auto a = classes(source), b = classes(translation);
    auto [removed, added] = multiset_diff(a, b);
    std::vector<Item> lost, other_removed, selector_added, other_added;
    for (auto& i : removed) (is_selector(i.key) ? lost : other_removed).push_back(i);
    for (auto& i : added) (is_selector(i.key) ? selector_added : other_added).push_back(i);
    if (!lost.empty() && !selector_added.empty()) {
      // One selector written in place of another: the content now shows for other readers.
      std::vector<std::uint32_t> lines;
      for (auto& i : selector_added) lines.push_back(i.line);
      add("class-changed", Severity::error,
          "selector classes changed: " + join_keys(lost) + " -> " + join_keys(selector_added), lines);
    } else if (!lost.empty()) {
      add("selector-lost", Severity::error, "selector classes missing: " + join_keys(lost), {0});
    } else if (!selector_added.empty()) {
      std::vector<std::uint32_t> lines;
      for (auto& i : selector_added) lines.push_back(i.line);
      add("class-changed", Severity::warning, "selector classes added: " + join_keys(selector_added), lines);
    }
    if (!other_removed.empty() || !other_added.empty()) {
      std::vector<std::uint32_t> lines;
      for (auto& i : other_added) lines.push_back(i.line);
      if (lines.empty()) lines.push_back(0);
      std::string msg;
      if (!other_removed.empty()) msg += "classes removed: " + join_keys(other_removed);
      if (!other_added.empty()) msg += std::string(msg.empty() ? "" : "; ") + "classes added: " + join_keys(other_added);
      add("class-changed", Severity::warning, msg, lines);
    }
  }
  // Point values.
  {
    auto a = bold_numbers(source), b = bold_numbers(translation);
    auto [removed, added] = multiset_diff(a, b);
    if (!removed.empty() || !added.empty()) {
      std::vector<std::uint32_t> lines;
      for (auto& i : added) lines.push_back(i.line);
      if (lines.empty()) lines.push_back(0);
      add("number-changed", Severity::error,
          "bold numbers differ: source " + join_keys(a) + "; translation " + join_keys(b), lines);
    }
  }
  // Templates, files, links: one removed and one added reads as a rename.
  auto report_set = [&](const char* kind, Severity sev, const char* what, const std::vector<Item>& a,
                        const std::vector<Item>& b) {
    auto [removed, added] = multiset_diff(a, b);
    if (removed.empty() && added.empty()) return;
    std::vector<std::uint32_t> lines;
    for (auto& i : added) lines.push_back(i.line);
    if (lines.empty()) lines.push_back(0);
    std::string msg;
    if (removed.size() == 1 && added.size() == 1) {
      msg = std::string(what) + " renamed: " + removed[0].key + " -> " + added[0].key;
    } else {
      if (!removed.empty()) msg += std::string(what) + " removed: " + join_keys(removed);
      if (!added.empty()) msg += std::string(msg.empty() ? "" : "; ") + what + " added: " + join_keys(added);
    }
    add(kind, sev, msg, lines);
  };
  report_set("template-changed", Severity::warning, "templates", templates(source), templates(translation));
  {
    std::vector<Item> fa, la, fb, lb;
    links(source, fa, la);
    links(translation, fb, lb);
    report_set("file-changed", Severity::warning, "files", fa, fb);
    report_set("link-changed", Severity::info, "links", la, lb);
  }
  // Markup that shapes the page.
  {
    Shape a = shape(source), b = shape(translation);
    std::vector<std::uint32_t> lines = b.leaking, leaks = b.leaking;
    std::vector<std::string> what;
    auto token = [](const Item& i) { return i.key.substr(0, i.key.find_first_of("0123456789")); };
    std::size_t n = std::min(a.table_lines.size(), b.table_lines.size());
    bool table_differs = a.table_lines.size() != b.table_lines.size();
    for (std::size_t i = 0; i < n; ++i) {
      if (token(a.table_lines[i]) != token(b.table_lines[i])) {
        table_differs = true;
        lines.push_back(b.table_lines[i].line);
        break;
      }
      if (a.table_lines[i].key != b.table_lines[i].key) {
        // Same line kind, other number of `||`: cells merged or split; a lost separator
        // leaves the rest of the line as text in the wrong cell.
        what.push_back("cell separators differ on a table line");
        lines.push_back(b.table_lines[i].line);
        leaks.push_back(b.table_lines[i].line);
      }
    }
    // A table opened or closed once more than in the source changes every line after it;
    // the culprit is the translation's last `|}` (or `{|`).
    auto balance = [&](const Shape& s, std::uint32_t* last_open, std::uint32_t* last_close) {
      int depth = 0;
      for (const auto& i : s.table_lines) {
        std::string t = token(i);
        if (t == "{|") ++depth, *last_open = i.line;
        if (t == "|}") --depth, *last_close = i.line;
      }
      return depth;
    };
    std::uint32_t ao = 0, ac = 0, bo = 0, bc = 0;
    int da = balance(a, &ao, &ac), db = balance(b, &bo, &bc);
    if (da != db) {
      what.push_back("tables opened minus closed: " + std::to_string(da) + " in the source, " + std::to_string(db) +
                     " in the translation");
      lines.push_back(db < da ? bc : bo);
    }
    if (table_differs) {
      what.push_back("table lines " + std::to_string(a.table_lines.size()) + " in the source, " +
                     std::to_string(b.table_lines.size()) + " in the translation");
      if (n < b.table_lines.size()) lines.push_back(b.table_lines[n].line);
    }
    if (!b.leaking.empty()) what.push_back("table markup after text on a line (shown as text)");
    if (a.braces != b.braces) what.push_back("{{ }} balance " + std::to_string(a.braces) + " in the source, " +
                                             std::to_string(b.braces) + " in the translation");
    std::set<std::string> names;
    for (auto& [k, v] : a.tags) names.insert(k);
    for (auto& [k, v] : b.tags) names.insert(k);
    for (const auto& k : names)
      if (a.tags[k] != b.tags[k])
        what.push_back("<" + k + "> balance " + std::to_string(a.tags[k]) + " in the source, " +
                       std::to_string(b.tags[k]) + " in the translation");
    if (!what.empty()) {
      if (lines.empty()) lines.push_back(0);
      std::string msg = "markup broken: ";
      for (std::size_t i = 0; i < what.size(); ++i) msg += (i ? "; " : "") + what[i];
      add("markup-broken", Severity::error, msg, lines);
      for (auto l : leaks) out.back().leak_lines.push_back(l + first_line);
      std::sort(out.back().leak_lines.begin(), out.back().leak_lines.end());
      out.back().leak_lines.erase(std::unique(out.back().leak_lines.begin(), out.back().leak_lines.end()),
                                  out.back().leak_lines.end());
    }
  }
  return out;
}

}  // namespace wikic::l10n
