// The rule database written by three direct printers (JSON, YAML, XML) driven by one
// description of the record layout (write_header / write_page / write_summary below),
// so the formats cannot drift apart. The printers are direct because building a
// document per page (nlohmann ordered_json, a yaml-cpp Emitter, a pugixml tree) and
// printing it cost half of `wikic compile`; each one mirrors, byte for byte, what the
// library it replaced printed: nlohmann's dump(2), yaml-cpp 0.7's Emitter with every
// string double-quoted (so no value changes type on reading), pugixml 1.13's
// print(format_indent, "  "). tests/unit/emit_test.cpp keeps those libraries as the
// reference and compares on hostile strings.
#include "emit/rules_writer.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <string_view>

namespace wikic::emit {
namespace {

// ---- the printers ---------------------------------------------------------------------
//
// Each printer takes the same events and appends to one reusable string:
//   begin_document(root, version) … end_document()
//   string(key, text)        a string field
//   plain(key, text)         a number or boolean, already in its text form
//   begin_object(key) … end_object()
//   begin_list(key, singular, style) … end_list(), with item(text) for a string item or
//   begin_item() … end_item() for a record item (XML names items by `singular`).
// Objects of the layout are never empty, lists may be.

enum class ListStyle {
  scalars,   ///< strings only: a flow sequence in YAML
  records,   ///< objects only: a block sequence in YAML (flow "[]" when empty)
  streamed,  ///< records written as they arrive: XML opens the element before knowing
             ///< whether any will come (`<pages>` then `</pages>` even when empty)
};

constexpr std::size_t max_depth = 16;  // the layout nests 7 deep

void spaces(std::string& out, std::size_t n) { out.append(n, ' '); }

// JSON string as nlohmann's dump prints it with ensure_ascii off: \" \\ \b \f \n \r \t,
// \u00xx for the other control characters, every other byte as is.
void json_string(std::string& out, std::string_view s) {
  out += '"';
  std::size_t run = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: {
        static constexpr char hex[] = "0123456789abcdef";
        out += "\\u00";
        out += hex[c >> 4];
        out += hex[c & 15];
      }
    }
  }
  out.append(s.data() + run, s.size() - run);
  out += '"';
}

// nlohmann's dump(2): two spaces per level, ",\n" between members, "[]" for an empty list.
class JsonPrinter {
public:
  std::string out;

  void begin_document(std::string_view root, std::string_view version) {
    out += '{';
    first_[0] = true;
    string(root, version);
  }
  void end_document() { out += "\n}\n"; }
  void string(std::string_view key, std::string_view text) {
    member(key);
    json_string(out, text);
  }
  void plain(std::string_view key, std::string_view text) {
    member(key);
    out += text;
  }
  void begin_object(std::string_view key) {
    member(key);
    open('{');
  }
  void end_object() { close('}'); }
  void begin_list(std::string_view key, std::string_view, ListStyle) {
    member(key);
    open('[');
  }
  void end_list() { close(']'); }
  void item(std::string_view text) {
    next();
    json_string(out, text);
  }
  void begin_item() {
    next();
    open('{');
  }
  void end_item() { close('}'); }

private:
  bool first_[max_depth] = {};
  std::size_t depth_ = 0;

  void next() {
    out += first_[depth_] ? "\n" : ",\n";
    first_[depth_] = false;
    spaces(out, 2 * (depth_ + 1));
  }
  void member(std::string_view key) {
    next();
    out += '"';
    out += key;  // the layout's own keys need no escaping
    out += "\": ";
  }
  void open(char c) {
    out += c;
    first_[++depth_] = true;
  }
  void close(char c) {
    if (!first_[depth_--]) {
      out += '\n';
      spaces(out, 2 * (depth_ + 1));
    }
    out += c;
  }
};

