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

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <string_view>

#include "support/scan.hpp"

namespace wikic::emit {
namespace {

// ---- the printers ---------------------------------------------------------------------
//
// Each printer takes the same events and appends to its Sink, reused from page to page:
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

// A page's text for one file, written through a raw pointer: each event first reserves
// room for the most it can write (every escape is at most six bytes per input byte, the
// indentation and punctuation fit in `slack`), so single characters and short keys
// cost a store rather than a std::string append each.
class Sink {
public:
  static constexpr std::size_t slack = 160;

  void reserve(std::size_t n) {
    if (static_cast<std::size_t>(end_ - at_) < n) grow(n);
  }
  /// Room for `n` bytes and `slack` more of indentation and punctuation: each writer
  /// below reserves before it writes.
  void reserve_more(std::size_t n) { reserve(slack + n); }
  void put(char c) { *at_++ = c; }
  void put(std::string_view s) {
    std::memcpy(at_, s.data(), s.size());
    at_ += s.size();
  }
  void put(const char* begin, const char* end) { put(std::string_view(begin, end - begin)); }
  void spaces(std::size_t n) {
    std::memset(at_, ' ', n);
    at_ += n;
  }
  std::string_view text() const { return {buf_.get(), static_cast<std::size_t>(at_ - buf_.get())}; }
  void clear() { at_ = buf_.get(); }

private:
  std::unique_ptr<char[]> buf_;
  char* at_ = nullptr;
  char* end_ = nullptr;

  void grow(std::size_t n) {
    std::size_t used = at_ - buf_.get();
    std::size_t size = 2 * static_cast<std::size_t>(end_ - buf_.get());
    size = std::max(size, used + n + 65536);
    auto next = std::make_unique_for_overwrite<char[]>(size);
    if (used > 0) std::memcpy(next.get(), buf_.get(), used);
    buf_ = std::move(next);
    at_ = buf_.get() + used;
    end_ = buf_.get() + size;
  }
};

// Whether no format changes any byte of `s` (no control character, quote, backslash,
// markup character, DEL or non-ASCII byte): then every printer copies it as it is, and
// one scan answers for all three. Most strings of a page are such.
bool verbatim_everywhere(std::string_view s) {
  return support::scan_special<true, '"', '\\', '&', '<', '>', '\x7f'>(s.data(), 0, s.size()) == s.size();
}

// A string no format changes (verbatim_everywhere), in the double quotes JSON and YAML
// both put around it.
void quoted_as_is(Sink& out, std::string_view s) {
  out.reserve_more(s.size());
  out.put('"');
  out.put(s);
  out.put('"');
}

// JSON string as nlohmann's dump prints it with ensure_ascii off: \" \\ \b \f \n \r \t,
// \u00xx for the other control characters, every other byte as is.
void json_string(Sink& out, std::string_view s, bool verbatim) {
  if (verbatim) return quoted_as_is(out, s);
  out.reserve_more(6 * s.size());
  out.put('"');
  std::size_t run = 0;
  for (std::size_t i = 0; (i = support::scan_special<false, '"', '\\'>(s.data(), i, s.size())) < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.put(s.substr(run, i - run));
    run = i + 1;
    switch (c) {
      case '"': out.put("\\\""); break;
      case '\\': out.put("\\\\"); break;
      case '\b': out.put("\\b"); break;
      case '\f': out.put("\\f"); break;
      case '\n': out.put("\\n"); break;
      case '\r': out.put("\\r"); break;
      case '\t': out.put("\\t"); break;
      default: {
        static constexpr char hex[] = "0123456789abcdef";
        out.put("\\u00");
        out.put(hex[c >> 4]);
        out.put(hex[c & 15]);
      }
    }
  }
  out.put(s.substr(run));
  out.put('"');
}

// nlohmann's dump(2): two spaces per level, ",\n" between members, "[]" for an empty list.
class JsonPrinter {
public:
  Sink out;

