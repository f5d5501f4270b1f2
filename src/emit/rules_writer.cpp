// The rule database written by three direct printers (JSON, YAML, XML) driven by one
// description of the record layout (write_header / write_page / write_summary below),
// so the formats cannot drift apart. The printers are direct because building a
// document per page (nlohmann ordered_json, a yaml-cpp Emitter, a pugixml tree) and
// printing it cost half of `wikic compile`; each one mirrors, byte for byte, what the
// library it replaced printed: nlohmann's dump(2), yaml-cpp 0.7's Emitter with every
// string double-quoted (so no value changes type on reading), pugixml 1.13's
// print(format_indent, "  "). In JSON and XML, the machine formats, each rule and
// non-rule is one line (dump(), print(format_raw)): a third less to write and store,
// and a line per record for grep and diff; rules.yaml stays laid out for reading.
// tests/unit/emit_test.cpp keeps those libraries as the reference and compares on
// hostile strings.
#include "emit/rules_writer.hpp"

#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <string_view>
#include <type_traits>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "emit/printing.hpp"
#include "support/scan.hpp"

namespace wikic::emit {
namespace {

using printing::Key;
using printing::Sink;
using printing::operator""_key;

// ---- the printers ---------------------------------------------------------------------
//
// Each printer takes the same events and writes them through its Sink, in place in its
// file (RulesWriter::flush hands each page's bytes over):
//   begin_document(root, version) … end_document()
//   string(key, text)        a string field
//   plain(key, text)         a number or boolean, already in its text form, in a buffer
//                            readable for plain_room bytes (copied in one piece, put_short)
//   begin_object(key) … end_object()
//   begin_list(key, singular, style) … end_list(), with item(text) for a string item or
//   begin_item() … end_item() for a record item (XML names items by `singular`).
//   empty_list(key)          a list without items: what begin_list … end_list write
//                            then, in one event (two or three of a rule's lists are empty)
// Objects of the layout are never empty, lists may be. Every event reserves first what
// it writes (the text's bytes, escaped at most six to one, and Sink::slack of names,
// indentation and punctuation) and then writes without checking. The records of a
// `lines` list are written by record() in the layout below, between begin_record() and
// end_record(): their events (`in_record` true) leave out the reservation (the record
// reserved room for the events up to its next check), and JSON and XML write them on
// one line without keeping the state the other events consult (see
// JsonPrinter::begin_record).

enum class ListStyle {
  scalars,   ///< strings only: a flow sequence in YAML
  records,   ///< objects only: a block sequence in YAML (flow "[]" when empty)
  streamed,  ///< records written as they arrive: XML opens the element before knowing
             ///< whether any will come (`<pages>` then `</pages>` even when empty)
  lines,     ///< records, each on one line of its own in JSON and XML (YAML: as records),
             ///< every one written by record()
};

constexpr std::size_t max_depth = 14;  // the layout nests 7 deep
// A plain value's text is at most 25 bytes (a double's 17 digits, sign, point and
// exponent); its buffer is readable this far, so it is copied in one piece (put_short).
constexpr std::size_t plain_room = 32;
/// A plain value's text at `at`, copied `W` bytes wide (a number's: 8 where it fits,
/// else plain_room, see number_field), or with `W` 0 as narrow as its length allows (a
/// digit's or a boolean's, whose length is known where it is written).
template <std::size_t W>
char* put_value(char* at, std::string_view text) {
  return printing::put_width<W>(at, text.data(), text.size());
}
// Inside a record of a `lines` list (see record()), room is checked only at a long text,
// a list's item and a field run: each asks for what it writes and record_room more, so
// that the events up to the next check fit without one. Between two checks the layout
// has some twenty-five events (a rule whose lists are empty); each writes at most two
// Sink::slack of names and punctuation and its text, six bytes to one, if that is short.
// Room for 64 leaves a layout that grows some margin; most texts count as short, since
// each long one's check is a call.
constexpr std::size_t short_text = 256;
constexpr std::size_t record_room = 64 * (2 * Sink::slack + 6 * short_text);
// Indentation is two columns a level in every format, plus the list item's dash in YAML.
static_assert(2 * (max_depth + 1) <= printing::Breaks::most);

// The bytes some format changes: control characters, quote, backslash, markup
// characters, DEL and every non-ASCII byte (yaml-cpp decodes and re-encodes them).
constexpr bool special_byte(unsigned char c) {
  return c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '&' || c == '<' || c == '>';
}

#ifdef __SSE2__
// Which of sixteen bytes are no special_byte (all ones), in ten vector operations: the
// printable ASCII bytes, 0x20 to 0x7e, are those below -33 (signed) once 0x60 is added;
// '"' and '&', '<' and '>' differ in one bit each. (Written as the bytes that are not
// special, to be and-ed: as the special ones, to be or-ed, GCC turned the range test
// into a negated compare, an operation and a copy more for each sixteen bytes.)
WIKIC_SCAN_INLINE __m128i printable_bytes(__m128i v) {
  return _mm_cmpgt_epi8(_mm_set1_epi8(-33), _mm_add_epi8(v, _mm_set1_epi8(0x60)));
}
WIKIC_SCAN_INLINE __m128i ordinary_bytes(__m128i v) {
  __m128i printable = printable_bytes(v);
  __m128i marked = _mm_cmpeq_epi8(_mm_or_si128(v, _mm_set1_epi8(0x04)), _mm_set1_epi8(0x26));
  marked = _mm_or_si128(marked, _mm_cmpeq_epi8(_mm_or_si128(v, _mm_set1_epi8(0x02)), _mm_set1_epi8(0x3e)));
  marked = _mm_or_si128(marked, _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
  return _mm_andnot_si128(marked, printable);
}

// copy_if_verbatim's test, cheaper than ordinary_bytes because it may mark more: '^',
// '|' and '~'. A text marked for them alone takes the exact path (text_changed), which
// writes what the printers would have copied; few rule texts hold them (42 of a seed
// page's 56,000 strings). The printable bytes by printable_bytes, as ordinary_bytes; '"'
// and '&' (one bit apart) and '<' '>' '\\' (equal to '~' in every bit that 0x62 does
// not set) as two compares.
WIKIC_SCAN_INLINE __m128i marked_bytes(__m128i v) {
  __m128i quote_amp = _mm_cmpeq_epi8(_mm_or_si128(v, _mm_set1_epi8(0x04)), _mm_set1_epi8(0x26));
  return _mm_or_si128(quote_amp, _mm_cmpeq_epi8(_mm_or_si128(v, _mm_set1_epi8(0x62)), _mm_set1_epi8(0x7e)));
}
/// A bit for each byte of `v` that may be special (see printable_bytes).
WIKIC_SCAN_INLINE int maybe_special(__m128i v) {
  return _mm_movemask_epi8(_mm_andnot_si128(marked_bytes(v), printable_bytes(v))) ^ 0xffff;
}

template <class Word>
Word load(const char* p) {
  Word w;
  std::memcpy(&w, p, sizeof w);
  return w;
}
#endif

#ifdef __SSE2__
/// The bytes of `s` (at most 64 of them) for which `hit` is set, sixteen at a time, as
/// a bit each: one pass over at most four vectors, where scan_special goes on a byte at
/// a time after the last whole sixteen. A text shorter than sixteen bytes is tested in
/// a vector of spaces, which no `hit` below marks.
template <class Hit>
WIKIC_SCAN_INLINE std::uint64_t byte_mask(std::string_view s, Hit hit) {
  const char* p = s.data();
  std::size_t n = s.size();
  auto bits = [&](const char* at) {
    return static_cast<std::uint64_t>(_mm_movemask_epi8(hit(_mm_loadu_si128(reinterpret_cast<const __m128i*>(at)))));
  };
  if (n < 16) {
    // As copy_if_verbatim loads them: two overlapping words, the rest spaces.
    constexpr std::int32_t spaces = 0x20202020;
    if (n >= 8) {
      auto m = static_cast<std::uint64_t>(_mm_movemask_epi8(hit(_mm_set_epi64x(load<std::int64_t>(p + n - 8), load<std::int64_t>(p)))));
      return (m & 0xff) | (m >> 8) << (n - 8);
    }
    if (n >= 4) {
      auto m = static_cast<std::uint64_t>(
          _mm_movemask_epi8(hit(_mm_set_epi32(spaces, spaces, load<std::int32_t>(p + n - 4), load<std::int32_t>(p)))));
      return (m & 0xf) | (m >> 4 & 0xf) << (n - 4);
    }
    alignas(16) char padded[16];
    _mm_store_si128(reinterpret_cast<__m128i*>(padded), _mm_set1_epi8(' '));
    printing::put_text(padded, s);
    return bits(padded);
  }
  std::uint64_t mask = 0;
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) mask |= bits(p + i) << i;
  // The last sixteen bytes overlap the ones before: only those past `i` count.
  if (i < n) mask |= bits(p + n - 16) >> (16 - (n - i)) << i;
  return mask;
}

/// The bytes yaml_string and json_string change, as scan_special<true, '"', '\\'> stops
/// at them: below 0x20 or from 0x80 up (negative, signed), quote and backslash.
WIKIC_SCAN_INLINE __m128i quoted_special(__m128i v) {
  __m128i hit = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
  hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
  return _mm_or_si128(hit, _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
}
/// The bytes some format changes (not ordinary_bytes): those XmlPrinter::escaped looks
/// at are among them.
WIKIC_SCAN_INLINE __m128i special_bytes(__m128i v) { return _mm_xor_si128(ordinary_bytes(v), _mm_set1_epi8(-1)); }
#endif

/// Whether neither YAML nor JSON changes a byte of `s` (see text_changed).
inline bool quotes_change_nothing(std::string_view s) {
#ifdef __SSE2__
  if (s.size() <= 64) return byte_mask(s, quoted_special) == 0;
#endif
  return support::scan_special<true, '"', '\\'>(s.data(), 0, s.size()) == s.size();
}

// Copies `s` to the three files at once and answers 0 where no format changes any of
// its bytes (else a mask of lanes that may hold one, in no order a caller may use; an
// int, so that the lengths' paths meet before its one test): then those copies are what
// every printer writes, and one look at each byte answers for all three; otherwise they
// lie in room reserved for the escaped text, which the printers write over. Most strings
// of a page are such, and short (half of a seed page's are below 16 bytes): a length
// from 4 up to 16 bytes is two overlapping loads (the rest of the vector spaces), a
// longer one sixteen bytes a step with an overlapping last step, below 4 the first,
// middle and last byte. Each piece loaded is checked and stored three times where it was
// loaded, so a long text costs no call to memcpy per file.
WIKIC_SCAN_INLINE int copy_if_verbatim(char* to0, char* to1, char* to2, std::string_view s) {
  const char* p = s.data();
  std::size_t n = s.size();
#ifdef __SSE2__
  auto store = [&](std::size_t at, __m128i v) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(to0 + at), v);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(to1 + at), v);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(to2 + at), v);
  };
  if (n >= 16) {
    // The range is tested once, on the least and greatest byte of the whole text (kept
    // unsigned: 0x20 to 0x7e is one range there), the marks on every vector.
    __m128i last = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + n - 16));
    __m128i least = last, greatest = last, marked = marked_bytes(last);
    for (std::size_t i = 0; i + 16 < n; i += 16) {
      __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
      least = _mm_min_epu8(least, v);
      greatest = _mm_max_epu8(greatest, v);
      marked = _mm_or_si128(marked, marked_bytes(v));
      store(i, v);
    }
    store(n - 16, last);
    __m128i ordinary = _mm_andnot_si128(marked, _mm_and_si128(printable_bytes(least), printable_bytes(greatest)));
    return _mm_movemask_epi8(ordinary) ^ 0xffff;
  }
  auto copy = [&](std::size_t at, auto word) {
    std::memcpy(to0 + at, &word, sizeof word);
    std::memcpy(to1 + at, &word, sizeof word);
    std::memcpy(to2 + at, &word, sizeof word);
  };
  if (n >= 8) {
    auto head = load<std::int64_t>(p), tail = load<std::int64_t>(p + n - 8);
    copy(0, head);
    copy(n - 8, tail);
    return maybe_special(_mm_set_epi64x(tail, head));
  }
  constexpr std::int32_t spaces = 0x20202020;
  if (n >= 4) {
    auto head = load<std::int32_t>(p), tail = load<std::int32_t>(p + n - 4);
    copy(0, head);
    copy(n - 4, tail);
    return maybe_special(_mm_set_epi32(spaces, spaces, tail, head));
  }
  if (n == 0) return 0;
  // The first, middle and last byte cover every length from 1 to 3 (as put_text copies
  // them): put in their places in one word, stored whole (what lies past the text in it
  // is room that the printers write over next, as after every padded copy) and checked
  // padded with spaces. One store a file, and few enough registers that text_event
  // saves none.
  auto byte = [&](std::size_t at) { return std::uint32_t{static_cast<unsigned char>(p[at])}; };
  std::uint32_t word = byte(0) | byte(n / 2) << (8 * (n / 2)) | byte(n - 1) << (8 * (n - 1));
  copy(0, word);
  return maybe_special(_mm_set_epi32(spaces, spaces, spaces, static_cast<std::int32_t>(word | 0x20202020u << (8 * n))));