// yaml-cpp 0.7's Utils::GetNextCodePointAndAdvance: the lead byte alone decides the
// length (0x80-0xBF: a bad lead, 0xF8-0xFF: four bytes), overlong forms are accepted,
// a missing trailing byte ends the sequence before it, and surrogates, values above
// U+10FFFF, U+xxFFFE/U+xxFFFF and U+FDD0-U+FDEF become U+FFFD.
std::uint32_t yaml_next_code_point(const char*& p, const char* end) {
  constexpr std::uint32_t replacement = 0xFFFD;
  auto lead = static_cast<unsigned char>(*p);
  int n = 0;
  switch (lead >> 4) {
    case 12: case 13: n = 2; break;
    case 14: n = 3; break;
    case 15: n = 4; break;
    default:
      if (lead < 0x80) {
        ++p;
        return lead;
      }
      ++p;
      return replacement;
  }
  std::uint32_t cp = lead & ~(0xFFu << (7 - n)) & 0xFF;
  ++p;
  for (--n; n > 0; ++p, --n) {
    if (p == end || (static_cast<unsigned char>(*p) & 0xC0) != 0x80) {
      cp = replacement;
      break;
    }
    cp = (cp << 6) | (static_cast<unsigned char>(*p) & 0x3F);
  }
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || (cp & 0xFFFE) == 0xFFFE || (cp >= 0xFDD0 && cp <= 0xFDEF))
    cp = replacement;
  return cp;
}

void utf8(std::string& out, std::uint32_t cp) {
  if (cp <= 0x7F) {
    out += static_cast<char>(cp);
  } else if (cp <= 0x7FF) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp <= 0xFFFF) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// yaml-cpp 0.7's Utils::WriteDoubleQuotedString (non-ASCII kept): \" \\ \n \t \r \b \f,
// \xNN for other code points below 0x20 and for U+0080-U+00A0, \ufeff for a byte order
// mark, code points re-encoded after decoding as above. Printable ASCII is copied in runs.
void yaml_string(std::string& out, std::string_view s) {
  out += '"';
  const char* p = s.data();
  const char* end = p + s.size();
  const char* run = p;
  static constexpr char hex[] = "0123456789abcdef";
  while (p != end) {
    auto c = static_cast<unsigned char>(*p);
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
      ++p;
      continue;
    }
    out.append(run, p - run);
    std::uint32_t cp = yaml_next_code_point(p, end);
    run = p;
    switch (cp) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (cp < 0x20 || (cp >= 0x80 && cp <= 0xA0)) {
          out += "\\x";
          out += hex[cp >> 4];
          out += hex[cp & 15];
        } else if (cp == 0xFEFF) {
          out += "\\ufeff";
        } else {
          utf8(out, cp);
        }
    }
  }
  out.append(run, p - run);
  out += '"';
}

// yaml-cpp's Emitter for block maps (keys at one column, nested maps two further),
// block sequences ("- " two further than their key, the item's map two further still,
// its first key on the dash's line) and flow sequences of scalars ("[a, b]", "[]").
class YamlPrinter {
public:
  std::string out;

  void begin_document(std::string_view root, std::string_view version) {
    stack_[0] = {Kind::map, 0, 0, true};
    string(root, version);
  }
  void end_document() { out += '\n'; }
  void string(std::string_view key, std::string_view text) {
    member(key);
    out += ": ";
    yaml_string(out, text);
  }
  void plain(std::string_view key, std::string_view text) {
    member(key);
    out += ": ";
    out += text;
  }
  void begin_object(std::string_view key) {
    member(key);
    out += ':';
    std::size_t column = stack_[depth_].column + 2;
    stack_[++depth_] = {Kind::map, column, 0, false};
  }
  void end_object() { --depth_; }
  void begin_list(std::string_view key, std::string_view, ListStyle style) {
    member(key);
    std::size_t column = stack_[depth_].column + 2;
    if (style == ListStyle::scalars) {
      out += ": [";
      stack_[++depth_] = {Kind::flow, column, 0, false};
    } else {
      out += ':';
      stack_[++depth_] = {Kind::block, column, 0, false};
    }
  }
  void end_list() {
    // An empty list counts as one of scalars: yaml-cpp then wrote it in flow style.
    const Frame& f = stack_[depth_--];
    out += f.kind == Kind::flow ? "]" : f.count == 0 ? " []" : "";
  }
  void item(std::string_view text) {
    Frame& f = stack_[depth_];
    if (f.count++ > 0) out += ", ";
    yaml_string(out, text);
  }
  void begin_item() {
    Frame& f = stack_[depth_];
    ++f.count;
    out += '\n';
    spaces(out, f.column);
    out += "- ";
    std::size_t column = f.column + 2;
    stack_[++depth_] = {Kind::map, column, 0, true};
  }
  void end_item() { --depth_; }

private:
  enum class Kind { map, block, flow };
  struct Frame {
    Kind kind = Kind::map;
    std::size_t column = 0;  ///< of the keys (map) or dashes (block sequence)
    std::size_t count = 0;
    bool inline_first = false;  ///< the first key follows "- " (or starts the file)
  };
  Frame stack_[max_depth];
  std::size_t depth_ = 0;