  void begin_document(std::string_view root, std::string_view version) {
    out.reserve_more(root.size() + version.size());
    out.put('{');
    first_[0] = true;
    member(root);
    out.put('"');
    out.put(version);  // the schema's own version: nothing to escape
    out.put('"');
  }
  void end_document() {
    out.reserve_more(0);
    out.put("\n}\n");
  }
  void string(std::string_view key, std::string_view text, bool verbatim = false) {
    member(key);
    json_string(out, text, verbatim);
  }
  void plain(std::string_view key, std::string_view text) {
    member(key);
    out.reserve(text.size());
    out.put(text);
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
  void item(std::string_view text, bool verbatim = false) {
    next();
    json_string(out, text, verbatim);
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
    out.reserve_more(0);
    out.put(first_[depth_] ? "\n" : ",\n");
    first_[depth_] = false;
    out.spaces(2 * (depth_ + 1));
  }
  void member(std::string_view key) {
    next();
    out.reserve_more(key.size());
    out.put('"');
    out.put(key);  // the layout's own keys need no escaping
    out.put("\": ");
  }
  void open(char c) {
    out.reserve_more(0);
    out.put(c);
    first_[++depth_] = true;
  }
  void close(char c) {
    out.reserve_more(0);
    if (!first_[depth_--]) {
      out.put('\n');
      out.spaces(2 * (depth_ + 1));
    }
    out.put(c);
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
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || (cp & 0xFFFE) == 0xFFFE ||
      (cp >= 0xFDD0 && cp <= 0xFDEF))
    cp = replacement;
  return cp;
}

void utf8(Sink& out, std::uint32_t cp) {
  if (cp <= 0x7F) {
    out.put(static_cast<char>(cp));
  } else if (cp <= 0x7FF) {
    out.put(static_cast<char>(0xC0 | (cp >> 6)));
    out.put(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp <= 0xFFFF) {
    out.put(static_cast<char>(0xE0 | (cp >> 12)));
    out.put(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.put(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.put(static_cast<char>(0xF0 | (cp >> 18)));
    out.put(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.put(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.put(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// yaml-cpp 0.7's Utils::WriteDoubleQuotedString (non-ASCII kept): \" \\ \n \t \r \b \f,
// \xNN for other code points below 0x20 and for U+0080-U+00A0, \ufeff for a byte order
// mark, code points re-encoded after decoding as above. Printable ASCII is copied in runs.
void yaml_string(Sink& out, std::string_view s, bool verbatim) {
  if (verbatim) return quoted_as_is(out, s);
  out.reserve_more(6 * s.size());
  out.put('"');
  const char* p = s.data();
  const char* end = p + s.size();
  const char* run = p;
  static constexpr char hex[] = "0123456789abcdef";
  while (p != end) {
    p = s.data() + support::scan_special<true, '"', '\\'>(s.data(), p - s.data(), s.size());
    if (p == end) break;
    auto c = static_cast<unsigned char>(*p);
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
      ++p;
      continue;
    }
    out.put(run, p);
    std::uint32_t cp = yaml_next_code_point(p, end);
    run = p;
    switch (cp) {
      case '"': out.put("\\\""); break;
      case '\\': out.put("\\\\"); break;
      case '\n': out.put("\\n"); break;
      case '\t': out.put("\\t"); break;
      case '\r': out.put("\\r"); break;
      case '\b': out.put("\\b"); break;
      case '\f': out.put("\\f"); break;
      default:
        if (cp < 0x20 || (cp >= 0x80 && cp <= 0xA0)) {
          out.put("\\x");
          out.put(hex[cp >> 4]);
          out.put(hex[cp & 15]);
        } else if (cp == 0xFEFF) {
          out.put("\\ufeff");
        } else {
          utf8(out, cp);
        }
    }
  }
  out.put(run, p);
  out.put('"');
}

// yaml-cpp's Emitter for block maps (keys at one column, nested maps two further),
// block sequences ("- " two further than their key, the item's map two further still,
// its first key on the dash's line) and flow sequences of scalars ("[a, b]", "[]").
class YamlPrinter {
public:
  Sink out;

  void begin_document(std::string_view root, std::string_view version) {
    stack_[0] = {Kind::map, 0, 0, true};
    member(root);
    out.reserve_more(version.size());
    out.put(": \"");
    out.put(version);  // the schema's own version: nothing to escape
    out.put('"');
  }
  void end_document() {
    out.reserve_more(0);
    out.put('\n');
  }
  void string(std::string_view key, std::string_view text, bool verbatim = false) {
    member(key);
    out.put(": ");
    yaml_string(out, text, verbatim);
  }
  void plain(std::string_view key, std::string_view text) {
    member(key);
    out.reserve_more(text.size());
    out.put(": ");
    out.put(text);
  }
  void begin_object(std::string_view key) {
    member(key);
    out.put(':');
    std::size_t column = stack_[depth_].column + 2;
    stack_[++depth_] = {Kind::map, column, 0, false};
  }
  void end_object() { --depth_; }
  void begin_list(std::string_view key, std::string_view, ListStyle style) {
    member(key);
    std::size_t column = stack_[depth_].column + 2;
    if (style == ListStyle::scalars) {
      out.put(": [");
      stack_[++depth_] = {Kind::flow, column, 0, false};
    } else {
      out.put(':');
      stack_[++depth_] = {Kind::block, column, 0, false};
    }
  }
  void end_list() {
    // An empty list counts as one of scalars: yaml-cpp then wrote it in flow style.
    const Frame& f = stack_[depth_--];
    out.reserve_more(0);
    if (f.kind == Kind::flow) {
      out.put(']');
    } else if (f.count == 0) {
      out.put(" []");
    }
  }
  void item(std::string_view text, bool verbatim = false) {
    Frame& f = stack_[depth_];
    out.reserve_more(0);
    if (f.count++ > 0) out.put(", ");
    yaml_string(out, text, verbatim);
  }
  void begin_item() {
    Frame& f = stack_[depth_];
    ++f.count;
    out.reserve_more(0);
    out.put('\n');
    out.spaces(f.column);
    out.put("- ");
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

  // Also leaves `slack` for what follows the key (": ", ": [").
  void member(std::string_view key) {
    Frame& f = stack_[depth_];
    out.reserve_more(key.size());
    if (f.count++ > 0 || !f.inline_first) {
      out.put('\n');
      out.spaces(f.column);
    }
    out.put(key);
  }
};

// pugixml's print(format_indent, "  "): one element per line, text inline
// (`<a>text</a>`, `<a></a>` for an empty text), `<a />` for an element without
// children. Text escapes & < > as pugixml does; XML 1.0 cannot carry most control
// characters and they never belong in rule text, so they (and DEL) are dropped first.
// Nor can it carry U+FFFE and U+FFFF (valid UTF-8, so ingest lets them through): they
// become U+FFFD, as yaml-cpp writes them in rules.yaml, and rules.xml stays well-formed.
class XmlPrinter {
public:
  Sink out;

  void begin_document(std::string_view root, std::string_view version) {
    out.reserve_more(root.size() + version.size());
    out.put("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<");
    out.put(root);
    out.put(" version=\"");
    out.put(version);  // the schema's own version: nothing to escape
    out.put("\">\n");
    stack_[0] = {root, {}, true};
  }
  void end_document() {
    out.reserve_more(stack_[0].name.size());
    out.put("</");
    out.put(stack_[0].name);
    out.put(">\n");
  }
  void string(std::string_view key, std::string_view text, bool verbatim = false) {
    open_tag(key);
    if (verbatim) {
      out.reserve(text.size());
      out.put(text);
    } else {
      escaped(text);
    }
    close_tag(key);
  }
  void plain(std::string_view key, std::string_view text) {
    open_tag(key);
    out.reserve(text.size());
    out.put(text);
    close_tag(key);
  }
  void begin_object(std::string_view key) { begin(key, {}); }
  void end_object() { end(); }
  void begin_list(std::string_view key, std::string_view singular, ListStyle style) {
    begin(key, singular);
    if (style == ListStyle::streamed) {
      out.reserve_more(0);
      out.put(">\n");
      stack_[depth_].has_children = true;
    }
  }
  void end_list() { end(); }
  void item(std::string_view text, bool verbatim = false) { string(stack_[depth_].singular, text, verbatim); }
  void begin_item() { begin(stack_[depth_].singular, {}); }
  void end_item() { end(); }

private:
  struct Frame {
    std::string_view name, singular;
    bool has_children = false;  ///< the start tag's ">" is written
  };
  Frame stack_[max_depth];
  std::size_t depth_ = 0;

  // Also leaves `slack` for the tag that follows, its name (`name` bytes) not counted.
  void child(std::size_t name) {
    out.reserve_more(name);
    Frame& f = stack_[depth_];
    if (!f.has_children) {
      out.put(">\n");
      f.has_children = true;
    }
    out.spaces(2 * (depth_ + 1));
  }
  void open_tag(std::string_view name) {
    child(name.size());
    out.put('<');
    out.put(name);
    out.put('>');
  }
  void close_tag(std::string_view name) {
    out.reserve_more(name.size());
    out.put("</");
    out.put(name);
    out.put(">\n");
  }
  void begin(std::string_view name, std::string_view singular) {
    child(name.size());
    out.put('<');
    out.put(name);
    stack_[++depth_] = {name, singular, false};
  }
  void end() {
    const Frame& f = stack_[depth_--];
    out.reserve_more(f.name.size());
    if (!f.has_children) {
      out.put(" />\n");
      return;
    }
    out.spaces(2 * (depth_ + 1));
    close_tag(f.name);
  }
  void escaped(std::string_view s) {
    out.reserve_more(6 * s.size());
    std::size_t run = 0;
    for (std::size_t i = 0; (i = support::scan_special<false, '&', '<', '>', '\x7f', '\xef'>(s.data(), i, s.size())) < s.size();
         ++i) {
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
      } else if (c == 0xef && i + 2 < s.size() && s[i + 1] == '\xbf' && (s[i + 2] == '\xbe' || s[i + 2] == '\xbf')) {
        out.put(s.substr(run, i - run));
        out.put("\xef\xbf\xbd");
        i += 2;
        run = i + 1;
        continue;
      } else {
        continue;
      }
      out.put(s.substr(run, i - run));
      out.put(entity);
      run = i + 1;
    }
    out.put(s.substr(run));
  }
};

// ---- the layout -------------------------------------------------------------------------

// Numbers print the same in every format, as nlohmann printed them: integers in full,
// floating-point values by nlohmann's own shortest round-trip formatter ("2.0", "0.5"),
// which the documents have always used (a different formatter could pick other digits;
// it is nlohmann's detail::to_chars, so emit_test compares with dump() to notice a change).
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
void string_list(Out& out, std::string_view key, std::string_view singular,
                 const std::vector<std::string>& items) {
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

// Texts each under a condition relative to the rule: its notes, its text's parts.
template <class Out, class Item>
void conditioned_texts(Out& out, std::string_view key, std::string_view singular, const std::vector<Item>& list) {
  out.begin_list(key, singular, ListStyle::records);
  for (const auto& p : list) {
    out.begin_item();
    out.string("when", p.when);
    variants(out, "text", p.text);
    out.end_item();
  }
  out.end_list();
}

// Written only when the text has parts: most rules have none, and their records stay
// as they were.
template <class Out>
void parts(Out& out, std::string_view key, const std::vector<extract::TextPart>& list) {
  if (!list.empty()) conditioned_texts(out, key, "part", list);
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
  parts(out, "description-parts", r.description_parts);
  variants(out, "rules", r.rules);
  parts(out, "rules-parts", r.rules_parts);
  conditioned_texts(out, "notes", "note", r.notes);
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
  // The format version is the first field in JSON and YAML, the root's attribute in XML.
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

// The three printers take each event together, so a page's strings are read from
// memory once for all three files (most of a page is cold by the time it is written)
// and scanned once when no format changes them.
struct RulesWriter::Printers {
  YamlPrinter yaml;
  XmlPrinter xml;
  JsonPrinter json;

  void begin_document(std::string_view root, std::string_view version) {
    yaml.begin_document(root, version);
    xml.begin_document(root, version);
    json.begin_document(root, version);
  }
  void end_document() {
    yaml.end_document();
    xml.end_document();
    json.end_document();
  }
  void string(std::string_view key, std::string_view text) {
    bool verbatim = verbatim_everywhere(text);
    yaml.string(key, text, verbatim);
    xml.string(key, text, verbatim);
    json.string(key, text, verbatim);
  }
  void plain(std::string_view key, std::string_view text) {
    yaml.plain(key, text);
    xml.plain(key, text);
    json.plain(key, text);
  }
  void begin_object(std::string_view key) {
    yaml.begin_object(key);
    xml.begin_object(key);
    json.begin_object(key);
  }
  void end_object() {
    yaml.end_object();
    xml.end_object();
    json.end_object();
  }
  void begin_list(std::string_view key, std::string_view singular, ListStyle style) {
    yaml.begin_list(key, singular, style);
    xml.begin_list(key, singular, style);
    json.begin_list(key, singular, style);
  }
  void end_list() {
    yaml.end_list();
    xml.end_list();
    json.end_list();
  }
  void item(std::string_view text) {
    bool verbatim = verbatim_everywhere(text);
    yaml.item(text, verbatim);
    xml.item(text, verbatim);
    json.item(text, verbatim);
  }
  void begin_item() {
    yaml.begin_item();
    xml.begin_item();
    json.begin_item();
  }
  void end_item() {
    yaml.end_item();
    xml.end_item();
    json.end_item();
  }
};

// Each file gets one write per page: the printers' strings are handed over and reused.
void RulesWriter::flush() {
  for (auto [os, sink] : {std::pair{&yaml_, &printers_->yaml.out}, std::pair{&xml_, &printers_->xml.out},
                          std::pair{&json_, &printers_->json.out}}) {
    std::string_view text = sink->text();
    os->write(text.data(), static_cast<std::streamsize>(text.size()));
    sink->clear();
  }
}

RulesWriter::RulesWriter(std::ostream& yaml, std::ostream& xml, std::ostream& json, const RulesHeader& header)
    : yaml_(yaml), xml_(xml), json_(json), printers_(std::make_unique<Printers>()) {
  write_header(*printers_, header);
  flush();
}

RulesWriter::~RulesWriter() = default;

void RulesWriter::page(const extract::PageRules& p) {
  totals_.add(p);
  write_page(*printers_, p);
  flush();
}

void RulesWriter::finish() {
  write_summary(*printers_, totals_);
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