#else
  bool special = false;
  for (std::size_t i = 0; i < n; ++i) {
    special |= special_byte(static_cast<unsigned char>(p[i]));
    to0[i] = to1[i] = to2[i] = p[i];
  }
  return special;
#endif
}

// JSON string as nlohmann's dump prints it with ensure_ascii off: \" \\ \b \f \n \r \t,
// \u00xx for the other control characters, every other byte as is. Reserves for itself.
void json_string(Sink& out, std::string_view s) {
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

using printing::line_break;
using printing::put;

// The printers below write each event at a cursor (Sink::reserve_more … commit) and
// read their own state into locals before writing: a byte stored could be any object.

// nlohmann's dump(2): two spaces per level, ",\n" between members, "[]" for an empty list;
// a record of a `lines` list is one line, as nlohmann's dump() prints it (no spaces).
class JsonPrinter {
public:
  Sink out;

  void begin_document(const Key& root, std::string_view version) {
    char* at = put(out.reserve_more(version.size()), '{');
    first_[0] = true;
    at = member(at, root.json);
    out.commit(printing::quoted_as_is(at, version));  // the schema's own version: nothing to escape
  }
  void end_document() { out.commit(put(out.reserve_more(0), "\n}\n")); }
  /// Where a string field's (`key`, a `field`, its forms copied `W` bytes wide) or a
  /// list's string item's text goes, after its opening quote; text_end writes the rest.
  template <bool field, std::size_t W>
  char* text_head(const Key* key, std::size_t size) {
    char* at = out.reserve_more(size);
    if constexpr (field) return printing::put_form<W>(next(at), key->json_text);
    return put(next(at), '"');
  }
  /// The text after text_head's `at`: if `verbatim`, the closing quote after it was
  /// copied to `at` as it is; otherwise the text escaped, from its opening quote on.
  void text_end(char* at, std::string_view text, bool verbatim) {
    if (verbatim) return out.commit(put(at + text.size(), '"'));
    out.commit(at - 1);
    json_string(out, text);
  }
  template <std::size_t W = 0>
  void plain(const Key& key, std::string_view text) {
    char* at = member(out.reserve_more(text.size()), key.json);
    out.commit(put_value<W>(at, text));
  }
  void begin_object(const Key& key) { open(member(out.reserve_more(0), key.json), '{'); }
  void end_object() { close('}'); }
  void begin_list(const Key& key, const Key&, ListStyle) { open(member(out.reserve_more(0), key.json), '['); }
  void end_list() { close(']'); }
  void empty_list(const Key& key) { out.commit(put(member(out.reserve_more(0), key.json), "[]")); }
  void begin_item() { open(next(out.reserve_more(0)), '{'); }
  void end_item() { close('}'); }
  std::size_t depth() const { return depth_; }

  // A record of a `lines` list (record(), in the layout below), on one line: every member and item
  // inside it is written with a comma after it, and the end of an object or list writes
  // its bracket over the last one's (the layout's objects and the lists it begins are
  // never empty). So nothing inside asks whether a member is the first, or how deep it
  // is. The record reserved room for what it writes (see record()).
  void begin_record() { out.commit(put(next(out.reserve_more<false>(0)), '{')); }
  void end_record() { out.reserve_more<false>(0)[-1] = '}'; }
  template <bool field, std::size_t W>
  char* record_text_head(const Key* key) {
    char* at = out.reserve_more<false>(0);
    if constexpr (field) return printing::put_form<W>(at, key->json_inline_text);
    return put(at, '"');
  }
  void record_text_end(char* at, std::string_view text, bool verbatim) {
    if (verbatim) return out.commit(put(at + text.size(), "\","));
    out.commit(at - 1);
    json_string(out, text);
    out.put(',');
  }
  template <std::size_t W = 0>
  [[gnu::always_inline]] void record_plain(const Key& key, std::string_view text) {
    char* at = put(out.reserve_more<false>(0), key.json_inline);
    out.commit(put(put_value<W>(at, text), ','));
  }
  void record_begin_object(const Key& key) { out.commit(put(put(out.reserve_more<false>(0), key.json_inline), '{')); }
  void record_begin_list(const Key& key) { out.commit(put(put(out.reserve_more<false>(0), key.json_inline), '[')); }
  void record_empty_list(const Key& key) {
    out.commit(put(put(out.reserve_more<false>(0), key.json_inline), "[],"));
  }
  void record_begin_item() { out.commit(put(out.reserve_more<false>(0), '{')); }
  /// The end of an object, list or item: its bracket over the last member's comma.
  void record_end(char bracket) {
    char* at = out.reserve_more<false>(0);
    at[-1] = bracket;
    out.commit(put(at, ','));
  }

private:
  bool first_[max_depth] = {};
  std::size_t depth_ = 0;

  char* next(char* at) {
    std::size_t depth = depth_;
    bool first = first_[depth];
    first_[depth] = false;
    return line_break(at, !first, 2 * (depth + 1));
  }
  /// A member's name in `form`, on a line of its own. The layout's own keys need no
  /// escaping.
  char* member(char* at, const Key::Form& form) { return put(next(at), form); }
  void open(char* at, char c) {
    first_[++depth_] = true;
    out.commit(put(at, c));
  }
  void close(char c) {
    char* at = out.reserve_more(0);
    std::size_t depth = depth_--;
    if (!first_[depth]) at = line_break(at, false, 2 * depth);
    out.commit(put(at, c));
  }
};
// yaml-cpp's Emitter for block maps (keys at one column, nested maps two further),
// block sequences ("- " two further than their key, the item's map two further still,
// its first key on the dash's line) and flow sequences of scalars ("[a, b]", "[]").
class YamlPrinter {
public:
  Sink out;

  void begin_document(const Key& root, std::string_view version) {
    stack_[0] = {Kind::map, 0, 0, true};
    char* at = put(member(out.reserve_more(version.size()), root), ": ");
    out.commit(printing::quoted_as_is(at, version));  // the schema's own version: nothing to escape
  }
  void end_document() { out.commit(put(out.reserve_more(0), '\n')); }
  /// Where a string field's (`key`, a `field`) or a flow sequence's item's text goes,
  /// after its opening quote; text_end writes the rest.
  template <bool field, std::size_t W>
  char* text_head(const Key* key, std::size_t size) {
    char* at = out.reserve_more(size);
    if constexpr (field) return printing::put_form<W>(line(at), key->yaml_text);
    if (stack_[depth_].count++ > 0) at = put(at, ", ");
    return put(at, '"');
  }
  /// As JsonPrinter::text_end.
  void text_end(char* at, std::string_view text, bool verbatim) {
    if (verbatim) return out.commit(put(at + text.size(), '"'));
    out.commit(at - 1);
    printing::yaml_string(out, text);
  }
  template <std::size_t W = 0>
  void plain(const Key& key, std::string_view text) {
    char* at = put(member(out.reserve_more(text.size()), key), ": ");
    out.commit(put_value<W>(at, text));
  }
  void begin_object(const Key& key) {
    std::size_t column = stack_[depth_].column + 2;
    out.commit(put(member(out.reserve_more(0), key), ':'));
    stack_[++depth_] = {Kind::map, column, 0, false};
  }
  void end_object() { --depth_; }
  void begin_list(const Key& key, const Key&, ListStyle style) {
    std::size_t column = stack_[depth_].column + 2;
    char* at = member(out.reserve_more(0), key);
    if (style == ListStyle::scalars) {
      out.commit(put(at, ": ["));
      stack_[++depth_] = {Kind::flow, column, 0, false};
    } else {
      out.commit(put(at, ':'));
      stack_[++depth_] = {Kind::block, column, 0, false};
    }
  }
  void end_list() {
    // An empty list counts as one of scalars: yaml-cpp then wrote it in flow style.
    Frame f = stack_[depth_--];
    char* at = out.reserve_more(0);
    if (f.kind == Kind::flow) {
      at = put(at, ']');
    } else if (f.count == 0) {
      at = put(at, " []");
    }
    out.commit(at);
  }
  /// "[]" in flow style, for scalars and records alike (as end_list writes it).
  void empty_list(const Key& key) { out.commit(put(member(out.reserve_more(0), key), ": []")); }
  void begin_item() {
    Frame& f = stack_[depth_];
    ++f.count;
    std::size_t column = f.column;
    out.commit(put(line_break(out.reserve_more(0), false, column), "- "));
    stack_[++depth_] = {Kind::map, column + 2, 0, true};
  }
  void end_item() { --depth_; }

  // A record of a `lines` list (record(), in the layout below), inside which each line
  // break comes after a member, with the indentation of the member that would follow
  // it in the same map: what ends a map or an item takes back the two columns it
  // indented further, and the record's end its last line break. So nothing inside asks
  // whether a member is the first after "- "; only the current column is kept, and
  // whether each open list is a flow sequence. The layout's objects and the lists it
  // begins there are never empty. The record reserved room for what it writes.
  void begin_record() {
    Frame& f = stack_[depth_];
    ++f.count;
    std::size_t column = f.column;
    out.commit(put(line_break(out.reserve_more<false>(0), false, column), "- "));
    column_ = column + 2;
    flow_ = 0;
  }
  void end_record() { out.commit(out.reserve_more<false>(0) - 1 - column_); }
  template <bool field, std::size_t W>
  char* record_text_head(const Key* key) {
    char* at = out.reserve_more<false>(0);
    if constexpr (field) return printing::put_form<W>(at, key->yaml_text);
    return put(at, '"');
  }
  /// As text_end, then the line break after a field or the ", " after a flow item.
  template <bool field>
  void record_text_end(char* at, std::string_view text, bool verbatim) {
    if (verbatim) {
      at = put(at + text.size(), '"');
    } else {
      out.commit(at - 1);
      printing::yaml_string(out, text);
      at = out.reserve_more<false>(0);
    }
    if constexpr (field) return out.commit(line_break(at, false, column_));
    out.commit(put(at, ", "));
  }
  template <std::size_t W = 0>
  [[gnu::always_inline]] void record_plain(const Key& key, std::string_view text) {
    char* at = put(put(out.reserve_more<false>(0), key.yaml), ": ");
    at = put_value<W>(at, text);
    out.commit(line_break(at, false, column_));
  }
  void record_begin_object(const Key& key) {
    column_ += 2;
    out.commit(line_break(put(put(out.reserve_more<false>(0), key.yaml), ':'), false, column_));
  }
  void record_begin_list(const Key& key, ListStyle style) {
    char* at = put(out.reserve_more<false>(0), key.yaml);
    bool flow = style == ListStyle::scalars;
    flow_ = flow_ << 1 | flow;
    if (flow) return out.commit(put(at, ": ["));
    column_ += 2;
    out.commit(line_break(put(at, ':'), false, column_));
  }
  void record_end_list() {
    char* at = out.reserve_more<false>(0) - 2;  // the last item's ", ", or the dash's indentation
    bool flow = flow_ & 1;
    flow_ >>= 1;
    if (flow) return out.commit(line_break(put(at, ']'), false, column_));
    column_ -= 2;
    out.commit(at);
  }
  [[gnu::always_inline]] void record_empty_list(const Key& key) {
    char* at = put(put(out.reserve_more<false>(0), key.yaml), ": []");
    out.commit(line_break(at, false, column_));
  }
  void record_begin_item() {
    column_ += 2;
    out.commit(put(out.reserve_more<false>(0), "- "));
  }
  /// The end of a map (an object or an item): back to its parent's column.
  void record_end_map() {
    column_ -= 2;
    out.commit(out.reserve_more<false>(0) - 2);
  }

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
  std::size_t column_ = 0;  ///< inside a record: of the current map's keys or list's dashes
  std::uint32_t flow_ = 0;  ///< inside a record: a bit an open list, set for a flow sequence

  /// The line a member of the current map starts.
  char* line(char* at) {
    Frame& f = stack_[depth_];
    std::size_t column = f.column;
    if (f.count++ > 0 || !f.inline_first) at = line_break(at, false, column);
    return at;
  }
  char* member(char* at, const Key& key) { return put(line(at), key.yaml); }
};

// pugixml's print(format_indent, "  "): one element per line, text inline
// (`<a>text</a>`, `<a></a>` for an empty text), `<a />` for an element without
// children; a record of a `lines` list is one line, as pugixml prints an element with
// format_raw (no indentation or line breaks inside, `<a/>` without the space). Text
// escapes & < > as pugixml does; XML 1.0 cannot carry most control characters and
// they never belong in rule text, so they (and DEL) are dropped first.
// Nor can it carry U+FFFE and U+FFFF (valid UTF-8, so ingest lets them through): they
// become U+FFFD, as yaml-cpp writes them in rules.yaml, and rules.xml stays well-formed.
class XmlPrinter {
public:
  Sink out;

  void begin_document(const Key& root, std::string_view version) {
    char* at = put(out.reserve_more(version.size()), "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    at = put(start_tag(at, root), " version=\"");
    at = put(at, version);  // the schema's own version: nothing to escape
    out.commit(put(at, "\">\n"));
    stack_[0] = {&root, nullptr, true};
  }
  void end_document() { out.commit(printing::put_form<Key::room>(out.reserve_more(0), stack_[0].name->xml_close)); }
  /// The element a string field's text (`key`, a `field`) or a list's string item
  /// goes in: the list's singular names an item.
  template <bool field>
  const Key& text_element(const Key* key) const {
    if constexpr (field) return *key;
    return *stack_[depth_].singular;
  }
  /// Where the text goes, after its start tag; text_end writes the rest. A field's
  /// name is copied `W` bytes wide, an item's (the list's singular) `Key::room`.
  template <bool field, std::size_t W>
  char* text_head(const Key* key, std::size_t size) {
    return printing::put_form<field ? W : Key::room>(child(out.reserve_more(size)), text_element<field>(key).xml_open);
  }
  /// The text after text_head's `at`: if `verbatim`, the end tag after it was copied
  /// to `at` as it is; otherwise the text escaped and then the end tag. Whether YAML
  /// and JSON keep every byte of the text (see escaped).
  template <bool field, std::size_t W>
  bool text_end(char* at, const Key* key, std::string_view text, bool verbatim) {
    const Key::Form& end_tag = text_element<field>(key).xml_close;
    constexpr std::size_t width = field ? W : Key::room;
    if (verbatim) {
      out.commit(printing::put_form<width>(at + text.size(), end_tag));
      return true;
    }
    out.commit(at);
    bool quoted_verbatim;
    out.commit(printing::put_form<width>(escaped(text, quoted_verbatim), end_tag));
    return quoted_verbatim;
  }
  template <std::size_t W = 0>
  void plain(const Key& key, std::string_view text) {
    char* at = put(child(out.reserve_more(text.size())), key.xml_open);
    out.commit(put(put_value<W>(at, text), key.xml_close));
  }
  void begin_object(const Key& key) { begin(key, nullptr); }
  void end_object() { end(); }
  void begin_list(const Key& key, const Key& singular, ListStyle style) {
    begin(key, &singular);
    if (style == ListStyle::streamed) {
      out.commit(put(out.reserve_more(0), ">\n"));
      stack_[depth_].has_children = true;
    }
  }
  void end_list() { end(); }
  /// An element without children, as end() closes one (never a streamed list, whose
  /// start tag is written whole).
  void empty_list(const Key& key) { out.commit(put(start_tag(child(out.reserve_more(0)), key), " />\n")); }
  void begin_item() { begin(*stack_[depth_].singular, nullptr); }
  void end_item() { end(); }

  // A record of a `lines` list (record(), in the layout below), on one line: the layout's objects
  // and the lists it begins there are never empty, so each start tag is written whole
  // at once and nothing inside asks whether an element has children yet or how deep it
  // is; only the names of the open elements are kept, for their end tags. The record
  // reserved room for what it writes.
  void begin_record() {
    const Key& name = *stack_[depth_].singular;
    out.commit(printing::put_form<Key::room>(child(out.reserve_more<false>(0)), name.xml_open));
    stack_[++depth_] = {&name, nullptr, true};
  }
  void end_record() {
    out.commit(printing::put_form<Key::room>(out.reserve_more<false>(0), stack_[depth_--].name->xml_close));
  }
  template <bool field, std::size_t W>
  char* record_text_head(const Key* key) {
    return printing::put_form<field ? W : Key::room>(out.reserve_more<false>(0), text_element<field>(key).xml_open);
  }
  /// As text_end.
  template <bool field, std::size_t W>
  bool record_text_end(char* at, const Key* key, std::string_view text, bool verbatim) {
    const Key& name = text_element<field>(key);
    constexpr std::size_t width = field ? W : Key::room;
    if (verbatim) {
      out.commit(inline_end_tag<width>(at + text.size(), name));
      return true;
    }
    out.commit(at);
    bool quoted_verbatim;
    out.commit(inline_end_tag<width>(escaped(text, quoted_verbatim), name));
    return quoted_verbatim;
  }
  template <std::size_t W = 0>
  [[gnu::always_inline]] void record_plain(const Key& key, std::string_view text) {
    char* at = put(out.reserve_more<false>(0), key.xml_open);
    out.commit(inline_end_tag(put_value<W>(at, text), key));
  }
  /// An element of the layout's own (`name` known where it is written), or with `W`
  /// Key::room a list's item, named by the list's singular.
  template <std::size_t W = 0>
  void record_begin(const Key& name, const Key* singular) {
    out.commit(printing::put_width<W>(out.reserve_more<false>(0), name.xml_open.text, name.xml_open.size));
    stack_[++depth_] = {&name, singular, true};
  }
  void record_begin_item() { record_begin<Key::room>(*stack_[depth_].singular, nullptr); }
  /// format_raw's "<a/>".
  void record_empty_list(const Key& key) { out.commit(put(start_tag(out.reserve_more<false>(0), key), "/>")); }
  void record_end() { out.commit(inline_end_tag<Key::room>(out.reserve_more<false>(0), *stack_[depth_--].name)); }
  std::size_t depth() const { return depth_; }

private:
  struct Frame {
    const Key* name = nullptr;
    const Key* singular = nullptr;
    bool has_children = false;  ///< the start tag's ">" is written
  };
  Frame stack_[max_depth];
  std::size_t depth_ = 0;

  /// The end tag without its line break: inside a one-line record (where the record's
  /// own end tag still ends the line). Copied `W` bytes wide, or (0) as narrow as the
  /// name known where it is written allows.
  template <std::size_t W = 0>
  static char* inline_end_tag(char* at, const Key& key) {
    return printing::put_width<W>(at, key.xml_close.text, key.xml_close.size - 1);
  }
  /// The start tag's "<name", without its ">" (widths as inline_end_tag).
  template <std::size_t W = 0>
  static char* start_tag(char* at, const Key& key) {
    return printing::put_width<W>(at, key.xml_open.text, key.xml_open.size - 1);
  }
  // A new line in the current element, indented.
  char* child(char* at) {
    std::size_t depth = depth_;
    Frame& f = stack_[depth];
    if (!f.has_children) {
      f.has_children = true;
      at = put(at, ">\n");
    }
    return printing::spaces(at, 2 * (depth + 1));
  }
  void begin(const Key& name, const Key* singular) {
    out.commit(start_tag<Key::room>(child(out.reserve_more(0)), name));
    stack_[++depth_] = {&name, singular, false};
  }
  void end() {
    std::size_t depth = depth_--;
    const Frame& f = stack_[depth];
    char* at = out.reserve_more(0);
    if (!f.has_children) return out.commit(put(at, " />\n"));
    at = printing::spaces(at, 2 * depth);
    out.commit(printing::put_form<Key::room>(at, f.name->xml_close));
  }
  /// `s` escaped, at the sink's cursor (it reserves for itself); the cursor after it.
  /// Entities are padded copies and runs short copies, as everywhere in the printers:
  /// most escaped texts are conditions with an "&" or two. `quoted_verbatim` tells
  /// whether YAML and JSON keep every byte of `s` (quotes_change_nothing): a short
  /// text's bytes to look at are all the bytes some format changes, so that answer
  /// comes from the same look, where a second scan of the text cost as much again.
  char* escaped(std::string_view s, bool& quoted_verbatim) {
    struct Entity {
      char text[8];
      std::size_t size;
    };
    static constexpr Entity amp{"&amp;", 5}, lt{"&lt;", 4}, gt{"&gt;", 4}, dropped{"", 0},
        replacement{"\xef\xbf\xbd", 3};
    char* at = out.reserve_more(6 * s.size());
    std::size_t run = 0;
    quoted_verbatim = true;
    // The byte at `i` may be one to change: written as its entity (after the run before
    // it), or left in the run. The offset after what it stands for. Inlined by force:
    // with quoted_verbatim to keep as well, GCC made it a call for every such byte.
    auto visit = [&](std::size_t i) __attribute__((always_inline)) {
      auto c = static_cast<unsigned char>(s[i]);
      const Entity* entity;
      std::size_t skip = 0;
      if (c == '&') {
        entity = &amp;
      } else if (c == '<') {
        entity = &lt;
      } else if (c == '>') {
        entity = &gt;
      } else if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f) {
        quoted_verbatim &= c == 0x7f;
        entity = &dropped;
      } else if (c == 0xef && i + 2 < s.size() && s[i + 1] == '\xbf' && (s[i + 2] == '\xbe' || s[i + 2] == '\xbf')) {
        quoted_verbatim = false;
        entity = &replacement;
        skip = 2;
      } else {
        // Among the bytes of special_bytes, those a quoted format changes too: '"',
        // '\\', tab, line feed and the non-ASCII ones.
        quoted_verbatim = false;
        return i + 1;
      }
      at = printing::put_text(at, s.substr(run, i - run));
      at = printing::put_padded<sizeof entity->text>(at, entity->text, entity->size);
      run = i + skip + 1;
      return run;
    };
#ifdef __SSE2__
    // Most texts to escape are short: their bytes to look at are found in one pass.
    if (s.size() <= 64) {
      for (std::uint64_t mask = byte_mask(s, special_bytes); mask != 0;) {
        std::size_t next = visit(static_cast<std::size_t>(__builtin_ctzll(mask)));
        mask = next >= 64 ? 0 : mask & ~std::uint64_t{0} << next;
      }
      return printing::put_text(at, s.substr(run));
    }
#endif
    // This scan passes over quotes, backslashes and most non-ASCII bytes: the quoted
    // formats' answer needs a look of its own.
    bool quoted = quotes_change_nothing(s);
    for (std::size_t i = 0; (i = support::scan_special<false, '&', '<', '>', '\x7f', '\xef'>(s.data(), i, s.size())) < s.size();)
      i = visit(i);
    quoted_verbatim = quoted;
    return printing::put_text(at, s.substr(run));
  }
};