  void member(std::string_view key) {
    Frame& f = stack_[depth_];
    if (f.count++ > 0 || !f.inline_first) {
      out += '\n';
      spaces(out, f.column);
    }
    out += key;
  }
};

// pugixml's print(format_indent, "  "): one element per line, text inline
// (`<a>text</a>`, `<a></a>` for an empty text), `<a />` for an element without
// children. Text escapes & < > as pugixml does; XML 1.0 cannot carry most control
// characters and they never belong in rule text, so they (and DEL) are dropped first.
class XmlPrinter {
public:
  std::string out;

  void begin_document(std::string_view root, std::string_view version) {
    out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<";
    out += root;
    out += " version=\"";
    out += version;  // the schema's own version: nothing to escape
    out += "\">\n";
    stack_[0] = {root, {}, true};
  }
  void end_document() {
    out += "</";
    out += stack_[0].name;
    out += ">\n";
  }
  void string(std::string_view key, std::string_view text) {
    open_tag(key);
    escaped(text);
    close_tag(key);
  }
  void plain(std::string_view key, std::string_view text) {
    open_tag(key);
    out += text;
    close_tag(key);
  }
  void begin_object(std::string_view key) { begin(key, {}); }
  void end_object() { end(); }
  void begin_list(std::string_view key, std::string_view singular, ListStyle style) {
    begin(key, singular);
    if (style == ListStyle::streamed) {
      out += ">\n";
      stack_[depth_].has_children = true;
    }
  }
  void end_list() { end(); }
  void item(std::string_view text) { string(stack_[depth_].singular, text); }
  void begin_item() { begin(stack_[depth_].singular, {}); }
  void end_item() { end(); }

private:
  struct Frame {
    std::string_view name, singular;
    bool has_children = false;  ///< the start tag's ">" is written
  };
  Frame stack_[max_depth];
  std::size_t depth_ = 0;

  void child() {
    Frame& f = stack_[depth_];
    if (!f.has_children) {
      out += ">\n";
      f.has_children = true;
    }
    spaces(out, 2 * (depth_ + 1));
  }
  void open_tag(std::string_view name) {
    child();
    out += '<';
    out += name;
    out += '>';
  }
  void close_tag(std::string_view name) {
    out += "</";
    out += name;
    out += ">\n";
  }
  void begin(std::string_view name, std::string_view singular) {
    child();
    out += '<';
    out += name;
    stack_[++depth_] = {name, singular, false};
  }
  void end() {
    const Frame& f = stack_[depth_--];
    if (!f.has_children) {
      out += " />\n";
      return;
    }
    spaces(out, 2 * (depth_ + 1));
    close_tag(f.name);
  }
  void escaped(std::string_view s) {
    std::size_t run = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
      auto c = static_cast<unsigned char>(s[i]);
      const char* entity;
      if (c == '&') {
        entity = "&amp;";
      } else if (c == '<') {
        entity = "&lt;";
      } else if (c == '>') {
        entity = "&gt;";
      } else if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f) {
        entity = "";
      } else {
        continue;
      }
      out.append(s.data() + run, i - run);
      out += entity;
      run = i + 1;
    }
    out.append(s.data() + run, s.size() - run);
  }
};

// ---- the layout -------------------------------------------------------------------------

// Numbers print the same in every format, as nlohmann printed them: integers in full,
// floating-point values by nlohmann's own shortest round-trip formatter ("2.0", "0.5"),
// which the documents have always used (a different formatter could pick other digits).
struct Number {
  char buf[64];
  std::size_t size = 0;
  explicit Number(std::uint64_t v) { size = std::to_chars(buf, buf + sizeof buf, v).ptr - buf; }
  explicit Number(std::int64_t v) { size = std::to_chars(buf, buf + sizeof buf, v).ptr - buf; }
  explicit Number(double v) {
    if (!std::isfinite(v)) {
      size = 4;
      std::char_traits<char>::copy(buf, "null", 4);
      return;
    }
    size = nlohmann::detail::to_chars(buf, buf + sizeof buf, v) - buf;
  }
  std::string_view text() const { return {buf, size}; }
};

template <class Out>
void unsigned_field(Out& out, std::string_view key, std::uint64_t v) {
  out.plain(key, Number(v).text());
}

template <class Out>
void boolean_field(Out& out, std::string_view key, bool v) {
  out.plain(key, v ? "true" : "false");
}

template <class Out>
void string_list(Out& out, std::string_view key, std::string_view singular, const std::vector<std::string>& items) {
  out.begin_list(key, singular, ListStyle::scalars);
  for (const auto& s : items) out.item(s);
  out.end_list();
}

template <class Out>
void variants(Out& out, std::string_view key, const extract::Variants& v) {
  if (v.uniform) {
    out.string(key, v.text);
    return;
  }
  out.begin_object(key);
  out.string("C1", v.c1);
  out.string("C2", v.c2);
  out.string("WE", v.we);
  out.end_object();
}

template <class Out>
void points(Out& out, const extract::Rule& r) {
  if (r.points_unparsed) {
    out.string("points", "unparsed");
    return;
  }
  out.begin_list("points", "entry", ListStyle::records);
  for (const auto& e : r.points) {
    const extract::Points& p = e.points;
    out.begin_item();
    out.string("op", extract::to_string(p.op));
    // A named quantity has no value, unless it is subtracted: then value -1 is its factor.
    if (p.quantity.empty() || p.value < 0) out.plain("value", Number(p.value).text());
    if (!p.quantity.empty()) out.string("quantity", p.quantity);
    if (p.op == extract::PointsOp::fraction) out.plain("denominator", Number(p.denominator).text());
    if (!p.basis.empty()) out.string("basis", p.basis);
    if (!p.per.empty()) out.string("per", p.per);
    if (!p.rounding.empty()) out.string("rounding", p.rounding);
    out.string("when", e.when);
    if (!e.editions.empty()) string_list(out, "editions", "edition", e.editions);
    out.string("text", p.text);
    out.end_item();
  }
  out.end_list();
}

template <class Out>
void rule(Out& out, const extract::Rule& r) {
  out.begin_item();
  out.string("id", r.id);
  if (!r.parent.empty()) out.string("parent", r.parent);
  out.string("section", r.section);
  out.string("phase", r.phase);
  out.string("round", r.round);
  out.string("step", r.step);
  out.string("block", r.block);
  out.string("kind", r.kind);
  boolean_field(out, "core", r.core);
  out.string("when", r.when);
  string_list(out, "atoms", "atom", r.atoms);
  string_list(out, "triggers", "trigger", r.triggers);
  variants(out, "description", r.description);
  variants(out, "rules", r.rules);
  out.begin_list("notes", "note", ListStyle::records);
  for (const auto& n : r.notes) {
    out.begin_item();
    out.string("when", n.when);
    variants(out, "text", n.text);
    out.end_item();
  }
  out.end_list();
  string_list(out, "references", "reference", r.references);
  points(out, r);
  const extract::RuleSource& s = r.source;
  out.begin_object("source");
  out.string("page", s.page);
  unsigned_field(out, "revision", s.revision);
  out.string("file", s.file);
  unsigned_field(out, "line", s.line);
  unsigned_field(out, "column", s.column);
  if (s.offset >= 0) out.plain("offset", Number(s.offset).text());
  out.string("origin", s.origin);
  string_list(out, "chain", "template", s.chain);
  out.end_object();
  out.end_item();
}

template <class Out>
void write_header(Out& out, const RulesHeader& h) {
  out.begin_document("wikic-rules", rules_schema_version);
  out.string("sitename", h.sitename);
  out.string("dump-date", h.dump_date);
  out.string("dump-date-source", "latest revision timestamp");
  out.plain("vocabulary-version", Number(std::int64_t{h.vocabulary_version}).text());
  out.plain("mapping-version", Number(std::int64_t{h.mapping_version}).text());
  out.begin_list("pages", "page", ListStyle::streamed);
}