// ---- the layout -------------------------------------------------------------------------

/// Where each file (yaml, xml, json) holds the bytes a run of members printed last:
/// in the room they were printed in, so that keeping them copies nothing (a fifth of a
/// seed page's structure runs are printed anew, and copying each to three strings took
/// 10 K instructions a page). They lie there as long as each sink's room is the same
/// (Sink::rooms) and no event wrote over them: a run is never the last member of an
/// object, list or record, whose ends write over the last member's bytes.
struct KeptBytes {
  const char* at[3] = {};
  std::size_t size[3] = {};
  std::uint64_t rooms[3] = {};
};

/// Members that consecutive records print alike (see rule()): the shared texts they
/// were printed from, kept so that an address cannot become another text's, the depth,
/// and where the files hold their bytes.
template <std::size_t N>
struct FieldRun {
  std::array<extract::SharedText, N> texts;
  std::uint64_t number = 0;       ///< a member that is no text (the source's revision)
  std::size_t depth = max_depth;  ///< none printed yet
  KeptBytes bytes;
};

/// The printers' events inside a record of a `lines` list: without their checks for
/// room (see record(): only the few that may need more check it), and written on one
/// line in JSON and XML without asking where (see JsonPrinter::begin_record).
template <class Out>
struct InRecord {
  Out& out;
  FieldRun<5>& structure_run;
  FieldRun<2>& source_run;

  void string(const Key& key, std::string_view text) { out.template string<true>(key, text); }
  template <std::size_t W = 0>
  [[gnu::always_inline]] void plain(const Key& key, std::string_view text) { out.template plain<W, true>(key, text); }
  [[gnu::always_inline]] void begin_object(const Key& key) { out.template begin_object<true>(key); }
  void end_object() { out.template end_object<true>(); }
  [[gnu::always_inline]] void begin_list(const Key& key, const Key& singular, ListStyle style) {
    out.template begin_list<true>(key, singular, style);
  }
  void end_list() { out.template end_list<true>(); }
  [[gnu::always_inline]] void empty_list(const Key& key) { out.template empty_list<true>(key); }
  void item(std::string_view text) { out.template item<true>(text); }
  /// Room for a list of `items`, of any length, and the record's room after it, at once.
  void item_room(const std::vector<std::string>& items) {
    std::size_t bytes = 2 * 2 * Sink::slack + record_room;
    for (const auto& s : items) bytes += 2 * Sink::slack + 6 * s.size();
    out.room(bytes);
  }
  void begin_item() { out.template begin_item<true>(); }
  void end_item() { out.template end_item<true>(); }
  template <std::size_t N, class Print>
  void repeated(FieldRun<N>& run, const std::array<const extract::SharedText*, N>& texts, std::uint64_t number,
                std::size_t members, Print print) {
    out.repeated(run, texts, number, members, print);
  }
};