template <class Out>
void write_page(Out& out, const extract::PageRules& p) {
  out.begin_item();
  out.string("title", p.title);
  unsigned_field(out, "revision", p.revision);
  out.string("timestamp", p.timestamp);
  out.begin_object("scoring-cells");
  unsigned_field(out, "total", p.cells.total);
  unsigned_field(out, "unaccounted", p.cells.unaccounted);
  out.begin_list("uses", "cell-use", ListStyle::records);
  for (const auto& [use, n] : p.cells.by_use) {
    out.begin_item();
    out.string("use", use);
    unsigned_field(out, "count", n);
    out.end_item();
  }
  out.end_list();
  out.end_object();
  out.begin_list("rules", "rule", ListStyle::records);
  for (const auto& r : p.rules) rule(out, r);
  out.end_list();
  out.begin_list("non-rules", "non-rule", ListStyle::records);
  for (const auto& n : p.non_rules) {
    out.begin_item();
    out.string("reason", n.reason);
    out.string("text", n.text);
    unsigned_field(out, "line", n.line);
    unsigned_field(out, "column", n.column);
    unsigned_field(out, "scoring-cells", n.scoring_cells);
    out.end_item();
  }
  out.end_list();
  out.end_item();
}

template <class Out>
void write_summary(Out& out, const RulesTotals& t) {
  out.end_list();  // pages
  out.begin_object("summary");
  unsigned_field(out, "pages", t.pages);
  unsigned_field(out, "rules", t.rules);
  unsigned_field(out, "sub-rules", t.sub_rules);
  unsigned_field(out, "non-rules", t.non_rules);
  unsigned_field(out, "unparsed-points", t.unparsed);
  unsigned_field(out, "id-collisions", t.collisions);
  out.end_object();
  out.end_document();
}

}  // namespace

struct RulesWriter::Printers {
  YamlPrinter yaml;
  XmlPrinter xml;
  JsonPrinter json;

  template <class F>
  void each(F f) {
    f(yaml);
    f(xml);
    f(json);
  }
};

// Each file gets one write per page: the printers' strings are handed over and reused.
void RulesWriter::flush() {
  for (auto [os, text] : {std::pair{&yaml_, &printers_->yaml.out}, std::pair{&xml_, &printers_->xml.out},
                          std::pair{&json_, &printers_->json.out}}) {
    os->write(text->data(), static_cast<std::streamsize>(text->size()));
    text->clear();
  }
}

RulesWriter::RulesWriter(std::ostream& yaml, std::ostream& xml, std::ostream& json, const RulesHeader& header)
    : yaml_(yaml), xml_(xml), json_(json), printers_(std::make_unique<Printers>()) {
  printers_->each([&](auto& out) { write_header(out, header); });
  flush();
}

RulesWriter::~RulesWriter() = default;

void RulesWriter::page(const extract::PageRules& p) {
  totals_.add(p);
  printers_->each([&](auto& out) { write_page(out, p); });
  flush();
}

void RulesWriter::finish() {
  printers_->each([&](auto& out) { write_summary(out, totals_); });
  flush();
}

void RulesTotals::add(const extract::PageRules& p) {
  ++pages;
  rules += p.rules.size();
  sub_rules += p.sub_rules;
  non_rules += p.non_rules.size();
  unparsed += p.unparsed_points;
  collisions += p.id_collisions;
}

std::string RulesTotals::text() const {
  return std::to_string(pages) + (pages == 1 ? " page, " : " pages, ") + std::to_string(rules) + " rules (" +
         std::to_string(sub_rules) + " sub-rules), " + std::to_string(non_rules) + " non-rules, " +
         std::to_string(unparsed) + " unparsed points, " + std::to_string(collisions) + " id collisions";
}

RulesDatabase::Files RulesDatabase::render() const {
  std::ostringstream y, x, j;
  RulesWriter w(y, x, j, header);
  for (const auto& p : pages_) w.page(p);
  w.finish();
  return {y.str(), x.str(), j.str()};
}

std::string RulesDatabase::to_json() const { return render().json; }
std::string RulesDatabase::to_yaml() const { return render().yaml; }
std::string RulesDatabase::to_xml() const { return render().xml; }

std::string RulesDatabase::summary() const {
  RulesTotals t;
  for (const auto& p : pages_) t.add(p);
  return t.text();
}

}  // namespace wikic::emit