/// Writes one record of a `lines` list, whose members `write` writes (the layout,
/// called with any Out), without a check for room at each event (a rule has some
/// seventy). The record starts with Printers::record_room in each file, and only where
/// the layout may need more (a long text, a list's next item, a field run) is the room
/// checked again; each file keeps the record in one piece (Sink::mark), since its
/// printers write over its last bytes. Adding up a record's room beforehand took a walk
/// of the record as long as a seventh of writing it.
template <class Out, class Write>
void record(Out& out, Write write) {
  out.room(record_room);
  out.begin_record();
  InRecord<Out> in_record{out, out.structure_run, out.source_run};
  write(in_record);
  out.end_record();
}

// "00" to "99": a number's digits two at a time.
struct DigitPairs {
  char text[200] = {};
  consteval DigitPairs() {
    for (int n = 0; n < 100; ++n) {
      text[2 * n] = static_cast<char>('0' + n / 10);
      text[2 * n + 1] = static_cast<char>('0' + n % 10);
    }
  }
};
inline constexpr DigitPairs digit_pairs{};

// "-9.0" to "9.0", from -9 up, each padded to eight bytes (see number_field).
struct SmallWholes {
  char text[19][8] = {};
  consteval SmallWholes() {
    for (int d = -9; d <= 9; ++d) {
      char* t = text[d + 9];
      if (d < 0) *t++ = '-';
      *t++ = static_cast<char>('0' + (d < 0 ? -d : d));
      *t++ = '.';
      *t = '0';
    }
  }
};
inline constexpr SmallWholes small_wholes{};

// Numbers print the same in every format, as nlohmann printed them: integers in full,
// floating-point values by nlohmann's own shortest round-trip formatter ("2.0", "0.5"),
// which the documents have always used (a different formatter could pick other digits;
// it is nlohmann's detail::to_chars, so emit_test compares with dump() to notice a change).
// A record's numbers of more than one digit are mostly its line (a few thousand) and
// offset (below a million on most pages): those are put together here a pair of digits
// a step, without to_chars, which counted the digits in a loop and called its printer.
struct Number {
  char buf[64];  // at least plain_room
  std::size_t size = 0;
  explicit Number(std::uint64_t v) {
    if (v < 1000000) {
      short_digits(static_cast<std::uint32_t>(v));
      return;
    }
    size = std::to_chars(buf, buf + sizeof buf, v).ptr - buf;
  }
  explicit Number(std::int64_t v) {
    if (v >= 0 && v < 1000000) {
      short_digits(static_cast<std::uint32_t>(v));
      return;
    }
    size = std::to_chars(buf, buf + sizeof buf, v).ptr - buf;
  }
  explicit Number(double v) {
    // An integral value below 10^15 (what nlohmann's format writes without an
    // exponent; every one is exact in a double) prints as its digits and ".0", the
    // shortest text that reads back as it: most points values are such, and the
    // shortest-digit search costs ten times the integer's printing. The commonest,
    // whole amounts from -9 to 9 (267 of a seed page's 281), are a table's word each.
    // -0.0 goes on to nlohmann's form, which writes its sign; NaN and the infinities
    // fail the range test.
    if (v > -1e15 && v < 1e15) {
      auto whole = static_cast<std::int64_t>(v);
      if (static_cast<double>(whole) == v && (whole != 0 || !std::signbit(v))) {
        if (whole > -10 && whole < 10) {
          std::memcpy(buf, small_wholes.text[whole + 9], 8);
          size = 3 + (whole < 0);
          return;
        }
        if (whole >= 0 && whole < 1000000) {
          short_digits(static_cast<std::uint32_t>(whole));
        } else {
          size = std::to_chars(buf, buf + 24, whole).ptr - buf;  // 20 digits and a sign at most
        }
        buf[size++] = '.';
        buf[size++] = '0';
        return;
      }
    }
    if (!std::isfinite(v)) {
      size = 4;
      std::char_traits<char>::copy(buf, "null", 4);
      return;
    }
    size = nlohmann::detail::to_chars(buf, buf + sizeof buf, v) - buf;
  }
  std::string_view text() const { return {buf, size}; }

private:
  /// `v` below 1000000.
  void short_digits(std::uint32_t v) {
    // The digit count from the bit length (bits * 1233 / 4096 is the count of a power
    // of two, or one more than that of the numbers from it up to the next power of
    // ten): no chain of compares, whose branches the lines (three or four digits) and
    // offsets (five or six) of consecutive rules took either way.
    static constexpr std::uint32_t tens[] = {0, 10, 100, 1000, 10000, 100000, 1000000};
    unsigned t = static_cast<unsigned>(32 - __builtin_clz(v | 1)) * 1233 >> 12;
    size = t + (v >= tens[t]);
    // All six digits, leading zeros included, put together in a register (the first at
    // the low end) and shifted down to the last `size` of them, then stored at once:
    // written in pieces to memory and read back whole, they waited for the pieces
    // (a failed store forwarding) at every number.
    static_assert(std::endian::native == std::endian::little);
    auto pair = [](std::uint32_t n) {
      std::uint16_t p;
      std::memcpy(&p, digit_pairs.text + 2 * n, 2);
      return std::uint64_t{p};
    };
    std::uint64_t six = pair(v / 10000) | pair(v / 100 % 100) << 16 | pair(v % 100) << 32;
    six >>= 8 * (6 - size);
    std::memcpy(buf, &six, 8);
  }
};
static_assert(sizeof(Number::buf) >= plain_room);

template <class Out, class T>
[[gnu::always_inline]] inline void number_field(Out& out, const Key& key, T v) {
  Number n(v);
  // Most numbers fit in the eight bytes that short_digits and the small wholes store
  // at once: copied as that word, which the copies then read back from the store
  // (a wider load waited for the word to reach memory first, at every number).
  if (n.size <= 8) return out.template plain<8>(key, n.text());
  out.template plain<plain_room>(key, n.text());
}

// "0" to "9", each padded to plain_room.
struct OneDigit {
  char text[10][plain_room] = {};
  consteval OneDigit() {
    for (int d = 0; d < 10; ++d) text[d][0] = static_cast<char>('0' + d);
  }
};
inline constexpr OneDigit one_digit{};

// Three quarters of a record's numbers are one digit (its revision, its column, a
// non-rule's scoring cells): those are written where they are, from a table, without
// the call that prints the others (to_chars counted the digits and called its own
// printer for them).
template <class Out>
[[gnu::always_inline]] inline void unsigned_field(Out& out, const Key& key, std::uint64_t v) {
  if (v < 10) return out.plain(key, std::string_view(one_digit.text[v], 1));
  number_field(out, key, v);
}

// "true" and "false" padded to plain_room.
constexpr char true_text[plain_room] = "true", false_text[plain_room] = "false";

template <class Out>
void boolean_field(Out& out, const Key& key, bool v) {
  out.plain(key, v ? std::string_view(true_text, 4) : std::string_view(false_text, 5));
}

/// `write(out)`, out of line: the less common case of a field, so that the common one
/// saves no registers.
template <class Out, class Write>
[[gnu::noinline]] void out_of_line(Out& out, Write write) {
  write(out);
}

// Most of a rule's string lists are empty: that case is written where the list is,
// without the call to the items' loop and the registers it saves.
template <class Out>
[[gnu::always_inline]] inline void string_list(Out& out, const Key& key, const Key& singular,
                                               const std::vector<std::string>& items) {
  if (items.empty()) return out.empty_list(key);
  out_of_line(out, [&](auto& o) {
    o.item_room(items);
    o.begin_list(key, singular, ListStyle::scalars);
    for (const auto& s : items) o.item(s);
    o.end_list();
  });
}

// Most texts are the same in every edition: one string field, written where it is.
template <class Out>
[[gnu::always_inline]] inline void variants(Out& out, const Key& key, const extract::Variants& v) {
  if (v.uniform) return out.string(key, v.text);
  out_of_line(out, [&](auto& o) {
    o.begin_object(key);
    o.string("C1"_key, v.c1);
    o.string("C2"_key, v.c2);
    o.string("WE"_key, v.we);
    o.end_object();
  });
}

// Texts each under a condition relative to the rule: its notes, its text's parts.
template <class Out, class Item>
void conditioned_texts(Out& out, const Key& key, const Key& singular, const std::vector<Item>& list) {
  if (list.empty()) return out.empty_list(key);
  out.begin_list(key, singular, ListStyle::records);
  for (const auto& p : list) {
    out.begin_item();
    out.string("when"_key, p.when);
    variants(out, "text"_key, p.text);
    out.end_item();
  }
  out.end_list();
}

// Written only when the text has parts: most rules have none, and their records stay
// as they were.
template <class Out>
void parts(Out& out, const Key& key, const std::vector<extract::TextPart>& list) {
  if (!list.empty()) conditioned_texts(out, key, "part"_key, list);
}

/// The points operators' names: extract's, looked up once at start-up (each to_string
/// was a call and a strlen, for every entry; a function's own static, a guard and a
/// call). to_string returns literals, so it is safe to call during initialisation.
const std::array<std::string_view, 4> op_names = {
    extract::to_string(extract::PointsOp::add), extract::to_string(extract::PointsOp::multiply),
    extract::to_string(extract::PointsOp::fraction), extract::to_string(extract::PointsOp::fixed)};
static_assert(static_cast<std::size_t>(extract::PointsOp::fixed) == 3, "one name for each operator, in order");

std::string_view op_name(extract::PointsOp op) { return op_names[static_cast<std::size_t>(op)]; }

template <class Out>
void points(Out& out, const extract::Rule& r) {
  if (r.points_unparsed) {
    out.string("points"_key, "unparsed");
    return;
  }
  if (r.points.empty()) return out.empty_list("points"_key);
  out.begin_list("points"_key, "entry"_key, ListStyle::records);
  for (const auto& e : r.points) {
    const extract::Points& p = e.points;
    out.begin_item();
    out.string("op"_key, op_name(p.op));
    // A named quantity has no value, unless it is subtracted: then value -1 is its factor.
    if (p.quantity.empty() || p.value < 0) number_field(out, "value"_key, p.value);
    if (!p.quantity.empty()) out.string("quantity"_key, p.quantity);
    if (p.op == extract::PointsOp::fraction) number_field(out, "denominator"_key, p.denominator);
    if (!p.basis.empty()) out.string("basis"_key, p.basis);
    if (!p.per.empty()) out.string("per"_key, p.per);
    if (!p.rounding.empty()) out.string("rounding"_key, p.rounding);
    out.string("when"_key, e.when);
    if (!e.editions.empty()) string_list(out, "editions"_key, "edition"_key, e.editions);
    out.string("text"_key, p.text);
    out.end_item();
  }
  out.end_list();
}

/// A rule's members (record() opens and closes the record).
template <class Out>
void rule(Out& out, const extract::Rule& r) {
  out.string("id"_key, r.id);
  if (!r.parent.empty()) out.string("parent"_key, r.parent);
  // The rules of a block follow each other and hold the same five shared texts: while
  // they do, the files get those fields' bytes again, copied (199 of the seed page's
  // 252 rules). Each run follows the id, so it prints from the same state every time.
  out.repeated(out.structure_run, {&r.section, &r.phase, &r.round, &r.step, &r.block}, 0, 5, [&] {
    out.string("section"_key, r.section);
    out.string("phase"_key, r.phase);
    out.string("round"_key, r.round);
    out.string("step"_key, r.step);
    out.string("block"_key, r.block);
  });
  out.string("kind"_key, r.kind);
  boolean_field(out, "core"_key, r.core);
  out.string("when"_key, r.when);
  string_list(out, "atoms"_key, "atom"_key, r.atoms);
  string_list(out, "triggers"_key, "trigger"_key, r.triggers);
  variants(out, "description"_key, r.description);
  parts(out, "description-parts"_key, r.description_parts);
  variants(out, "rules"_key, r.rules);
  parts(out, "rules-parts"_key, r.rules_parts);
  conditioned_texts(out, "notes"_key, "note"_key, r.notes);
  string_list(out, "references"_key, "reference"_key, r.references);
  points(out, r);
  const extract::RuleSource& s = r.source;
  out.begin_object("source"_key);
  // A page's rules share its title, revision and file: the source object's first three
  // members are copied from the rule before (they are its first, so they too print from
  // the same state every time).
  out.repeated(out.source_run, {&s.page, &s.file}, s.revision, 3, [&] {
    out.string("page"_key, s.page);
    unsigned_field(out, "revision"_key, s.revision);
    out.string("file"_key, s.file);
  });
  unsigned_field(out, "line"_key, s.line);
  unsigned_field(out, "column"_key, s.column);
  if (s.offset >= 0) number_field(out, "offset"_key, s.offset);
  out.string("origin"_key, s.origin);
  string_list(out, "chain"_key, "template"_key, s.chain);
  out.end_object();
}

/// A non-rule's members (record() opens and closes the record).
template <class Out>
void non_rule(Out& out, const extract::NonRule& n) {
  out.string("reason"_key, n.reason);
  out.string("text"_key, n.text);
  unsigned_field(out, "line"_key, n.line);
  unsigned_field(out, "column"_key, n.column);
  unsigned_field(out, "scoring-cells"_key, n.scoring_cells);
}

template <class Out>
void write_header(Out& out, const RulesHeader& h) {
  // The format version is the first field in JSON and YAML, the root's attribute in XML.
  out.begin_document("wikic-rules"_key, rules_schema_version);
  out.string("sitename"_key, h.sitename);
  out.string("dump-date"_key, h.dump_date);
  out.string("dump-date-source"_key, "latest revision timestamp");
  out.plain("vocabulary-version"_key, Number(std::int64_t{h.vocabulary_version}).text());
  out.plain("mapping-version"_key, Number(std::int64_t{h.mapping_version}).text());
  out.begin_list("pages"_key, "page"_key, ListStyle::streamed);
}

template <class Out>
void write_page(Out& out, const extract::PageRules& p) {
  out.forget_runs();  // a page's rules repeat their own texts, not another page's
  out.begin_item();
  out.string("title"_key, p.title);
  unsigned_field(out, "revision"_key, p.revision);
  out.string("timestamp"_key, p.timestamp);
  out.begin_object("scoring-cells"_key);
  unsigned_field(out, "total"_key, p.cells.total);
  unsigned_field(out, "unaccounted"_key, p.cells.unaccounted);
  out.begin_list("uses"_key, "cell-use"_key, ListStyle::records);
  for (const auto& [use, n] : p.cells.by_use) {
    out.begin_item();
    out.string("use"_key, use);
    unsigned_field(out, "count"_key, n);
    out.end_item();
  }
  out.end_list();
  out.end_object();
  out.begin_list("rules"_key, "rule"_key, ListStyle::lines);
  for (const auto& r : p.rules) record(out, [&](auto& o) { rule(o, r); });
  out.end_list();
  out.begin_list("non-rules"_key, "non-rule"_key, ListStyle::lines);
  for (const auto& n : p.non_rules) record(out, [&](auto& o) { non_rule(o, n); });
  out.end_list();
  out.end_item();
}

template <class Out>
void write_summary(Out& out, const RulesTotals& t) {
  out.end_list();  // pages
  out.begin_object("summary"_key);
  unsigned_field(out, "pages"_key, t.pages);
  unsigned_field(out, "rules"_key, t.rules);
  unsigned_field(out, "sub-rules"_key, t.sub_rules);
  unsigned_field(out, "non-rules"_key, t.non_rules);
  unsigned_field(out, "unparsed-points"_key, t.unparsed);
  unsigned_field(out, "id-collisions"_key, t.collisions);
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

  FieldRun<5> structure_run;
  FieldRun<2> source_run;

  void forget_runs() { structure_run.depth = source_run.depth = max_depth; }
  /// Room for `bytes` in each file (see record()).
  void room(std::size_t bytes) {
    yaml.out.reserve(bytes);
    xml.out.reserve(bytes);
    json.out.reserve(bytes);
  }

  /// Prints `members` members through `print`, or, when `texts` are the very strings
  /// and `number` the number the run was last printed from at this depth, copies the
  /// bytes printed then. `print`'s bytes must depend on `texts`, `number` and the state
  /// before them alone, and that state must be the same at every use of the run (the
  /// same members before them).
  template <std::size_t N, class Print>
  void repeated(FieldRun<N>& run, const std::array<const extract::SharedText*, N>& texts, std::uint64_t number,
                std::size_t members, Print print) {
    bool same = run.depth == xml.depth() && run.number == number;
    for (std::size_t i = 0; same && i < N; ++i) same = run.texts[i].same(*texts[i]);
    if (same && replayed(run.bytes)) return;
    // Room for all the members up front, and the record's room after them (runs are
    // inside records), so that each file's bytes of the run are written in one piece:
    // a reservation inside could move the record to another window.
    std::size_t room = (members + 2) * 2 * Sink::slack + record_room;
    for (const extract::SharedText* t : texts) room += 6 * t->size();
    Sink* sinks[3] = {&yaml.out, &xml.out, &json.out};
    KeptBytes& kept = run.bytes;
    for (std::size_t i = 0; i < 3; ++i) {
      kept.at[i] = sinks[i]->reserve_more(room);
      kept.rooms[i] = sinks[i]->rooms();
    }
    print();
    bool whole = true;
    for (std::size_t i = 0; i < 3; ++i) {
      kept.size[i] = static_cast<std::size_t>(sinks[i]->cursor() - kept.at[i]);
      whole &= kept.rooms[i] == sinks[i]->rooms();
    }
    for (std::size_t i = 0; i < N; ++i) run.texts[i] = *texts[i];
    run.number = number;
    run.depth = whole ? xml.depth() : max_depth;
  }
  /// Copies a run's bytes in each file from where they were printed, with the record's
  /// room after them (see record()); false, and nothing written, if a sink's room
  /// changed since, or changed to make room for the copy.
  bool replayed(const KeptBytes& kept) {
    char* at[3] = {yaml.out.reserve_more(kept.size[0] + record_room), xml.out.reserve_more(kept.size[1] + record_room),
                   json.out.reserve_more(kept.size[2] + record_room)};
    if (kept.rooms[0] != yaml.out.rooms() || kept.rooms[1] != xml.out.rooms() || kept.rooms[2] != json.out.rooms())
      [[unlikely]] return false;
    // The copy lies after the run, in the same room: the two do not overlap.
    yaml.out.commit(put(at[0], std::string_view(kept.at[0], kept.size[0])));
    xml.out.commit(put(at[1], std::string_view(kept.at[1], kept.size[1])));
    json.out.commit(put(at[2], std::string_view(kept.at[2], kept.size[2])));
    return true;
  }

  void begin_document(const Key& root, std::string_view version) {
    yaml.begin_document(root, version);
    xml.begin_document(root, version);
    json.begin_document(root, version);
  }
  void end_document() {
    yaml.end_document();
    xml.end_document();
    json.end_document();
  }
  // A record of a `lines` list (see record()), kept in one piece in each file.
  void begin_record() {
    yaml.out.mark();
    xml.out.mark();
    json.out.mark();
    yaml.begin_record();
    xml.begin_record();
    json.begin_record();
  }
  void end_record() {
    yaml.end_record();
    xml.end_record();
    json.end_record();
    yaml.out.unmark();
    xml.out.unmark();
    json.out.unmark();
  }

  /// A string field, its key's forms copied as wide as the key needs (Key::width): the
  /// key is known here, so only one of the calls is left.
  template <bool in_record = false>
  void string(const Key& key, std::string_view text) {
    if (key.width <= 16) return text_event<in_record, true, 16>(&key, text);
    text_event<in_record, true, Key::room>(&key, text);
  }
  // The events with a key are inlined where the layout names the key (its forms'
  // sizes, so the widths of their copies, are then known: see printing::put_short).
  template <std::size_t W = 0, bool in_record = false>
  [[gnu::always_inline]] void plain(const Key& key, std::string_view text) {
    if constexpr (in_record) {
      yaml.template record_plain<W>(key, text);
      xml.template record_plain<W>(key, text);
      json.template record_plain<W>(key, text);
    } else {
      yaml.template plain<W>(key, text);
      xml.template plain<W>(key, text);
      json.template plain<W>(key, text);
    }
  }
  template <bool in_record = false>
  [[gnu::always_inline]] void begin_object(const Key& key) {
    if constexpr (in_record) {
      yaml.record_begin_object(key);
      xml.record_begin(key, nullptr);
      json.record_begin_object(key);
    } else {
      yaml.begin_object(key);
      xml.begin_object(key);
      json.begin_object(key);
    }
  }
  template <bool in_record = false>
  void end_object() {
    if constexpr (in_record) {
      yaml.record_end_map();
      xml.record_end();
      json.record_end('}');
    } else {
      yaml.end_object();
      xml.end_object();
      json.end_object();
    }
  }
  template <bool in_record = false>
  [[gnu::always_inline]] void begin_list(const Key& key, const Key& singular, ListStyle style) {
    if constexpr (in_record) {
      yaml.record_begin_list(key, style);
      xml.record_begin(key, &singular);
      json.record_begin_list(key);
    } else {
      yaml.begin_list(key, singular, style);
      xml.begin_list(key, singular, style);
      json.begin_list(key, singular, style);
    }
  }
  template <bool in_record = false>
  void end_list() {
    if constexpr (in_record) {
      yaml.record_end_list();
      xml.record_end();
      json.record_end(']');
    } else {
      yaml.end_list();
      xml.end_list();
      json.end_list();
    }
  }
  template <bool in_record = false>
  [[gnu::always_inline]] void empty_list(const Key& key) {
    if constexpr (in_record) {
      yaml.record_empty_list(key);
      xml.record_empty_list(key);
      json.record_empty_list(key);
    } else {
      yaml.empty_list(key);
      xml.empty_list(key);
      json.empty_list(key);
    }
  }
  template <bool in_record = false>
  void item(std::string_view text) { text_event<in_record, false, Key::room>(nullptr, text); }
  /// A string field (`key`, a `field`) or item: the three files' names and
  /// punctuation before it, then the text copied to all three while checking that no
  /// format changes it, then what follows it; where a format changes it, text_changed
  /// writes the rest. Most texts are copied as they are: that path calls nothing, so it
  /// needs no registers saved around it (a dozen pushes and pops a field), and the
  /// cursors go to the sinks before the call, which then takes few enough arguments to
  /// be a jump.
  template <bool in_record, bool field, std::size_t W>
  void text_event(const Key* key, std::string_view text) {
    if constexpr (in_record) {
      // A list's items have their room from item_room.
      if (field && text.size() > short_text) [[unlikely]] return text_with_room<field, W>(key, text);
    }
    write_text<in_record, field, W>(key, text);
  }
  /// text_event inside a record for a long text: room for it and the record's room
  /// after it first (see record()). Apart, and called last, so that the
  /// common text's path still calls nothing.
  template <bool field, std::size_t W>
  [[gnu::noinline]] void text_with_room(const Key* key, std::string_view text) {
    room(6 * text.size() + record_room);
    write_text<true, field, W>(key, text);
  }
  template <bool in_record, bool field, std::size_t W>
  [[gnu::always_inline]] void write_text(const Key* key, std::string_view text) {
    char *y, *x, *j;
    if constexpr (in_record) {
      y = yaml.record_text_head<field, W>(key);
      x = xml.record_text_head<field, W>(key);
      j = json.record_text_head<field, W>(key);
    } else {
      y = yaml.text_head<field, W>(key, text.size());
      x = xml.text_head<field, W>(key, text.size());
      j = json.text_head<field, W>(key, text.size());
    }
    if (copy_if_verbatim(y, x, j, text) != 0) [[unlikely]] {
      yaml.out.commit(y);
      xml.out.commit(x);
      json.out.commit(j);
      return text_changed<in_record, field, W>(key, text);
    }
    if constexpr (in_record) {
      yaml.record_text_end<field>(y, text, true);
      xml.record_text_end<field, W>(x, key, text, true);
      json.record_text_end(j, text, true);
    } else {
      yaml.text_end(y, text, true);
      xml.text_end<field, W>(x, key, text, true);
      json.text_end(j, text, true);
    }
  }
  /// The rest of text_event for a text some format changes, each sink's cursor after
  /// what text_event wrote before the text (its copy of the text lies there).
  template <bool in_record, bool field, std::size_t W>
  [[gnu::noinline]] void text_changed(const Key* key, std::string_view text) {
    char* y = yaml.out.template reserve_more<false>(0);
    char* x = xml.out.template reserve_more<false>(0);
    char* j = json.out.template reserve_more<false>(0);
    // Most texts some format changes are conditions with " & " in them, which only XML
    // escapes: where JSON and YAML change no byte (none below 0x20 or above 0x7f, no
    // quote or backslash: what yaml_string stops at, a superset of json_string's),
    // their copies stand. XML's escaping, first, answers that too.
    if constexpr (in_record) {
      bool quoted_verbatim = xml.record_text_end<field, W>(x, key, text, false);
      yaml.record_text_end<field>(y, text, quoted_verbatim);
      json.record_text_end(j, text, quoted_verbatim);
    } else {
      bool quoted_verbatim = xml.text_end<field, W>(x, key, text, false);
      yaml.text_end(y, text, quoted_verbatim);
      json.text_end(j, text, quoted_verbatim);
    }
  }
  template <bool in_record = false>
  void begin_item() {
    if constexpr (in_record) {
      room(record_room);  // a list's next item
      yaml.record_begin_item();
      xml.record_begin_item();
      json.record_begin_item();
    } else {
      yaml.begin_item();
      xml.begin_item();
      json.begin_item();
    }
  }
  template <bool in_record = false>
  void end_item() {
    if constexpr (in_record) {
      yaml.record_end_map();
      xml.record_end();
      json.record_end('}');
    } else {
      yaml.end_item();
      xml.end_item();
      json.end_item();
    }
  }
};

// What a page wrote is handed to the files when it ends (a window it filled up went over
// before, as the printers asked for more room).
void RulesWriter::flush() {
  printers_->yaml.out.release();
  printers_->xml.out.release();
  printers_->json.out.release();
}

void RulesWriter::start(support::OutputWindow& yaml, support::OutputWindow& xml, support::OutputWindow& json,
                        const RulesHeader& header) {
  printers_->yaml.out.attach(yaml);
  printers_->xml.out.attach(xml);
  printers_->json.out.attach(json);
  write_header(*printers_, header);
  flush();
}

RulesWriter::RulesWriter(support::OutputWindow& yaml, support::OutputWindow& xml, support::OutputWindow& json,
                         const RulesHeader& header)
    : printers_(std::make_unique<Printers>()) {
  start(yaml, xml, json, header);
}

RulesWriter::RulesWriter(std::ostream& yaml, std::ostream& xml, std::ostream& json, const RulesHeader& header)
    : printers_(std::make_unique<Printers>()) {
  for (std::ostream* os : {&yaml, &xml, &json}) streams_.push_back(std::make_unique<support::StreamWindow>(*os));
  start(*streams_[0], *streams_[1], *streams_[2], header);
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
