// Extraction of rule records from one page (see rules.hpp). The tree walk recognises
// structure (sections, phases, steps, blocks), rule rows (raw scoring rows and ScoringRow
// nodes) and non-rules; every cell with a scoring… class is tallied so nothing is lost
// silently. What counts as what is data in schema/extract.yaml.
#include "extract/rules.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <unordered_map>
#include <yaml-cpp/yaml.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "extract/schema_file.hpp"
#include "parse/attribute_name.hpp"
#include "parse/parser.hpp"
#include "preprocess/restore_lines.hpp"
#include "select/probe_table.hpp"
#include "select/tree_conditions.hpp"
#include "select/variants.hpp"
#include "support/scan.hpp"
#include "support/source.hpp"

namespace wikic::extract {
namespace {

using parse::Document;
using parse::Node;
using parse::NodeId;
using parse::NodeKind;
using parse::kNoNode;

struct Mapping {
  int version = 0;
  std::map<std::string, std::string, std::less<>> kinds, scoringtype, icons, trigger_flags;
  std::string core_class, box_class, plus_suffix, plus_trigger;
  std::vector<std::string> legend_classes, round_prefixes, step_prefixes, phase_box_classes, image_prefixes,
      image_suffixes;
  std::vector<std::pair<std::string, std::string>> non_rules;  ///< (reason, text start)
  std::set<std::string, std::less<>> reference_templates, text_templates;
  std::size_t id_words = 8;
  std::string id_separator = "/";
  /// The longest round/step prefix and the longest non-rule start: how much of a text
  /// heading_like() and non_rule() need to see before they know it matters.
  std::size_t heading_prefix = 0, non_rule_prefix = 0;
  /// The first bytes of those prefixes; `all` when one is empty (any text may match).
  /// (A table by byte: asked of most rows, cells and elements, where a search of the
  /// string was a call.)
  std::array<bool, 256> heading_initials{}, non_rule_initials{};
  /// The round and step prefixes together, and the non-rule starts, for
  /// PageExtractor::may_start_with.
  std::vector<std::string> heading_starts, non_rule_starts;
  bool heading_any = false, non_rule_any = false;
  /// The lengths (bit n: length n, all lengths of 64 and more on bit 63) and first bytes
  /// of every class extraction knows: most class names on a page (show…, wikitable) fail
  /// one of these and need no lookup.
  std::uint64_t class_lengths = 0;
  std::array<bool, 256> class_initials{};
  /// Second bytes of the known classes by their first (bit b%64 of word b/64): the
  /// show… classes share 's' with scoring…, and most have the length of one too.
  std::array<std::array<std::uint64_t, 4>, 256> class_seconds{};
  /// Every class extraction knows, once each, with what it says (a class may be in
  /// several lists): one pass over a few entries, compared by length first, instead of
  /// a map lookup and two list searches per class that passes may_be_class.
  struct KnownClass {
    std::string name;
    bool tally = false, core = false, box = false, legend = false, phase_box = false;
    /// What its `kinds` entry maps to, when it has one (held here, so that a pointer to
    /// it stays good: a pointer into the `kinds` being built would not survive a copy).
    std::string kind;
    bool has_kind = false;
  };
  std::vector<KnownClass> known_classes;
  /// The shortest known class: a class attribute shorter than it holds none.
  std::size_t shortest_class = 0;
  const KnownClass* known_class(std::string_view c) const {
    for (const KnownClass& k : known_classes)
      if (k.name.size() == c.size() && std::memcmp(k.name.data(), c.data(), c.size()) == 0) return &k;
    return nullptr;
  }
  bool may_be_class(std::string_view c) const {
    if (!(class_lengths >> std::min<std::size_t>(c.size(), 63) & 1)) return false;
    auto first = static_cast<unsigned char>(c[0]);
    if (!class_initials[first]) return false;
    if (c.size() < 2) return true;
    auto second = static_cast<unsigned char>(c[1]);
    return class_seconds[first][second / 64] >> (second % 64) & 1;
  }
};

template <class T>
void read_list(const YAML::Node& n, T& out) {
  if (n && n.IsSequence())
    for (const auto& v : n) out.insert(out.end(), v.as<std::string>());
}

void read_map(const YAML::Node& n, std::map<std::string, std::string, std::less<>>& out) {
  if (n && n.IsMap())
    for (const auto& kv : n) out[kv.first.as<std::string>()] = kv.second.as<std::string>();
}

// The mapping is part of the binary; a malformed one is a build defect, so it throws
// once at first use rather than being reported per page.
const Mapping& mapping() {
  static const Mapping m = [] {
    const YAML::Node& y = extract_schema();
    Mapping r;
    r.version = y["version"].as<int>();
    read_map(y["kinds"], r.kinds);
    read_map(y["scoringtype"], r.scoringtype);
    read_map(y["triggers"]["icons"], r.icons);
    read_map(y["trigger_flags"], r.trigger_flags);
    r.core_class = y["core_class"].as<std::string>();
    r.box_class = y["triggers"]["box_class"].as<std::string>();
    r.plus_suffix = y["triggers"]["plus_suffix"].as<std::string>();
    r.plus_trigger = y["triggers"]["plus_trigger"].as<std::string>();
    read_list(y["legend_classes"], r.legend_classes);
    read_list(y["round_prefixes"], r.round_prefixes);
    read_list(y["step_prefixes"], r.step_prefixes);
    read_list(y["phase_box_classes"], r.phase_box_classes);
    read_list(y["image_prefixes"], r.image_prefixes);
    read_list(y["image_suffixes"], r.image_suffixes);
    read_list(y["reference_templates"], r.reference_templates);
    read_list(y["text_templates"], r.text_templates);
    for (const auto& n : y["non_rules"])
      r.non_rules.emplace_back(n["reason"].as<std::string>(), n["text_starts"].as<std::string>());
    r.id_words = y["id"]["max_words"].as<std::size_t>();
    r.id_separator = y["id"]["separator"].as<std::string>();
    for (const auto& p : r.round_prefixes) r.heading_prefix = std::max(r.heading_prefix, p.size());
    for (const auto& p : r.step_prefixes) r.heading_prefix = std::max(r.heading_prefix, p.size());
    for (const auto& [reason, start] : r.non_rules) r.non_rule_prefix = std::max(r.non_rule_prefix, start.size());
    for (const auto* list : {&r.round_prefixes, &r.step_prefixes})
      for (const auto& p : *list) {
        r.heading_starts.push_back(p);
        if (p.empty()) r.heading_any = true;
        else r.heading_initials[static_cast<unsigned char>(p[0])] = true;
      }
    for (const auto& [reason, start] : r.non_rules) {
      r.non_rule_starts.push_back(start);
      if (start.empty()) r.non_rule_any = true;
      else r.non_rule_initials[static_cast<unsigned char>(start[0])] = true;
    }
    // Each class once, with its length and first two bytes for may_be_class.
    r.shortest_class = SIZE_MAX;
    auto entry = [&r](const std::string& c) -> Mapping::KnownClass& {
      for (Mapping::KnownClass& k : r.known_classes)
        if (k.name == c) return k;
      r.class_lengths |= std::uint64_t{1} << std::min<std::size_t>(c.size(), 63);
      if (!c.empty()) r.class_initials[static_cast<unsigned char>(c[0])] = true;
      if (c.size() >= 2) {
        auto second = static_cast<unsigned char>(c[1]);
        r.class_seconds[static_cast<unsigned char>(c[0])][second / 64] |= std::uint64_t{1} << (second % 64);
      }
      r.shortest_class = std::min(r.shortest_class, c.size());
      Mapping::KnownClass& k = r.known_classes.emplace_back();
      k.name = c;
      return k;
    };
    for (const auto& [c, kind] : r.kinds) {
      Mapping::KnownClass& k = entry(c);
      k.tally = true;
      k.kind = kind;
      k.has_kind = true;
    }
    {
      Mapping::KnownClass& core = entry(r.core_class);
      core.core = core.tally = true;
    }
    entry(r.box_class).box = true;
    for (const auto& c : r.legend_classes) entry(c).legend = true;
    for (const auto& c : r.phase_box_classes) entry(c).phase_box = true;
    // A node's facts name its kind class by a byte (PageExtractor::ClassFacts).
    if (r.known_classes.size() > 255) throw std::runtime_error("schema/extract.yaml: more than 255 classes");
    return r;
  }();
  return m;
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/// doc.text(n) without substr's range check: a node's span lies in its source. GCC kept
/// Document::text out of line, a call for each Text node the walks look into.
[[gnu::always_inline]] inline std::string_view bytes_of(const Document& doc, const Node& n) {
  return {doc.source(n.source).data() + n.span.begin, n.span.size()};
}

/// name == tag for short tag names, byte by byte and inline (a call, to memcmp or to this,
/// costs more than the comparison for two or three bytes).
template <std::size_t N>
[[gnu::always_inline]] inline bool is_name(std::string_view name, const char (&tag)[N]) {
  if (name.size() != N - 1) return false;
  for (std::size_t i = 0; i + 1 < N; ++i)
    if (name[i] != tag[i]) return false;
  return true;
}

/// Room for a text whose length is bounded before it is written (variants()' readings:
/// cleaning never lengthens its pieces), written in place: std::string's append checked
/// its capacity and called out for every piece, and most pieces are a word or two.
class TextBuffer {
public:
  /// Empties the buffer and makes room for `room` bytes.
  void start(std::size_t room) {
    size_ = 0;
    if (room > capacity_) grow(room);
  }
  void clear() { size_ = 0; }
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  char operator[](std::size_t i) const { return data_[i]; }
  char back() const { return data_[size_ - 1]; }
  void pop_back() { --size_; }
  void erase(std::size_t from) { size_ = from; }
  TextBuffer& operator+=(char c) {
    if (size_ == capacity_) grow(size_ + 1);  // never, as start() is used; kept safe
    data_[size_++] = c;
    return *this;
  }
  void append(const char* p, std::size_t n) {
    if (capacity_ - size_ < n) grow(size_ + n);
    std::memcpy(data_.get() + size_, p, n);
    size_ += n;
  }
  void append(std::string_view s) { append(s.data(), s.size()); }
  /// Appends `s` into the room start() made, a short piece without a call: points_of
  /// gathers a rules text from runs of a few bytes each (between links, bold and
  /// spans), and memcpy's call cost more than such a copy.
  void put(std::string_view s) {
    char* out = data_.get() + size_;
    const char* p = s.data();
    const std::size_t n = s.size();
    size_ += n;
    if (n > 16) {
      std::memcpy(out, p, n);
    } else if (n >= 8) {  // two overlapping words: the first and the last eight bytes
      std::uint64_t head, tail;
      std::memcpy(&head, p, 8);
      std::memcpy(&tail, p + n - 8, 8);
      std::memcpy(out, &head, 8);
      std::memcpy(out + n - 8, &tail, 8);
    } else if (n >= 4) {
      std::uint32_t head, tail;
      std::memcpy(&head, p, 4);
      std::memcpy(&tail, p + n - 4, 4);
      std::memcpy(out, &head, 4);
      std::memcpy(out + n - 4, &tail, 4);
    } else if (n > 0) {  // one to three bytes: the first, the middle and the last
      out[0] = p[0];
      out[n / 2] = p[n / 2];
      out[n - 1] = p[n - 1];
    }
  }
  /// put() of a run with sixteen readable bytes from its start (Run::readable16), into
  /// room for sixteen more bytes than the texts (start(room + 16)): a text of at most
  /// sixteen bytes is one 16-byte copy, the bytes past it overwritten by the next piece
  /// or left past the end. Runs are a few bytes each, and put()'s choice among its four
  /// sizes was a mispredicted branch for one run in two.
  void put16(std::string_view s) {
    if (s.size() > 16) return put(s);
    char block[16];
    std::memcpy(block, s.data(), 16);
    std::memcpy(data_.get() + size_, block, 16);
    size_ += s.size();
  }
  /// put() with room made first if start() did not make enough.
  void add(std::string_view s) {
    if (capacity_ - size_ < s.size()) grow(size_ + s.size());
    put(s);
  }
  std::string_view view() const { return {data_.get(), size_}; }
  char* data() { return data_.get(); }
  /// Makes sixteen bytes after the text readable and writable, set to 'A' (neither a
  /// space nor a control byte), for a reader that takes the text sixteen bytes a step.
  void pad16() {
    if (capacity_ - size_ < 16) grow(size_ + 16);
    std::memset(data_.get() + size_, 'A', 16);
  }

private:
  void grow(std::size_t room) {
    room = std::max(room, 2 * capacity_);
    auto bigger = std::make_unique_for_overwrite<char[]>(room);
    if (size_ > 0) std::memcpy(bigger.get(), data_.get(), size_);
    data_ = std::move(bigger);
    capacity_ = room;
  }
  std::unique_ptr<char[]> data_;
  std::size_t size_ = 0, capacity_ = 0;
};

/// Builds a clean text from pieces: whitespace collapsed to single spaces, trimmed, and
/// a dangling trigger arrow dropped. Appends whole runs of non-space bytes at once (rule
/// texts are megabytes per page). `Out` is a std::string or a TextBuffer. Into a
/// TextBuffer the pieces are copied as they come and cleaned in place by finish(): a
/// reading is a few runs of a few bytes each (the text between links, bold and spans),
/// and trimming and checking each piece on its own cost more than one pass over all.
template <class Out>
class BasicCleaner {
public:
  explicit BasicCleaner(Out& out) : out_(out) { out_.clear(); }
  void append(std::string_view s) {
    if constexpr (std::is_same_v<Out, TextBuffer>) {
      out_.add(s);
      return;
    }
    // Most pieces are short (a space between two spans, a line break, a word of one
    // edition): those are cleaned here byte by byte, the rest in append_long.
    if (s.size() < 8) append_short(s);
    else append_long(s);
  }
  /// The TextBuffer's pieces cleaned where they stand: the text never grows, so the
  /// cleaned bytes are written at or before the bytes they come from. Sixteen bytes a
  /// step while no space is pending and a block has nothing to collapse (no tab, newline
  /// or return, no two spaces in a row), as single_spaced reads them; byte by byte
  /// otherwise. The last block may reach up to sixteen bytes past `size`, which the
  /// caller has made readable and writable (TextBuffer::pad16: most readings are
  /// shorter than a block).
  static std::size_t collapse_in_place(char* const text, const std::size_t size) {
    const char* r = text;
    const char* const end = text + size;
    while (r < end && is_space(*r)) ++r;  // leading whitespace is dropped
    char* w = text;
    bool pending = false;  // a run of whitespace since the last byte written
    auto step = [&](char c) {
      if (is_space(c)) {
        pending = true;
        return;
      }
      if (pending && w != text) *w++ = ' ';
      pending = false;
      *w++ = c;
    };
#ifdef __SSE2__
    const __m128i limit = _mm_set1_epi8(0x20), blank = _mm_set1_epi8(' ');
    while (r < end) {
      if (pending) {
        // The rest of a run of whitespace, and the one space it becomes (a byte was
        // written before it: leading whitespace was dropped above).
        while (r < end && is_space(*r)) ++r;
        if (r == end) break;
        *w++ = ' ';
        pending = false;
      }
      // The block's bytes within the text (bit k for byte k).
      const std::size_t left = static_cast<std::size_t>(end - r);
      const unsigned n = left >= 16 ? 16 : static_cast<unsigned>(left);
      const unsigned in_text = left >= 16 ? 0xFFFFu : (1u << n) - 1;
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(r));
      const auto low = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(v, limit), v))) & in_text;
      const auto spaces = low ? static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, blank))) & in_text : 0;
      // The bytes that end the block's plain part: a tab, newline, return or other
      // control byte, or the second of two spaces. With no space pending the block
      // follows a byte written that is no space (or starts the text with none), so a
      // space it starts with stays.
      const unsigned stops = (low ^ spaces) | (spaces & (spaces << 1));
      if (!stops) {
        // Stored whole, over bytes already read (and past the text's end, into the
        // padding, for a last block); only its bytes in the text count.
        _mm_storeu_si128(reinterpret_cast<__m128i*>(w), v);
        w += n;
        r += n;
        if (spaces >> (n - 1) & 1) {  // a space at its end may be the first of several
          --w;
          pending = true;
        }
        continue;
      }
      // Up to the first such byte, byte by byte (a store of the block moved back would
      // write over bytes after it not yet read); then whitespace is pending or the
      // control byte copied, and the next block starts after it.
      for (const char* stop = r + std::countr_zero(stops); r <= stop; ++r) step(*r);
    }
#endif
    for (; r < end; ++r) step(*r);
    return static_cast<std::size_t>(w - text);
  }
  void append_short(std::string_view s) {
    std::size_t b = 0, e = s.size();
    while (b < e && is_space(s[b])) ++b;
    if (b > 0) space_ = !out_.empty();
    if (b == e) return;
    while (is_space(s[e - 1])) --e;
    // As single_spaced: no control byte, no two spaces in a row (s[b] is no space, so
    // a space has a byte before it).
    for (std::size_t i = b + 1; i < e; ++i) {
      auto c = static_cast<unsigned char>(s[i]);
      if (c <= 0x20 && (c != ' ' || s[i - 1] == ' ')) {
        append_slowly(s.substr(b, e - b));
        if (e < s.size()) space_ = true;
        return;
      }
    }
    if (space_) out_ += ' ';
    out_.append(s.data() + b, e - b);
    space_ = e < s.size();
  }
  [[gnu::noinline]] void append_long(std::string_view s) {
    // Most pieces are words with single spaces between them: those are copied whole.
    std::size_t b = 0, e = s.size();
    while (b < e && is_space(s[b])) ++b;
    if (b > 0) space_ = !out_.empty();
    if (b == e) return;
    while (is_space(s[e - 1])) --e;
    std::string_view middle = s.substr(b, e - b);
    if (single_spaced(middle)) {
      if (space_) out_ += ' ';
      out_.append(middle);
      space_ = e < s.size();
      return;
    }
    append_slowly(middle);
    if (e < s.size()) space_ = true;
  }
  /// Has nothing to collapse: no tab, newline or carriage return, no two spaces in a row.
  /// Eight bytes at a time: the exact mask of bytes equal to `c` (high bit of each).
  static std::uint64_t bytes_equal(std::uint64_t x, unsigned char c) {
    constexpr std::uint64_t ones = 0x0101010101010101ull, low7 = 0x7F7F7F7F7F7F7F7Full;
    std::uint64_t y = x ^ (ones * c);
    return ~(((y & low7) + low7) | y) & ~low7;
  }
  /// The exact mask of bytes below 0x21 (space and the control bytes).
  static std::uint64_t bytes_below_0x21(std::uint64_t x) {
    constexpr std::uint64_t ones = 0x0101010101010101ull, low7 = 0x7F7F7F7F7F7F7F7Full;
    return ~(((x & low7) + ones * (0x80 - 0x21)) | x) & ~low7;
  }
  /// Whether the eight bytes hold no control byte and no two spaces in a row; `previous`
  /// is the high-bit mask the byte before them contributes (a space: 0x80).
  static bool block_single_spaced(std::uint64_t x, std::uint64_t previous, bool& last_space) {
    std::uint64_t low = bytes_below_0x21(x);
    last_space = false;
    if (!low) return true;  // a run of letters: the usual block
    std::uint64_t spaces = bytes_equal(x, ' ');
    // A tab, newline or return (or another control byte, which the slow path copies
    // as it is) sends the piece to append_slowly.
    if (low != spaces) return false;
    // Byte order: as loaded, byte k of the text is bits 8k..8k+7 on little-endian
    // machines, and the previous byte of each is the one a shift by 8 moves up.
    if (spaces & ((spaces << 8) | previous)) return false;
    last_space = spaces >> 63;
    return true;
  }
  static bool single_spaced(std::string_view m) {
    if (std::endian::native != std::endian::little) return single_spaced_slowly(m);
    const char* p = m.data();
    std::size_t n = m.size();
#ifdef __SSE2__
    // Sixteen bytes a step, as below with eight: bit k of `low` is byte k at or below
    // 0x20, of `spaces` byte k a space.
    if (n >= 16) {
      const __m128i limit = _mm_set1_epi8(0x20), blank = _mm_set1_epi8(' ');
      auto masks = [&](std::size_t at, unsigned& low, unsigned& spaces) {
        __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
        low = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(v, limit), v)));
        spaces = low ? static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, blank))) : 0;
      };
      unsigned low, spaces, previous = 0;  // previous: the byte before the block was a space
      std::size_t i = 0;
      for (; i + 16 <= n; i += 16) {
        masks(i, low, spaces);
        if (low != spaces || (spaces & ((spaces << 1) | previous))) return false;
        previous = spaces >> 15;
      }
      if (i == n) return true;
      // The last sixteen bytes, overlapping checked ones (see the eight-byte case).
      masks(n - 16, low, spaces);
      return low == spaces && !(spaces & (spaces << 1));
    }
#endif
    bool space = false;
    std::uint64_t x;
    if (n < 8) {
      x = 0x4141414141414141ull;  // padded with 'A', which is neither space nor control
      std::memcpy(&x, p, n);
      return block_single_spaced(x, 0, space);
    }
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      std::memcpy(&x, p + i, 8);
      if (!block_single_spaced(x, space ? 0x80ull : 0, space)) return false;
    }
    if (i == n) return true;
    // The last eight bytes, overlapping checked ones: the pair across their first byte
    // lay inside the block before, so only pairs within them are new.
    std::memcpy(&x, p + n - 8, 8);
    return block_single_spaced(x, 0, space);
  }
  static bool single_spaced_slowly(std::string_view m) {
    for (std::size_t i = 0; i < m.size(); ++i)
      if (m[i] == '\t' || m[i] == '\n' || m[i] == '\r' || (i > 0 && m[i] == ' ' && m[i - 1] == ' ')) return false;
    return true;
  }
  void append_slowly(std::string_view s) {
    const char* p = s.data();
    const char* end = p + s.size();
    while (p < end) {
      if (is_space(*p)) {
        space_ = !out_.empty();
        while (++p < end && is_space(*p)) {
        }
        continue;
      }
      const char* b = p;
      while (++p < end && !is_space(*p)) {
      }
      if (space_) out_ += ' ';
      space_ = false;
      out_.append(b, static_cast<std::size_t>(p - b));
    }
  }
  void finish() {
    if constexpr (std::is_same_v<Out, TextBuffer>) {
      out_.pad16();
      out_.erase(collapse_in_place(out_.data(), out_.size()));
    }
    // "→" (E2 86 92) before the trigger icons; its last byte first, which rules out
    // nearly every text at once.
    auto arrow_at_end = [&] {
      std::size_t n = out_.size();
      return n >= 3 && out_[n - 1] == '\x92' && out_[n - 2] == '\x86' && out_[n - 3] == '\xE2';
    };
    while (arrow_at_end()) {
      out_.erase(out_.size() - 3);
      while (!out_.empty() && out_.back() == ' ') out_.pop_back();
    }
  }

private:
  Out& out_;
  bool space_ = false;
};
using Cleaner = BasicCleaner<std::string>;

/// `s` cleaned in `buffer` (a caller's, kept between calls), valid until its next use:
/// a record copies it out at its own size, where a string of its own made room for the
/// whole uncleaned text.
std::string_view clean_into(TextBuffer& buffer, std::string_view s) {
  buffer.start(s.size());
  BasicCleaner<TextBuffer> c(buffer);
  c.append(s);
  c.finish();
  return buffer.view();
}

/// slug() in a buffer of its own, valid until the next call: a caller that copies it
/// into a longer string spares the slug's own string.
std::string_view slug_view(std::string_view s, std::size_t max_words) {
  // A slug is never longer than its text: written through a pointer into a buffer of
  // that size (a push_back per byte costs more than the byte), then copied out at its
  // own length. The buffer is kept between calls: a description is hundreds of bytes,
  // its slug a few words, so a fresh string of the text's size was mostly wasted.
  thread_local std::string buffer;
  if (buffer.size() < s.size()) buffer.resize(std::max(s.size(), 2 * buffer.size()));
  char* const begin = buffer.data();
  char* o = begin;
  // ASCII only, as std::isalnum/std::tolower in the "C" locale: each byte's lower-case
  // form if alphanumeric, else 0.
  static constexpr auto slug_byte = [] {
    std::array<char, 256> t{};
    for (int c = '0'; c <= '9'; ++c) t[c] = static_cast<char>(c);
    for (int c = 'a'; c <= 'z'; ++c) t[c] = static_cast<char>(c);
    for (int c = 'A'; c <= 'Z'; ++c) t[c] = static_cast<char>(c - 'A' + 'a');
    return t;
  }();
  // Word by word: the bytes between words are passed by one loop, a word's copied by
  // another, each with one test a byte (one loop for both kept a flag of which it was in).
  std::size_t words = 0;
  const char* p = s.data();
  const char* const end = p + s.size();
  while (p < end) {
    while (p < end && !slug_byte[static_cast<unsigned char>(*p)]) ++p;
    if (p == end) break;
    if (o != begin) {
      if (++words >= max_words) break;
      *o++ = '-';
    }
    for (char l; p < end && (l = slug_byte[static_cast<unsigned char>(*p)]) != 0; ++p) *o++ = l;
  }
  return std::string_view(begin, static_cast<std::size_t>(o - begin));
}

std::string slug(std::string_view s, std::size_t max_words) { return std::string(slug_view(s, max_words)); }

std::string lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

/// Bit of an edition in a Run's `shown` mask.
constexpr unsigned edition_bit(select::Edition e) { return 1u << static_cast<unsigned>(e); }
constexpr unsigned kAllEditions =
    edition_bit(select::Edition::C1) | edition_bit(select::Edition::C2) | edition_bit(select::Edition::WE);

/// A piece of text and the condition it is shown under (select::TextRun, viewing the
/// document instead of copying it). `shown` holds, per edition, whether the condition is
/// satisfiable under it: every reading of the run asks that, so it is asked once.
/// The condition is viewed too, never copied: a cell's runs share a few conditions, and
/// a copy each cost two atomic updates of its count (the copy and the clear). It is one
/// the Collected keeps (Collected::keep) or one its caller keeps while the runs are read.
struct Run {
  std::string_view text;
  const select::Condition* condition;
  unsigned shown = kAllEditions;
  /// Sixteen bytes from the text's start lie in the source it views (a page text's run
  /// not at its very end): a short run is then copied as one block (TextBuffer::put16).
  bool readable16 = false;
};

/// A run of a page text's node `n`, with whether sixteen bytes from its start can be read.
[[gnu::always_inline]] inline Run text_run(const Document& doc, const Node& n, const select::Condition* c,
                                           unsigned shown) {
  const std::string_view source = doc.source(n.source);
  return {{source.data() + n.span.begin, n.span.size()}, c, shown, source.size() - n.span.begin >= 16};
}

/// A run copied into a buffer started with sixteen bytes to spare: as one block when its
/// bytes allow (put16), else byte-exact (put). The one place that reads readable16.
inline void put_run(TextBuffer& buffer, const Run& r) {
  if (r.readable16) buffer.put16(r.text);
  else buffer.put(r.text);
}

/// Everything a text walk over one cell (or template parameter) yields. One is reused
/// for many cells (clear() keeps the capacity), so a rule costs no fresh vectors.
struct Collected {
  std::vector<Run> runs;
  /// Run texts that are not in the document (decoded entities, nowiki text), each on the
  /// heap of its own, so the runs' views stay valid whatever is added later.
  std::vector<std::unique_ptr<std::string>> owned;
  void add_owned(std::string text, const select::Condition& cond, unsigned shown) {
    owned.push_back(std::make_unique<std::string>(std::move(text)));
    runs.emplace_back(*owned.back(), &cond, shown);
  }
  /// The conditions made during the walk (a class's product with the path's) that runs
  /// view: a deque, so that each stays where it is as more are added.
  std::deque<select::Condition> conditions;
  const select::Condition& keep(select::Condition c) { return conditions.emplace_back(std::move(c)); }
  std::vector<std::pair<NodeId, select::Condition>> items;  ///< list items (notes), with their local condition
  std::vector<std::string> references;
  std::vector<NodeId> tables;  ///< nested tables (sub-rules)
  /// The trigger boxes the walk met (it reads none of their text), and the subtrees it
  /// read none or only part of (a template, a link's caption): the only places a cell's
  /// trigger icons can be, so that triggers_in() need not walk the whole cell again.
  std::vector<NodeId> boxes, unread;
  // Out of line: collect() asks for these rarely, and inlined they made its frame larger.
  [[gnu::noinline]] void add_box(NodeId id) { boxes.push_back(id); }
  /// Node `id` (`n`) as a subtree the walk left unread: only one with children can hold
  /// an icon.
  void add_unread(const Node& n, NodeId id) {
    if (n.first_child != kNoNode) [[unlikely]] push_unread(id);
  }
  [[gnu::noinline]] void push_unread(NodeId id) { unread.push_back(id); }
  // Asked before every cell and note is read (scratch()), when most of these are empty
  // already: an empty one is passed over, where the deque's clear was a call and a walk
  // over its blocks each time.
  void clear() {
    runs.clear();
    if (!owned.empty()) owned.clear();
    if (!items.empty()) items.clear();
    if (!references.empty()) references.clear();
    tables.clear();
    if (!conditions.empty()) conditions.clear();
    boxes.clear();
    unread.clear();
  }
};

/// An expression of one reading of a rule text (points_of), placed in the runs: where it
/// starts (run index, byte in the run), which is the same place in every reading. The
/// expression is named by its index among the page's found ones (PointsMemo::found).
struct Placed {
  std::pair<std::size_t, std::size_t> start;
  std::size_t points;
};

/// How the runs of one text fall into parts (Rule::rules_parts): each part a range of
/// runs under one condition with the edition atoms left out.
struct PartLayout {
  struct Part {
    std::size_t begin = 0, end = 0;  ///< runs [begin, end)
    select::Condition condition;     ///< relative, without edition atoms
    SharedText when;
    bool always = false;  ///< the condition is `true`
  };
  std::vector<Part> parts;
  /// The part of each run; kEverywhere for runs that belong to every reading (blank
  /// ones, and those of parts dropped for having no text).
  std::vector<std::size_t> part_of_run;
  static constexpr std::size_t kEverywhere = SIZE_MAX;
  void clear() {
    parts.clear();
    part_of_run.clear();
  }
};

/// Copies of texts that views keep for a page, in blocks that never move (a string per
/// text would be an allocation each).
class KeptBytes {
public:
  std::string_view keep(std::string_view s) {
    if (left_ < s.size()) {
      left_ = std::max<std::size_t>(s.size(), 16384);
      // Not zeroed: every byte is written before a view shows it, and make_unique's
      // zeroing of each 16 KB block cost more than all the copies into it.
      blocks_.push_back(std::make_unique_for_overwrite<char[]>(left_));
      next_ = blocks_.back().get();
    }
    if (!s.empty()) std::memcpy(next_, s.data(), s.size());
    std::string_view kept(next_, s.size());
    next_ += s.size();
    left_ -= s.size();
    return kept;
  }

private:
  std::vector<std::unique_ptr<char[]>> blocks_;
  char* next_ = nullptr;
  std::size_t left_ = 0;
};

/// The ids of a page's rules, each with how many of its repeats unique_id() numbered.
/// The ids' bytes are kept in KeptBytes and found by open addressing:
/// a std::unordered_map of strings cost a node and a copy of the id, two allocations
/// for every rule of a page, and as many frees when the page was done.
class PageIds {
public:
  /// The count of `id`; a new id is added with count 1 (`fresh`). The reference is
  /// good until the next id is added.
  std::size_t& add(std::string_view id, bool& fresh) {
    const std::uint64_t h = text_hash(id);
    if (auto* e = table_.find(h, [id](const Entry& x) { return x.first == id; })) {
      fresh = false;
      return e->second;
    }
    fresh = true;
    return table_.insert(h, Entry{bytes_.keep(id), 1}).second;
  }
  /// Room for `n` ids (see ProbeTable::reserve).
  void reserve(std::size_t n) { table_.reserve(n); }
  bool contains(std::string_view id) {
    return table_.find(text_hash(id), [id](const Entry& x) { return x.first == id; }) != nullptr;
  }

private:
  using Entry = std::pair<std::string_view, std::size_t>;
  select::ProbeTable<Entry> table_{SIZE_MAX};  // never emptied: an id must stay taken
  KeptBytes bytes_;
};

// The cells the completeness tally covers: those with a rule class (kinds) or the core
// class. The legend's own scoringCoreLegend cell is a colour sample, not a scoring cell.
bool is_tally_class(const Mapping& m, std::string_view c) {
  const Mapping::KnownClass* k = m.known_class(c);
  return k && k->tally;
}

// Commented-out rows still hold scoring cells the tally must account for: every
// class attribute in the comment with a tally class counts as one cell.
std::size_t commented_cells(const Mapping& m, std::string_view body) {
  std::size_t n = 0;
  for (std::size_t at = body.find("class=\""); at != std::string_view::npos; at = body.find("class=\"", at + 7)) {
    std::size_t end = body.find('"', at + 7);
    if (end == std::string_view::npos) break;
    std::string_view value = body.substr(at + 7, end - at - 7);
    bool hit = false;
    for (std::size_t b = 0; b < value.size();) {
      std::size_t e = value.find(' ', b);
      if (e == std::string_view::npos) e = value.size();
      hit = hit || is_tally_class(m, value.substr(b, e - b));
      b = e + 1;
    }
    n += hit;
  }
  return n;
}

/// Where the next "<!--" at or after `from` starts, or npos. A page holds thousands of
/// '<' (its tags), where find() stopped each time, and few '!' (comments, a table's
/// header cells): memchr finds those, and the bytes around say whether one opens a comment.
std::size_t find_comment_open(std::string_view text, std::size_t from) {
  const char* base = text.data();
  for (std::size_t at = from + 1; at < text.size(); ++at) {
    const void* hit = std::memchr(base + at, '!', text.size() - at);
    if (!hit) break;
    at = static_cast<std::size_t>(static_cast<const char*>(hit) - base);
    if (base[at - 1] == '<' && text.compare(at + 1, 2, "--") == 0) return at - 1;
  }
  return std::string_view::npos;
}

/// Appends `ref` unless `list` has it already: a rule lists each reference once, where
/// it was first met (its description, its rules text, then its notes).
void add_once(std::vector<std::string>& list, const std::string& ref) {
  if (std::find(list.begin(), list.end(), ref) == list.end()) list.push_back(ref);
}

/// A hash of a cell's or a note's text for the page's memos of repeats, from its length
/// and three samples (its start, middle and end): a cell is hundreds of bytes, every row
/// asks, and a third of the rows repeat one; hashing every byte cost a third of what the
/// repeats spare. A candidate's text is compared whole.
std::uint64_t sampled_hash(std::string_view text) {
  if (text.size() < 32) return text_hash(text);
  std::uint64_t head, middle, tail, end;
  std::memcpy(&head, text.data(), 8);
  std::memcpy(&middle, text.data() + text.size() / 2 - 4, 8);
  std::memcpy(&tail, text.data() + text.size() - 16, 8);
  std::memcpy(&end, text.data() + text.size() - 8, 8);
  return select::mix64((head ^ text.size()) * 0x9E3779B97F4A7C15ull + (middle ^ (tail * 0xC2B2AE3D27D4EB4Full)) +
                       select::mix64(end));
}

/// Whether `s` holds only whitespace and trigger arrows ("→", E2 86 92).
bool blank_or_arrow(std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (is_space(s[i])) continue;
    // Byte by byte, not a compare() call: parts_of asks this of every run it reads, and
    // most fail at their first byte.
    if (s[i] != '\xE2' || s.size() - i < 3 || s[i + 1] != '\x86' || s[i + 2] != '\x92') return false;
    i += 2;
  }
  return true;
}

/// A table by NodeId for one page, every byte of it set to one pattern as it is made: a
/// std::vector's assign filled its ten thousand elements one by one, for each of a
/// page's tables.
template <class T>
class NodeTable {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_default_constructible_v<T>);

public:
  void reset(std::size_t size, unsigned char pattern) {
    data_ = std::make_unique_for_overwrite<T[]>(size);
    if (size > 0) std::memset(data_.get(), pattern, size * sizeof(T));
  }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }

private:
  std::unique_ptr<T[]> data_;
};

/// Whether no edition has any text.
bool empty(const Variants& v) { return v.uniform ? v.text.empty() : v.c1.empty() && v.c2.empty() && v.we.empty(); }

class PageExtractor {
public:
  PageExtractor(const PageInput& in, support::DiagnosticSink& sink)
      : page_(in.page), file_(in.file), restored_(in.restored), expansion_(in.expansion), doc_(in.doc),
        conditions_(in.conditions), locate_(in.locate), sink_(sink), m_(mapping()), v_(select::Vocabulary::builtin()) {
    true_shown_ = shown_in(select::Condition());
    true_when_ = select::to_string(v_.simplify(select::Condition()));
    page_title_ = page_.title;
    page_file_ = page_.source.file;
  }

  PageRules run();

private:
  // --- walk ---
  void walk(NodeId root);
  bool visit(NodeId id);
  /// The kinds visit() does something for (else it only descends).
  static bool visit_matters(NodeKind k) {
    return k == NodeKind::Heading || k == NodeKind::Table || k == NodeKind::TableRow || k == NodeKind::TableCell ||
           k == NodeKind::SemanticTemplate || k == NodeKind::Element || k == NodeKind::Paragraph;
  }
  /// Whether the subtree of `n`, whose own kind visit() passes by, holds nothing else:
  /// no children, or only leaves of such kinds.
  bool passed_by(const Node& n) const {
    for (NodeId k = n.first_child; k != kNoNode; k = doc_.node(k).next_sibling) {
      const Node& kn = doc_.node(k);
      if (kn.first_child != kNoNode || visit_matters(kn.kind)) return false;
    }
    return true;
  }
  /// Pops the rule and block that `id` opened, if any: asked of every node the walk enters,
  /// so inline (as a call it cost more than its two tests).
  [[gnu::always_inline]] inline void leave(NodeId id);
  bool legend_table(NodeId table);
  // Out of line: inlined into visit(), their registers and stack were saved and restored
  // on each of its calls (every row, cell and element of a page), not only on a row's.
  [[gnu::noinline]] bool rule_row(NodeId row);
  [[gnu::noinline]] bool sub_rules_row(NodeId row);
  [[gnu::noinline]] bool scoring_row(NodeId node);
  void block_row(NodeId row);
  void header_row(NodeId row);
  /// Appends the trigger icons of the header rows above `row` to `out`.
  void header_triggers(NodeId row, std::vector<std::string>& out) const;
  /// Asked of every row, element and paragraph: the usual answer (too long, or a first
  /// byte no non-rule starts with) inline, the rest in non_rule_text().
  bool non_rule(NodeId id) {
    const Node& n = doc_.node(id);
    if (n.span.size() > 400) return false;
    const int first = first_byte(id);  // -1 only when the whole text is empty
    if ((n.kind != NodeKind::TableRow || first >= 0) && !m_.non_rule_any &&
        (first < 0 || !m_.non_rule_initials[static_cast<std::size_t>(first)]))
      return false;
    return non_rule_text(id, first);
  }
  /// non_rule() past its first tests: a spacer row, else the node's text decides.
  [[gnu::noinline]] bool non_rule_text(NodeId id, int first);
  /// Whether a cell shows images and nothing else (no text, no link, no template);
  /// `image` is then its first image.
  bool image_only(NodeId cell, NodeId& image) const;
  bool textless(NodeId id, NodeId& image, int depth) const;
  /// Asked of every cell, element and paragraph: the usual answer (too long, or neither
  /// a phase box nor a cell) inline, the rest in heading_text().
  void heading_like(NodeId id) {
    const Node& n = doc_.node(id);
    if (n.span.size() > 600) return;
    if (n.kind != NodeKind::TableCell && !facts(n).phase_box) return;
    heading_text(id);
  }
  [[gnu::noinline]] void heading_text(NodeId id);
  // --- text ---
  void collect(NodeId id, const select::Condition& cond, Collected& out, bool skip_lists, int depth);
  /// The run's `shown` mask for a condition (edition_bit()s). The conditions that reach
  /// the runs come out of select's memos, the same objects from page to page, and carry
  /// the vocabulary's answers with them: after a condition's first page this is a load.
  unsigned shown_in(const select::Condition& c) const {
    static_assert(edition_bit(select::Edition::C1) == 1 && edition_bit(select::Edition::C2) == 2 &&
                  edition_bit(select::Edition::WE) == 4);  // satisfiable_editions' bits
    return v_.satisfiable_editions(c);
  }
  /// to_string(simplify(c)), the relative condition of a note or points entry; one
  /// string for each condition (when_memo()), which the records share.
  SharedText when_of(const select::Condition& c);
  /// A cleared Collected for one nesting level of a rule's cells and notes (0 and 1 are
  /// the description and rules cells, notes count up from 2).
  Collected& scratch(std::size_t level);
  Variants variants(const std::vector<Run>& runs) const { return variants(runs.data(), runs.data() + runs.size()); }
  Variants variants(const Run* begin, const Run* end) const {
    Variants out;
    variants_into(begin, end, out);
    return out;
  }
  /// variants() written into a record's field that holds no text yet (a rule's or note's
  /// just made): a Variants returned and moved in was four swaps and a destructor call.
  void variants_into(const std::vector<Run>& runs, Variants& out) const {
    variants_into(runs.data(), runs.data() + runs.size(), out);
  }
  void variants_into(const Run* begin, const Run* end, Variants& out) const;
  bool edition_blind(const Run* begin, const Run* end) const;
  bool edition_blind(const std::vector<Run>& runs) const { return edition_blind(runs.data(), runs.data() + runs.size()); }
  /// `c` without its edition atoms (existentially: `C1 & OtherTiles` is `OtherTiles`).
  select::Condition without_editions(const select::Condition& c);
  /// Cuts `runs` into parts where their condition (edition atoms aside) changes; false,
  /// with `layout` and `parts` empty, when the text is one part under `true` (always so
  /// for runs without conditions, which cost one look each).
  bool parts_of(const std::vector<Run>& runs, PartLayout& layout, std::vector<TextPart>& parts);
  /// The scoring expressions of a text; with parts, searched in each reading (see there)
  /// and conditioned by the part they lie in. `full` is the rule's own condition.
  std::vector<PointsEntry> points_of(const std::vector<Run>& runs, const PartLayout& layout, const select::Condition& full);
  /// Appends the notes of `c`'s list items to `notes`, and their references to `refs`
  /// (each once).
  void notes_of(const Collected& c, std::vector<Note>& notes, std::vector<std::string>& refs, std::size_t level);
  /// Whether `id` or a node above it is in conditions_.projection_only (remembered per
  /// node: the rows of a table share all of their path but the last steps).
  bool projection_on_path(NodeId id);
  /// ++by_use[reason] without building the key each time (`reason` must outlive the page).
  void count_use(std::string_view reason, std::size_t n = 1);
  /// A cell of a raw row whose text a rule takes, the same wherever the cell stands: a
  /// page repeats rows (the Dispatch block in several steps, "2 points OR depends on tile
  /// (see above)"), and a repeated cell reads as its first copy did. That copy's rule
  /// holds what was made of it.
  struct CellText {
    NodeId cell = kNoNode;  ///< the first cell with this text, whose tree a repeat must match
    std::size_t rule = 0;   ///< in out_.rules
    bool plain_triggers = false;  ///< a description cell whose rule has no header icons
    /// The rule condition the points were placed under, when the rules text has parts (a
    /// part's expression is conditioned relative to it); then a repeat must share it.
    select::Condition full;
  };
  /// A cell of a raw row as finish_rule takes it: `known` when a cell with its text and
  /// tree was read before on the page; else `hash` files what finish_rule makes of it.
  struct CellRead {
    NodeId cell = kNoNode;  ///< kNoNode: not remembered (a ScoringRow's parameters, a rowspan, see cell_read)
    std::uint64_t hash = 0;
    const CellText* known = nullptr;
    bool plain_triggers = false;  ///< see CellText
  };
  /// Looks `cell` up among the page's description cells (`rules` false) or rules cells.
  CellRead cell_read(NodeId cell, bool rules);
  /// Whether collect() reads the subtrees at `a` and `b`, whose texts are equal, alike.
  bool reads_alike(NodeId a, NodeId b);
  void finish_rule(Rule& rule, NodeId at, NodeId cond_node, const Collected& desc, const Collected& rules,
                   std::size_t origin_index, const CellRead& desc_read, const CellRead& rules_read);
  NodeId param_fragment(NodeId semantic, std::string_view name) const;
  std::string param_text(NodeId semantic, std::string_view name) const;
  /// Appends the trigger icons of `cell` (or of any subtree) to `out` (sorted and unique
  /// only with what was there before when the caller makes them so).
  void triggers_in(NodeId cell, std::vector<std::string>& out) const;
  std::vector<std::string> triggers_;  ///< a row's triggers, gathered before the record takes them (trigger_list)
  /// What a node's class list says to extraction, computed once per node.
  /// Two bytes a node: a page has tens of thousands of nodes, and the table is filled
  /// for each page and read at random (as a bool per fact and a pointer it was sixteen).
  /// All zero (facts_ is made zeroed): not known yet, no fact, no kind.
  struct ClassFacts {
    bool known : 1;
    bool tally : 1, core : 1, box : 1, legend : 1, phase_box : 1;
    /// The first class in `kinds`: 1 + its index in Mapping::known_classes, 0 for none.
    std::uint8_t kind;
  };
  /// The kind a class in `kinds` maps to, for ClassFacts::kind (not 0).
  const std::string& kind_name(std::uint8_t kind) const { return m_.known_classes[kind - 1u].kind; }
  [[gnu::always_inline]] const ClassFacts& facts(const Node& n) const {
    const ClassFacts& f = facts_[static_cast<std::size_t>(&n - &doc_.node(0))];
    return f.known ? f : compute_facts(n);  // asked of a node many times: the hit inline
  }
  const ClassFacts& compute_facts(const Node& n) const;
  /// compute_facts' answers by the class attribute's value (a view into the page's
  /// text), for the page.
  mutable select::ProbeTable<std::pair<std::string_view, ClassFacts>> class_facts_{SIZE_MAX};
  [[gnu::noinline]] void add_class_facts(std::string_view value, ClassFacts& f) const;
  [[gnu::noinline]] void list_facts(std::string_view value, ClassFacts& f) const;
  bool is_scoring_cell(const Node& n) const { return n.kind == NodeKind::TableCell && facts(n).tally; }
  const std::string& kind_of(const Node& cell) const;
  /// own_selector()'s condition, lints silenced (tree_conditions reported them).
  const select::Condition& own(NodeId id) {
    return id < conditions_.own.size() ? conditions_.own[id] : select::own_condition(doc_, id, file_, quiet_, v_);
  }
  void place(Rule& rule, std::uint32_t expanded_offset, const expand::Origin* direct);
  std::size_t place_segment_ = 0;  ///< the segment place() found last
  std::uint32_t place_source_ = UINT32_MAX;  ///< the source place() looked up last…
  bool place_source_is_page_ = false;        ///< …and whether it is the page
  std::string unique_id(std::string id);
  /// doc_.plain_text(id) cleaned, without the intermediate string. With `prefix`, it may
  /// stop early: then the result is longer than `prefix` and its first `prefix` bytes are
  /// the full text's (enough to test the text's start; see node_text()).
  std::string node_text(NodeId id, std::size_t prefix = std::string::npos) const {
    std::string out;
    node_text_into(out, id, prefix);
    return out;
  }
  /// node_text() in a buffer kept between calls, valid until the next call: for texts
  /// that are only looked at or copied into a SharedText (a heading's, a step's), whose
  /// own string was an allocation for any text past the string's inner buffer.
  std::string_view node_text_view(NodeId id, std::size_t prefix = std::string::npos) const {
    node_text_into(node_text_buffer_, id, prefix);
    return node_text_buffer_;
  }
  void node_text_into(std::string& out, NodeId id, std::size_t prefix) const;
  /// False when node_text(id) starts with none of `starts`, as the first text of `id`
  /// already shows; true when it may (then node_text decides).
  bool may_start_with(NodeId id, const std::vector<std::string>& starts) const;
  /// The first byte of node_text(id) (0-255), or -1 when that text is empty.
  int first_byte(NodeId id) const;
  /// first_byte() before it is remembered: the usual shapes at once, else a search.
  [[gnu::noinline]] int find_first_byte(NodeId id) const;
  [[gnu::noinline]] int search_first_byte(NodeId id) const;

  /// A warning at a node of the document, placed through the expansion's provenance.
  void warn(const Node& n, std::string message) const;
  /// doc_.position() of a non-rule. The walk finds them in document order, so each is
  /// advanced from the one before over the text between: the line index of the whole
  /// document, made for them alone, cost more than all of them.
  support::Position position_at(std::uint32_t offset);
  std::uint32_t position_offset_ = 0;
  support::Position position_{1, 1};

  const ingest::Page& page_;
  const std::string& file_;
  const preprocess::RestoreResult& restored_;
  const expand::Expansion& expansion_;
  const Document& doc_;
  const select::TreeConditions& conditions_;
  const select::Locate& locate_;
  support::DiagnosticSink& sink_;
  const Mapping& m_;
  const select::Vocabulary& v_;
  /// (marker, Expansion::semantic index), sorted: one allocation for the page's semantic
  /// templates, where a hash map made a node for each.
  std::vector<std::pair<std::string_view, std::size_t>> by_marker_;
  PageRules out_;
  NodeTable<char> cell_done_;
  PageIds ids_;
  mutable NodeTable<ClassFacts> facts_;
  /// All bits set, so that first_bytes_ is made by a memset of 0xFF bytes.
  static constexpr std::int16_t kFirstByteUnknown = -1;
  /// No text: the node's text is empty, or a search passed through it whole.
  static constexpr std::int16_t kNoText = -2;
  /// An empty node_text() where the text nodes are not all whitespace (arrows that
  /// finish() trims): for that node only, since more text after it would keep them.
  static constexpr std::int16_t kTrimmedEmpty = -3;
  /// first_byte() by NodeId, once known (kNoText for -1); kNoText also for every node
  /// that a search passed through whole (nothing but whitespace in it), which later
  /// searches skip.
  mutable NodeTable<std::int16_t> first_bytes_;
  support::DiagnosticSink quiet_;
  std::string id_prefix_;  ///< finish_rule's "page/step/block/"
  mutable std::string node_text_buffer_;  ///< node_text_view()'s
  std::string block_name_;  ///< a block's image name as block_row reads it
  TextBuffer clean_text_;   ///< a block's name or a comment cleaned, before its record's copy
  SharedText id_prefix_place_, id_prefix_block_;
  std::string title_slug_;  ///< the page's part of every id, with its separator
  bool id_prefix_valid_ = false;
  // structure
  // Held as the records hold them: each rule under them shares these strings.
  SharedText section_, phase_, round_, step_, block_;
  std::vector<std::pair<NodeId, SharedText>> block_stack_;  ///< (row, previous block)
  /// Rules are named by their index in out_.rules, whose ids never change once made:
  /// a copy of the id for each row cost an allocation per rule.
  static constexpr std::size_t kNoRule = SIZE_MAX;
  std::vector<std::pair<NodeId, std::size_t>> rule_stack_;  ///< (row, rule index)
  /// The last raw rule row and its rule's id: the row after it may hold its sub-rules.
  NodeId last_rule_row_ = kNoNode;
  std::size_t last_rule_ = kNoRule;
  bool in_scoring_block_ = false;
  /// Trigger icons of the last header row ("Feature Scoring → [castle][robber+]") of a
  /// table; they apply to the rules in the rows after it, nested tables included.
  std::unordered_map<NodeId, std::vector<std::string>> header_triggers_;
  /// By NodeId, whether header_triggers_ has the node: every rule asks each node above
  /// it, and a few tables of a page are keys.
  std::vector<char> has_header_triggers_;
  /// header_triggers()' icon lists of the nodes on the path up from header_path_of_.
  mutable std::vector<const std::vector<std::string>*> header_path_;
  mutable NodeId header_path_of_ = kNoNode;
  // Set by scoring_row() for the one finish_rule() call that follows (see there).
  select::Condition row_condition_;
  bool use_row_condition_ = false;
  std::optional<std::size_t> parent_override_;  ///< kNoRule: no parent
  // Per-page memos and scratch buffers (see their users).
  unsigned true_shown_ = kAllEditions;
  SharedText true_when_;
  /// `true`, the condition a rule's cells are collected under (runs view it).
  const select::Condition true_condition_;
  /// The page's title and file as every rule's source names them.
  SharedText page_title_, page_file_;
  std::vector<std::unique_ptr<Collected>> scratch_;
  std::vector<std::pair<std::string_view, std::size_t*>> use_counts_;
  std::vector<std::int8_t> projection_above_;  ///< projection_on_path() by NodeId: -1 unknown
  std::vector<NodeId> projection_chain_;
  TextBuffer points_text_;  ///< points_of's reading of one edition
  std::vector<std::pair<std::size_t, std::size_t>> points_at_;
  mutable std::array<TextBuffer, 3> variant_buffers_;  ///< variants()' readings by edition
  /// A record's text, made for it alone: two thirds of the texts made are new on their
  /// page (a repeated cell or note takes its first copy's record whole, see cell_read
  /// and notes_of), and interning them all hashed and filed every text to spare one
  /// allocation for a third of them, which cost three times what it spared.
  static SharedText shared(std::string_view s) { return SharedText(s); }
  PartLayout description_layout_, rules_layout_;
  std::vector<PartLayout::Part> parts_kept_;  ///< parts_of's scratch (see there)
  std::vector<TextPart> parts_found_;
  /// CellText by cell text, for the page: description and rules cells apart (a rules
  /// cell's lists are notes, a description's are text).
  select::ProbeTable<CellText> description_cells_{SIZE_MAX}, rules_cells_{SIZE_MAX};
  /// A note (a list item of a rules cell) as notes_of() read it, by its text and
  /// condition, for the page.
  struct KnownNote {
    NodeId item = kNoNode;  ///< the first item with this text, whose tree a repeat must match
    select::Condition condition;  ///< the item's, kept alive so that its identity names no other
    Note note;
    bool has_text = false;  ///< false: the note was dropped for having no text
  };
  select::ProbeTable<KnownNote> known_notes_{SIZE_MAX};
  std::vector<NodeId> continued_rows_;               ///< rule_row's rowspan rows
  /// find_points' expressions by searched text, for this page: a page repeats its rules
  /// texts (the same bonus in several steps, a part's reading that adds nothing to the
  /// common one), and nearly half of its searches are repeats. The keys view `bytes`.
  /// Open addressing (a std::unordered_map cost a node per text), and every text's
  /// expressions in one list that find_points appends to, each text's a range of it: a
  /// list per text cost an allocation and a move of each expression found, and a free.
  struct PointsMemo {
    struct Searched {
      std::string_view text;
      std::size_t begin, end;  ///< its expressions, found[begin, end)
    };
    select::ProbeTable<Searched> by_text{SIZE_MAX};
    KeptBytes bytes;
    std::vector<Points> found;
  };
  PointsMemo points_memo_;
  /// The expressions of `text` (find_points), from points_memo_: their range in
  /// points_memo_.found, which holds them for the page (by_text is never emptied, so a
  /// range stays good while a rule's readings are searched).
  std::pair<std::size_t, std::size_t> points_in(std::string_view text);
  /// points_of's placed expressions per reading.
  std::vector<std::vector<Placed>> points_placed_;
  /// The `when` of a common expression that conditioned parts change (see points_of), by
  /// the identities of the rule's condition and of those parts' conditions: the rows of a
  /// table share both, and each answer costs several products of conditions. The entry
  /// keeps the conditions alive, so an address is never reused for another condition.
  /// Kept across pages (per thread, bounded), as without_editions' answers are: the
  /// conditions are the same objects from page to page (select's memos), and a page's
  /// translations repeat its tables with the same classes.
  struct HiddenWhen {
    std::vector<select::Condition> kept;
    std::optional<SharedText> when;  ///< none: no reader has the expression
  };
  std::map<std::vector<const void*>, HiddenWhen>& hidden_when_memo();
  std::vector<const void*> hidden_key_;
  /// points_of's per-call lists, kept between rules (see there).
  std::vector<std::size_t> points_readings_, points_changed_by_;
  std::vector<std::pair<std::size_t, std::size_t>> points_starts_;
  std::vector<unsigned> points_shown_in_;
  std::array<SharedList, kAllEditions + 1> editions_lists_;  ///< points_of's `editions`, by edition_bit()s
  std::vector<PointsEntry> points_entries_;
  std::vector<std::size_t> points_index_;
  /// finish_rule's when/atoms of a path condition, by the condition's shared terms (the
  /// entry keeps them alive, so an address is never reused for another condition). Kept
  /// across pages like hidden_when_memo().
  struct Described {
    select::Condition condition;
    SharedText when;
    SharedList atoms;
  };
  std::unordered_map<const void*, Described>& described_memo();
  /// `triggers` as a list the page's rules share: a page has a few combinations of
  /// trigger icons, each made once (a linear search: there are at most a few dozen).
  SharedList trigger_list(const std::vector<std::string>& triggers);
  std::vector<SharedList> trigger_lists_;
  std::size_t last_trigger_list_ = 0;  ///< trigger_list()'s last answer, in trigger_lists_
};

// The run-wide memos below and without_editions': per thread and bounded (a run over a
// whole export meets a few hundred distinct path conditions, a hostile page could make
// many more), and emptied when the vocabulary changes, since their answers depend on it
// (a library caller may extract with two vocabularies on one thread).
template <class Memo>
Memo& run_memo(Memo& memo, std::uint64_t& serial, const select::Vocabulary& v) {
  if (memo.size() >= 4096 || serial != v.serial()) {
    memo.clear();
    serial = v.serial();
  }
  return memo;
}

std::map<std::vector<const void*>, PageExtractor::HiddenWhen>& PageExtractor::hidden_when_memo() {
  thread_local std::map<std::vector<const void*>, HiddenWhen> memo;
  thread_local std::uint64_t serial = 0;
  return run_memo(memo, serial, v_);
}

SharedText PageExtractor::when_of(const select::Condition& c) {
  if (!c.identity()) return true_when_;
  // By the condition's shared terms, like described_memo(): the notes and parts of a
  // table's rows repeat a few conditions, and each answer costs a simplification.
  thread_local std::unordered_map<const void*, std::pair<select::Condition, SharedText>> memo;
  thread_local std::uint64_t serial = 0;
  auto [it, fresh] = run_memo(memo, serial, v_).try_emplace(c.identity());
  if (fresh) it->second = {c, select::to_string(v_.simplify(c))};
  return it->second.second;
}

std::unordered_map<const void*, PageExtractor::Described>& PageExtractor::described_memo() {
  thread_local std::unordered_map<const void*, Described> memo;
  thread_local std::uint64_t serial = 0;
  return run_memo(memo, serial, v_);
}

// ------------------------------------------------------------------------- pipeline

SharedList PageExtractor::trigger_list(const std::vector<std::string>& triggers) {
  if (triggers.empty()) return SharedList();
  // The rows of a table mostly have the icons of the row before: the list found last
  // is tried first.
  if (last_trigger_list_ < trigger_lists_.size() && trigger_lists_[last_trigger_list_].items() == triggers)
    return trigger_lists_[last_trigger_list_];
  for (std::size_t i = 0; i < trigger_lists_.size(); ++i)
    if (trigger_lists_[i].items() == triggers) {
      last_trigger_list_ = i;
      return trigger_lists_[i];
    }
  last_trigger_list_ = trigger_lists_.size();
  return trigger_lists_.emplace_back(triggers);
}

PageRules PageExtractor::run() {
  out_.title = page_.title;
  out_.revision = page_.revision.id;
  out_.timestamp = page_.revision.timestamp;
  const std::string& text = page_.revision.text;
  by_marker_.reserve(expansion_.semantic.size());
  for (std::size_t i = 0; i < expansion_.semantic.size(); ++i) by_marker_.emplace_back(expansion_.semantic[i].marker, i);
  std::sort(by_marker_.begin(), by_marker_.end());
  cell_done_.reset(doc_.size(), 0);
  facts_.reset(doc_.size(), 0);
  static_assert(kFirstByteUnknown == -1, "first_bytes_ is made of 0xFF bytes");
  first_bytes_.reset(doc_.size(), 0xFF);
  // A rule comes from a table row or a ScoringRow node, each several nodes of the tree
  // (the row, its cells, their text): room for one rule per 32 nodes up front spares
  // most pages' rules (large records) being moved as the vector grows, without a pass
  // over every node to count the rows (which cost more than the moves it spared).
  const std::size_t expected_rules = doc_.size() / 32;
  out_.rules.reserve(expected_rules);
  // The tables with an entry for (nearly) each rule, for the same reason: grown by
  // doubling, each rehashed and moved its entries several times a page.
  ids_.reserve(expected_rules);
  description_cells_.reserve(expected_rules);
  rules_cells_.reserve(expected_rules);
  // Likewise the non-rules (spacers, headers, comments: about one per hundred nodes),
  // which grew from one by doubling, each time moving the two strings of every one.
  out_.non_rules.reserve(doc_.size() / 64);
  walk(doc_.root());
  const std::size_t walked = out_.non_rules.size();
  // Comments are gone after expansion (MediaWiki strips them), so they are found in the
  // restored source; they can hide whole rows (the legend's commented-out action row).
  // The expansion's line index of the page text gives their positions: place() has
  // built it for the rules. Without it (no expansion source for this page), each position
  // is advanced from the one before, which gives the same.
  const support::LineIndex* lines = nullptr;
  for (std::size_t s = 0; s < expansion_.sources.size() && s < expansion_.source_lines.size() && !lines; ++s)
    if (expansion_.sources[s].title == page_.title) lines = &expansion_.source_lines[s];
  support::Position pos{1, 1};
  std::size_t pos_offset = 0;
  for (std::size_t at = find_comment_open(text, 0); at != std::string::npos; at = find_comment_open(text, at + 4)) {
    std::size_t end = text.find("-->", at + 4);
    if (lines) {
      pos = lines->position(at);
    } else {
      pos = support::advance(pos, std::string_view(text).substr(pos_offset, at - pos_offset));
      pos_offset = at;
    }
    std::string_view body = std::string_view(text).substr(at + 4, (end == std::string::npos ? text.size() : end) - at - 4);
    std::size_t cells = commented_cells(m_, body);
    if (cells) {
      out_.cells.total += cells;
      count_use("comment", cells);
    }
    // Copied out at its size: a short comment's text fits in its string's own room.
    out_.non_rules.emplace_back("comment", std::string(clean_into(clean_text_, body.substr(0, 80))), pos.line,
                                pos.column, cells);
    if (end == std::string::npos) break;
  }
  auto before = [](const NonRule& a, const NonRule& b) { return std::tie(a.line, a.column) < std::tie(b.line, b.column); };
  // The walk finds non-rules in document order and the comment scan does too, so the
  // stable sort by position is usually one merge of the two runs (equal positions keep
  // walk before comment, as the stable sort does).
  auto middle = out_.non_rules.begin() + static_cast<std::ptrdiff_t>(walked);
  if (std::is_sorted(out_.non_rules.begin(), middle, before) && std::is_sorted(middle, out_.non_rules.end(), before))
    std::inplace_merge(out_.non_rules.begin(), middle, out_.non_rules.end(), before);
  else
    std::stable_sort(out_.non_rules.begin(), out_.non_rules.end(), before);
  for (const Rule& r : out_.rules) {
    if (!r.parent.empty()) ++out_.sub_rules;
    if (r.points_unparsed) ++out_.unparsed_points;
  }
  return std::move(out_);
}

void PageExtractor::warn(const Node& n, std::string message) const {
  select::Where at = locate_ ? locate_(n.source, n.span.begin) : select::Where{file_, doc_.position(n.span.begin), {}};
  at.warn(sink_, at.at, std::move(message));
}

support::Position PageExtractor::position_at(std::uint32_t offset) {
  const std::string_view text = doc_.source(0);
  if (offset < position_offset_ || offset > text.size()) return doc_.position(offset);
  position_ = support::advance(position_, text.substr(position_offset_, offset - position_offset_));
  position_offset_ = offset;
  return position_;
}

// ------------------------------------------------------------------------- walk

// Depth first from `root`, climbing back by the parent links (as parse::next_in_subtree
// does) rather than by a call per node: the recursion this was saved and restored its
// registers for each of the thousands of nodes a page walks. The depth is still kept:
// the parser's own limits keep real pages shallow, and past the bound a subtree is
// skipped with a warning, as it always was.
void PageExtractor::walk(NodeId root) {
  // A leaf that visit() passes by (text, entities, links without a caption…) does
  // nothing there or in leave(); a third of a page's nodes are such. So does a node
  // of such a kind whose children are all such leaves (a bold run of text: a page
  // has hundreds), which costs a look at its children rather than a visit.
  // `c` and its siblings after it stand at `depth`; the first that is not passed by.
  auto first_walked = [&](NodeId c, int depth) {
    for (; c != kNoNode; c = doc_.node(c).next_sibling) {
      const Node& cn = doc_.node(c);
      if (!(depth < 400 && !visit_matters(cn.kind) && passed_by(cn))) break;
    }
    return c;
  };
  NodeId id = root;
  int depth = 0;
  for (;;) {
    if (depth > 400) {
      warn(doc_.node(id), "nesting too deep; rule extraction skips this part");
    } else if (!visit(id)) {
      leave(id);
    } else if (NodeId c = first_walked(doc_.node(id).first_child, depth + 1); c != kNoNode) {
      id = c;
      ++depth;
      continue;
    } else {
      leave(id);
    }
    // `id` is done: on to its next sibling walked, else its parent is done too.
    for (;;) {
      if (id == root) return;
      if (NodeId next = first_walked(doc_.node(id).next_sibling, depth); next != kNoNode) {
        id = next;
        break;
      }
      id = doc_.node(id).parent;
      --depth;
      leave(id);
    }
  }
}

const PageExtractor::ClassFacts& PageExtractor::compute_facts(const Node& n) const {
  auto id = static_cast<std::size_t>(&n - &doc_.node(0));
  ClassFacts& f = facts_[id];
  f.known = true;
  if (n.attr_count == 0) return f;
  // Document::classes without its vector: the last `class` attribute, split at spaces.
  const parse::Attribute* attr = nullptr;
  for (const parse::Attribute& a : doc_.attributes(n))
    if (parse::is_attribute_name<"class">(a.name)) attr = &a;
  if (!attr) return f;
  std::string_view value = attr->value;
  // Most class attributes on a page are one short show… class (showC1, solid, dotted).
  if (value.size() < m_.shortest_class) return f;
  list_facts(value, f);
  return f;
}

// A page writes a few class lists on many nodes ("scoringFeature", "wica-white-box"):
// each list is split and looked up once, its facts then found by the list's text.
// Apart from compute_facts, as add_class_facts is: its early answers then save and
// restore none of the registers the lookup needs.
void PageExtractor::list_facts(std::string_view value, ClassFacts& f) const {
  const std::uint64_t h = text_hash(value);
  if (const auto* seen = class_facts_.find(h, [value](const auto& e) { return select::same_bytes(e.first, value); })) {
    f = seen->second;
    return;
  }
  add_class_facts(value, f);
  class_facts_.insert(h, {value, f});
}

// Where the class name at `at` in `value` ends: at HTML whitespace or the value's end.
// Names of 8 to 15 bytes, the usual ones, are read a word of 8 bytes at a time rather than
// byte by byte. In (w - 0x21…) & ~w & 0x80… a byte at or below 0x20 sets its top bit;
// the lowest such flag is exact (only a borrow from a flagged byte below can flag a byte
// wrongly), and no byte at or below 0x20 goes unflagged. A flagged byte that is no
// whitespace (a control byte) belongs to the name.
std::uint32_t class_name_end(std::string_view value, std::uint32_t at) {
  auto space = [](char ch) {
    auto u = static_cast<unsigned char>(ch);
    return u <= 0x20 && (u == ' ' || u == '\t' || u == '\n' || u == '\r' || u == '\f');
  };
  const auto size = static_cast<std::uint32_t>(value.size());
  std::uint32_t i = at;
  if constexpr (std::endian::native == std::endian::little) {
    constexpr std::uint64_t kOnes = 0x0101010101010101, kTops = 0x8080808080808080;
    auto flags = [&](std::uint32_t from) {
      std::uint64_t w;
      std::memcpy(&w, value.data() + from, 8);
      return (w - kOnes * 0x21) & ~w & kTops;
    };
    while (size - i >= 8) {
      std::uint64_t low = flags(i);
      if (low == 0) {
        i += 8;
        continue;
      }
      i += static_cast<std::uint32_t>(std::countr_zero(low)) / 8;
      if (space(value[i])) return i;
      ++i;
    }
    // The last bytes, in the word that ends the value (its bytes before `i` masked off).
    if (i < size && size >= 8) {
      const std::uint32_t from = size - 8;
      std::uint64_t low = flags(from) & (~std::uint64_t{0} << ((i - from) * 8));
      if (low == 0) return size;
      std::uint32_t j = from + static_cast<std::uint32_t>(std::countr_zero(low)) / 8;
      if (space(value[j])) return j;
      // A control byte, or a flag borrowed from one before `i`: byte by byte.
    }
  }
  while (i < size && !space(value[i])) ++i;
  return i;
}

// Apart from compute_facts, whose early answers (no attributes, no class, a class list
// too short) are most of its calls and need none of the registers this loop keeps.
void PageExtractor::add_class_facts(std::string_view value, ClassFacts& f) const {
  // HTML's ASCII whitespace separates class names; every other byte is above 0x20, so
  // one comparison passes the letters of a name.
  auto space = [](char ch) {
    auto u = static_cast<unsigned char>(ch);
    return u <= 0x20 && (u == ' ' || u == '\t' || u == '\n' || u == '\r' || u == '\f');
  };
  const auto size = static_cast<std::uint32_t>(value.size());
  for (std::uint32_t i = 0; i < size;) {
    while (i < size && space(value[i])) ++i;
    std::uint32_t b = i;
    if (size - i >= 16) i = support::scan_for<' ', '\t', '\n', '\r', '\f'>(value.data(), i, size);
    else i = class_name_end(value, i);
    if (i == b) continue;
    std::string_view c = value.substr(b, i - b);
    if (!m_.may_be_class(c)) continue;
    const Mapping::KnownClass* k = m_.known_class(c);
    if (!k) continue;
    f.tally = f.tally || k->tally;
    f.core = f.core || k->core;
    f.box = f.box || k->box;
    f.legend = f.legend || k->legend;
    f.phase_box = f.phase_box || k->phase_box;
    if (!f.kind && k->has_kind) f.kind = static_cast<std::uint8_t>(k - m_.known_classes.data() + 1);
  }
}


// The mapping's own string, copied once into the record (a temporary moved in was a
// call more per rule).
const std::string& PageExtractor::kind_of(const Node& cell) const {
  static const std::string none;
  const std::uint8_t k = facts(cell).kind;
  return k ? kind_name(k) : none;
}

// As Document::plain_text (Text and decoded Entity nodes in document order, Comment and
// Template subtrees skipped), cleaned while it is gathered.
//
// finish() only trims a tail of arrows and spaces, so once a byte that is neither stands
// at or past `prefix`, the first `prefix` bytes are final and the walk can stop.
void PageExtractor::node_text_into(std::string& out, NodeId id, std::size_t prefix) const {
  out.clear();
  Cleaner c(out);
  NodeId n = id;
  std::size_t checked = prefix;  // bytes of `out` before this are not looked at again
  auto settled = [&] {
    for (; checked < out.size(); ++checked) {
      auto b = static_cast<unsigned char>(out[checked]);
      if (b != ' ' && b != 0xE2 && b != 0x86 && b != 0x92) return true;
    }
    return false;
  };
  // True when the start is settled. A bounded text is fed in slices (Cleaner reads a
  // text in pieces as in one), so a long Text node is not cleaned to its end.
  auto feed = [&](std::string_view t) {
    if (prefix == std::string::npos) {
      c.append(t);
      return false;
    }
    // Slices just past the prefix keep a short answer in the string's own buffer.
    const std::size_t slice_size = std::clamp<std::size_t>(prefix + 8, 8, 64);
    while (!t.empty()) {
      std::string_view slice = t.substr(0, slice_size);
      c.append(slice);
      t.remove_prefix(slice.size());
      if (out.size() > prefix && settled()) return true;
    }
    return false;
  };
  while (n != kNoNode) {
    const Node& x = doc_.node(n);
    bool descend = true;
    bool done = false;
    if (x.kind == NodeKind::Text) done = feed(bytes_of(doc_, x));
    else if (x.kind == NodeKind::Entity) done = feed(parse::decode_entity(doc_.text(x)));
    else if (x.kind == NodeKind::Comment || x.kind == NodeKind::Template) descend = false;
    if (done) return;
    n = parse::next_in_subtree(doc_, id, n, descend);
  }
  c.finish();
}

// node_text(id)'s first byte is the first byte of the text that is not whitespace,
// unless finish() could trim it (a byte of "→", which may end the text): then node_text
// decides. Most cells and rows are told apart by that byte alone, so it is found without
// building the text.
//
// A row, its first cell and the elements in that cell share their first byte: once found,
// it is noted for every node between `id` and the text it is in (all text before it in
// their subtrees was whitespace), so the walk down that spine is made once.
//
// A node that a search passes through whole, without a byte that is not whitespace, has
// none: it is noted kNoText, so that the search for a node inside it (the cells of a row whose
// first cell holds an image only, the elements in them, which the walk asks next) or
// after it in a larger one does not look again.
int PageExtractor::first_byte(NodeId id) const {
  int b = first_bytes_[id];
  if (b == kFirstByteUnknown) {
    // Every answer is kept for `id`, also an empty text's and one node_text() settled:
    // non_rule() and heading_like() ask the same row, cell and bold run in turn.
    b = find_first_byte(id);
    first_bytes_[id] = static_cast<std::int16_t>(b);
  }
  return b < 0 ? -1 : b;  // kNoText or kTrimmedEmpty
}

// Four questions in ten are of a node whose first child is a text that starts with its
// first byte ("Points …", a bold run's words), and one in sixteen of a node with no
// children (<hr>, <br>): answered here, without the search's frame and walk. The
// search would note the same answer for the node and its text, and nothing reads a text
// node's entry (the walk asks no text, a search reads a text itself).
int PageExtractor::find_first_byte(NodeId id) const {
  const Node& x = doc_.node(id);
  if (x.kind != NodeKind::Text && x.kind != NodeKind::Entity) {
    if (x.first_child == kNoNode) return kNoText;
    const Node& c = doc_.node(x.first_child);
    if (c.kind == NodeKind::Text && x.kind != NodeKind::Comment && x.kind != NodeKind::Template) {
      for (char ch : bytes_of(doc_, c)) {
        if (is_space(ch)) continue;
        auto b = static_cast<unsigned char>(ch);
        if (b == 0xE2 || b == 0x86 || b == 0x92) break;  // an arrow: the search reads on
        return b;
      }
    }
  }
  return search_first_byte(id);
}

int PageExtractor::search_first_byte(NodeId id) const {
  auto exact = [&] {
    const std::string_view t = node_text_view(id, 0);
    return t.empty() ? kTrimmedEmpty : static_cast<int>(static_cast<unsigned char>(t[0]));
  };
  auto passed = [&](NodeId left) {
    if (left != id) first_bytes_[left] = kNoText;
  };
  // The walk in text order, which climbs back by the parent links: the spine of a byte
  // found is then the text's ancestors up to `id`.
  auto next = [&](NodeId n, bool descend, auto&& leave) { return parse::next_in_subtree(doc_, id, n, descend, leave); };
  // A text that starts with a byte of "→" starts with it unless finish() trims the text
  // to nothing: unless all its bytes but whitespace are whole arrows (E2 86 92, with no
  // whitespace inside one). The rest of the text is read for that (a description cell
  // is "→ [icons]", and more), byte by byte as finish() would see it; node_text()
  // decides only where an entity comes first. Nothing is noted on the way: the nodes
  // passed hold arrows, and those above the text may end before a byte that decides.
  auto after_arrow = [&](NodeId at, std::size_t from, int first) {
    // The bytes of "→" read so far of the one being read (0: between arrows).
    int arrow = first == 0xE2 ? 1 : -1;
    if (arrow < 0) return first;  // a stray 86 or 92: no arrow ends the text with it
    NodeId n = at;
    std::string_view t = bytes_of(doc_, doc_.node(n)).substr(from);
    for (;;) {
      for (char ch : t) {
        auto b = static_cast<unsigned char>(ch);
        if (arrow == 0) {
          if (is_space(ch)) continue;
          if (b != 0xE2) return first;
          arrow = 1;
        } else if (b == (arrow == 1 ? 0x86 : 0x92)) {
          arrow = arrow == 2 ? 0 : arrow + 1;
        } else {
          return first;
        }
      }
      n = next(n, false, [](NodeId) {});
      while (n != kNoNode) {
        const Node& x = doc_.node(n);
        if (x.kind == NodeKind::Text) break;
        if (x.kind == NodeKind::Entity) return exact();
        // A node of whitespace alone is passed by between arrows only: inside one, its
        // whitespace keeps the arrow from being trimmed.
        const bool descend = x.kind != NodeKind::Comment && x.kind != NodeKind::Template &&
                             (arrow != 0 || first_bytes_[n] != kNoText);
        n = next(n, descend, [](NodeId) {});
      }
      if (n == kNoNode) return arrow == 0 ? static_cast<int>(kTrimmedEmpty) : first;
      t = bytes_of(doc_, doc_.node(n));
    }
  };
  NodeId n = id;
  while (n != kNoNode) {
    const Node& x = doc_.node(n);
    bool descend = true;
    if (x.kind == NodeKind::Text) {
      const std::string_view t = bytes_of(doc_, x);
      for (std::size_t i = 0; i < t.size(); ++i) {
        const char ch = t[i];
        if (is_space(ch)) continue;
        auto b = static_cast<unsigned char>(ch);
        if (b == 0xE2 || b == 0x86 || b == 0x92) return after_arrow(n, i + 1, b);
        for (NodeId a = n;; a = doc_.node(a).parent) {
          first_bytes_[a] = static_cast<std::int16_t>(b);
          if (a == id) break;
        }
        return b;
      }
    } else if (x.kind == NodeKind::Entity) {
      return exact();  // decoded, it may be anything (or whitespace)
    } else if (x.kind == NodeKind::Comment || x.kind == NodeKind::Template || first_bytes_[n] == kNoText) {
      descend = false;
    }
    n = next(n, descend, passed);
  }
  return kNoText;
}

// node_text(id) is the cleaned text of its Text and Entity nodes, so it starts with the
// first Text node that is not all whitespace, each run of whitespace one space. Where
// that text differs from a start, node_text does too: a byte other than the start's
// stands there, or the text ends before (finish() only ever shortens it). Most cells
// whose first byte is a heading's or a non-rule's ("The …", "Road") differ within a few
// bytes, and node_text's cleaning and copying are spared for them.
bool PageExtractor::may_start_with(NodeId id, const std::vector<std::string>& starts) const {
  NodeId n = id;
  std::string_view t;
  while (n != kNoNode) {
    const Node& x = doc_.node(n);
    bool descend = true;
    if (x.kind == NodeKind::Text) {
      std::string_view text = bytes_of(doc_, x);
      std::size_t b = 0;
      while (b < text.size() && is_space(text[b])) ++b;
      if (b < text.size()) {
        t = text.substr(b);
        break;
      }
    } else if (x.kind == NodeKind::Entity) {
      return true;  // decoded, it may be anything
    } else if (x.kind == NodeKind::Comment || x.kind == NodeKind::Template) {
      descend = false;
    }
    n = parse::next_in_subtree(doc_, id, n, descend);
  }
  if (t.empty()) return true;  // an empty text: node_text decides (as it always did)
  for (std::string_view p : starts) {
    std::size_t i = 0, j = 0;
    bool differs = false;
    while (i < p.size()) {
      if (j == t.size()) break;  // the text goes on in later nodes: undecided
      if (is_space(t[j])) {
        if (p[i] != ' ') {
          differs = true;
          break;
        }
        while (j < t.size() && is_space(t[j])) ++j;
        if (j == t.size()) break;
        ++i;
        continue;
      }
      if (t[j] != p[i]) {
        differs = true;
        break;
      }
      ++i;
      ++j;
    }
    if (!differs) return true;
  }
  return false;
}

bool PageExtractor::visit(NodeId id) {
  const Node& n = doc_.node(id);
  if (n.source != 0) return false;  // parameter fragments are read by their template's rule
  switch (n.kind) {
    case NodeKind::Heading:
      section_ = node_text_view(id);
      phase_ = SharedText();
      round_ = SharedText();
      step_ = SharedText();
      block_ = SharedText();
      return false;
    case NodeKind::Table:
      return !legend_table(id);
    case NodeKind::TableRow:
      if (non_rule(id)) return false;
      if (rule_row(id)) return true;
      if (sub_rules_row(id)) return true;
      header_row(id);
      block_row(id);
      return true;
    case NodeKind::TableCell:
      heading_like(id);
      if (is_scoring_cell(n) && !cell_done_[id]) {
        ++out_.cells.total;
        ++out_.cells.unaccounted;
        count_use("unaccounted");
        cell_done_[id] = 1;
        warn(n, "cell with a scoring class is neither a rule nor a known non-rule");
      }
      return true;
    case NodeKind::SemanticTemplate:
      return scoring_row(id);
    case NodeKind::Element:
    case NodeKind::Paragraph:
      heading_like(id);
      return !non_rule(id);
    default:
      return true;
  }
}

inline void PageExtractor::leave(NodeId id) {
  if (!rule_stack_.empty() && rule_stack_.back().first == id) rule_stack_.pop_back();
  if (!block_stack_.empty() && block_stack_.back().first == id) {
    block_ = block_stack_.back().second;
    block_stack_.pop_back();
  }
}

void PageExtractor::heading_text(NodeId id) {
  const Node& n = doc_.node(id);
  if (facts(n).phase_box) {
    phase_ = node_text_view(id);
    round_ = SharedText();
    step_ = SharedText();
    block_ = SharedText();
    return;
  }
  if (n.kind != NodeKind::TableCell) return;
  // The title is the cell's first bold run ("'''Step 1A: Begin Turn''' - only …").
  NodeId bold = kNoNode;
  for (NodeId c = n.first_child; c != kNoNode && bold == kNoNode; c = doc_.node(c).next_sibling)
    if (doc_.node(c).kind == NodeKind::Bold) bold = c;
  NodeId title = bold != kNoNode ? bold : id;
  // Most cells are no title: their start is enough to tell.
  // First its first byte (prefix 0: that byte is final), which rules out nearly all.
  int first = first_byte(title);
  if (!m_.heading_any && (first < 0 || !m_.heading_initials[static_cast<std::size_t>(first)])) return;
  if (!may_start_with(title, m_.heading_starts)) return;
  std::string_view t = node_text_view(title, m_.heading_prefix);
  bool whole = false;
  auto complete = [&] {
    if (!whole) t = node_text_view(title);
    whole = true;
  };
  for (const auto& p : m_.round_prefixes)
    if (starts_with(t, p)) {
      complete();
      round_ = t;
      step_ = SharedText();
      block_ = SharedText();
    }
  for (const auto& p : m_.step_prefixes)
    if (starts_with(t, p)) {
      complete();
      step_ = t;
      block_ = SharedText();
    }
}

bool PageExtractor::non_rule_text(NodeId id, int first) {
  const Node& n = doc_.node(id);
  if (n.kind == NodeKind::TableRow && first < 0 && doc_.text(n).find("<hr") != std::string_view::npos) {
    auto p = position_at(n.span.begin);
    out_.non_rules.emplace_back("spacer", std::string(), p.line, p.column, 0);
    return true;
  }
  if (!m_.non_rule_any && (first < 0 || !m_.non_rule_initials[static_cast<std::size_t>(first)]))
    return false;
  if (!may_start_with(id, m_.non_rule_starts)) return false;
  const std::string_view start_text = node_text_view(id, m_.non_rule_prefix);
  for (const auto& [reason, start] : m_.non_rules)
    if (starts_with(start_text, start)) {
      std::string t = node_text(id);
      auto p = position_at(n.span.begin);
      std::size_t cells = 0;
      for (NodeId c = n.first_child; c != kNoNode; c = doc_.node(c).next_sibling)
        if (is_scoring_cell(doc_.node(c)) && !cell_done_[c]) {
          cell_done_[c] = 1;
          ++cells;
          ++out_.cells.total;
          count_use(reason);
        }
      out_.non_rules.emplace_back(reason, std::move(t), p.line, p.column, cells);
      return true;
    }
  return false;
}

bool PageExtractor::legend_table(NodeId table) {
  // Asked of every table, and nearly none is the legend: its scoring cells are counted in
  // a second pass over the legend alone (a list of every table's cells cost allocations).
  auto each_cell = [&](auto&& f) {
    for (NodeId r = doc_.node(table).first_child; r != kNoNode; r = doc_.node(r).next_sibling)
      for (NodeId c = doc_.node(r).first_child; c != kNoNode; c = doc_.node(c).next_sibling)
        if (doc_.node(c).kind == NodeKind::TableCell) f(c, doc_.node(c));
  };
  bool legend = false;
  each_cell([&](NodeId, const Node& cn) { legend = legend || facts(cn).legend; });
  if (!legend) return false;
  std::size_t cells = 0;
  each_cell([&](NodeId c, const Node& cn) {
    if (!is_scoring_cell(cn)) return;
    cell_done_[c] = 1;
    ++out_.cells.total;
    count_use("legend");
    ++cells;
  });
  auto p = position_at(doc_.node(table).span.begin);
  out_.non_rules.emplace_back("legend", "scoring colour legend", p.line, p.column, cells);
  return true;
}

// A header row is one shaded cell (bgcolor) that is not a rule: "Feature Scoring",
// "Bonus scoring (prolog)". Its icons, or their absence, hold until the next header.
void PageExtractor::header_row(NodeId row) {
  NodeId only = kNoNode;
  int cells = 0;
  for (NodeId c = doc_.node(row).first_child; c != kNoNode; c = doc_.node(c).next_sibling)
    if (doc_.node(c).kind == NodeKind::TableCell) {
      only = c;
      ++cells;
    }
  if (cells != 1 || !doc_.attribute(doc_.node(only), "bgcolor")) return;
  NodeId table = doc_.node(row).parent;
  if (table == kNoNode) return;
  if (has_header_triggers_.empty()) has_header_triggers_.assign(doc_.size(), 0);
  if (!has_header_triggers_[table]) {
    has_header_triggers_[table] = 1;
    header_path_of_ = kNoNode;  // a path through `table` has one more
  }
  std::vector<std::string>& icons = header_triggers_[table];
  icons.clear();
  triggers_in(only, icons);
  std::sort(icons.begin(), icons.end());
  icons.erase(std::unique(icons.begin(), icons.end()), icons.end());
}

void PageExtractor::header_triggers(NodeId row, std::vector<std::string>& out) const {
  if (header_triggers_.empty()) return;  // most pages have no header rows
  // The rows of a table climb the same path: the icon lists on it (by address, as the
  // map's values never move) are found once for the table, and again only after a
  // header row marks another table.
  const NodeId table = doc_.node(row).parent;
  if (table != header_path_of_) {
    header_path_.clear();
    for (NodeId a = table; a != kNoNode; a = doc_.node(a).parent) {
      if (!has_header_triggers_[a]) continue;
      auto it = header_triggers_.find(a);
      if (it != header_triggers_.end()) header_path_.push_back(&it->second);
    }
    header_path_of_ = table;
  }
  for (const std::vector<std::string>* icons : header_path_) out.insert(out.end(), icons->begin(), icons->end());
}

// A row with an image cell and a cell holding a table is one feature's or figure's
// block; it is named after the image, which is what the reader recognises.
void PageExtractor::block_row(NodeId row) {
  NodeId image = kNoNode;
  bool table = false;
  for (NodeId c = doc_.node(row).first_child; c != kNoNode; c = doc_.node(c).next_sibling) {
    if (doc_.node(c).kind != NodeKind::TableCell) continue;
    for (NodeId d = doc_.node(c).first_child; d != kNoNode; d = doc_.node(d).next_sibling) {
      const Node& dn = doc_.node(d);
      if (dn.kind == NodeKind::Table) table = true;
      if (image == kNoNode && dn.kind == NodeKind::FileLink) image = d;
      if (image == kNoNode && dn.kind == NodeKind::Element)
        for (NodeId e = dn.first_child; e != kNoNode; e = doc_.node(e).next_sibling)
          if (doc_.node(e).kind == NodeKind::FileLink) image = e;
    }
  }
  if (image == kNoNode || !table) return;
  // The name is cut as a view and cleaned in a buffer kept between blocks: only the
  // block's own text is a fresh allocation (the name's copy and the cleaned string were
  // two more for each block of a page).
  std::string_view name = doc_.node(image).name;
  if (auto colon = name.find(':'); colon != std::string_view::npos) name.remove_prefix(colon + 1);
  if (auto dot = name.rfind('.'); dot != std::string_view::npos) name = name.substr(0, dot);
  for (const auto& p : m_.image_prefixes)
    if (starts_with(name, p)) {
      name.remove_prefix(p.size());
      break;
    }
  for (const auto& sfx : m_.image_suffixes)
    if (name.size() > sfx.size() && name.compare(name.size() - sfx.size(), sfx.size(), sfx) == 0) {
      name.remove_suffix(sfx.size());
      break;
    }
  std::string& spaced = block_name_;
  spaced.assign(name);
  std::replace(spaced.begin(), spaced.end(), '_', ' ');
  block_stack_.emplace_back(row, block_);
  block_ = shared(clean_into(clean_text_, spaced));
}

bool PageExtractor::image_only(NodeId cell, NodeId& image) const {
  image = kNoNode;
  return textless(cell, image, 0) && image != kNoNode;
}

bool PageExtractor::textless(NodeId id, NodeId& image, int depth) const {
  if (depth > 50) return false;
  for (NodeId k = doc_.node(id).first_child; k != kNoNode; k = doc_.node(k).next_sibling) {
    const Node& n = doc_.node(k);
    switch (n.kind) {
      case NodeKind::FileLink:
        if (image == kNoNode) image = k;
        break;
      case NodeKind::Comment:
        break;
      case NodeKind::Text:
        if (bytes_of(doc_, n).find_first_not_of(" \t\n") != std::string_view::npos) return false;
        break;
      case NodeKind::Element:
      case NodeKind::Paragraph:
        if (facts(n).box || !textless(k, image, depth + 1)) return false;  // a trigger icon says something
        break;
      default:
        return false;
    }
  }
  return true;
}

// ------------------------------------------------------------------------- rules

// The row right after a rule's row, one cell holding a rule (`<hr>`) and a table, holds
// that rule's sub-rules: "Land surveyor action for cities … Depending on active scoring
// tile" is followed by the table of the scoring tiles it depends on.
bool PageExtractor::sub_rules_row(NodeId row) {
  if (last_rule_row_ == kNoNode || doc_.node(last_rule_row_).next_sibling != row) return false;
  NodeId cell = kNoNode;
  for (NodeId c = doc_.node(row).first_child; c != kNoNode; c = doc_.node(c).next_sibling) {
    if (doc_.node(c).kind != NodeKind::TableCell) continue;
    if (cell != kNoNode) return false;
    cell = c;
  }
  if (cell == kNoNode || is_scoring_cell(doc_.node(cell))) return false;
  bool rule = false, table = false;
  for (NodeId d = doc_.node(cell).first_child; d != kNoNode; d = doc_.node(d).next_sibling) {
    const Node& dn = doc_.node(d);
    if (dn.kind == NodeKind::HorizontalRule || (dn.kind == NodeKind::Element && is_name(dn.name, "hr"))) rule = true;
    else if (dn.kind == NodeKind::Table) table = rule;
    else if (dn.kind == NodeKind::Text && bytes_of(doc_, dn).find_first_not_of(" \t\n") == std::string_view::npos) continue;
    else if (dn.kind != NodeKind::Comment) return false;
  }
  if (!table) return false;
  auto p = position_at(doc_.node(row).span.begin);
  out_.non_rules.emplace_back("spacer", std::string(), p.line, p.column, 0);
  rule_stack_.emplace_back(row, last_rule_);
  return true;
}

bool PageExtractor::rule_row(NodeId row) {
  NodeId desc = kNoNode, rules = kNoNode;
  for (NodeId c = doc_.node(row).first_child; c != kNoNode; c = doc_.node(c).next_sibling) {
    const Node& cn = doc_.node(c);
    if (cn.kind != NodeKind::TableCell) continue;
    if (desc == kNoNode) {
      if (facts(cn).kind) desc = c;
    } else {
      rules = c;
      break;
    }
  }
  if (desc == kNoNode) return false;
  NodeId image = kNoNode;
  if (rules != kNoNode && image_only(desc, image)) {
    // A block's image cell that carries a scoring class itself (the monastery block:
    // `| class="scoringTile" | <div>[[File:…Cloister.jpg]]</div>` beside the cell of its
    // inner table) names the block, as block_row() reads it; it is no rule of its own.
    bool inner_table = false;
    for (NodeId d = doc_.node(rules).first_child; d != kNoNode; d = doc_.node(d).next_sibling)
      inner_table = inner_table || doc_.node(d).kind == NodeKind::Table;
    if (inner_table) {
      if (!cell_done_[desc]) {
        cell_done_[desc] = 1;
        ++out_.cells.total;
        count_use("block-image");
        auto p = position_at(doc_.node(desc).span.begin);
        out_.non_rules.emplace_back("block-image", std::string(doc_.node(image).name), p.line, p.column, 1);
      }
      return false;
    }
  }
  if (rules == kNoNode) {
    // A lone scoring cell across the table ("Road (highwayman)") titles the rows below.
    auto p = position_at(doc_.node(row).span.begin);
    std::size_t cells = 0;
    for (NodeId c = doc_.node(row).first_child; c != kNoNode; c = doc_.node(c).next_sibling)
      if (is_scoring_cell(doc_.node(c)) && !cell_done_[c]) {
        cell_done_[c] = 1;
        ++cells;
        ++out_.cells.total;
        count_use("header");
      }
    Collected& title = scratch(0);
    collect(desc, true_condition_, title, false, 0);
    SharedText text = variants(title.runs).text;
    out_.non_rules.emplace_back("header", text.str(), p.line, p.column, cells);
    // Without an image block around it, the header names the rows below it, to the end
    // of its table (or the next header).
    NodeId table = doc_.node(row).parent;
    bool header_block = !block_stack_.empty() && doc_.node(block_stack_.back().first).kind == NodeKind::Table;
    if (table != kNoNode && (block_.empty() || header_block)) {
      if (!header_block || block_stack_.back().first != table) block_stack_.emplace_back(table, block_);
      block_ = std::move(text);
    }
    return false;
  }
  Rule& rule = out_.rules.emplace_back();  // built in place (see finish_rule)
  rule.kind = kind_of(doc_.node(desc));
  rule.core = facts(doc_.node(desc)).core || (rules != kNoNode && facts(doc_.node(rules)).core);
  rule.source.origin = "row";
  // Gathered in a vector kept between rows, then copied at their number: growing the
  // record's own vector cost an allocation or two per rule.
  CellRead desc_read = cell_read(desc, false);
  // A cell read before on the page is not collected again.
  Collected& d = scratch(0);
  if (!desc_read.known) collect(desc, true_condition_, d, false, 0);
  std::vector<std::string>& triggers = triggers_;
  triggers.clear();
  header_triggers(row, triggers);
  // A repeated description cell has its first copy's icons: with no header icons on
  // either row, the rule has that copy's triggers.
  desc_read.plain_triggers = triggers.empty();
  if (desc_read.known && desc_read.plain_triggers && desc_read.known->plain_triggers) {
    rule.triggers = out_.rules[desc_read.known->rule].triggers;
  } else {
    if (desc_read.known) {
      triggers_in(desc, triggers);
    } else {
      // The icons are in the boxes the walk of the cell met, or in what it did not read:
      // the rest of the cell is not walked again. Order and repeats do not matter (the
      // list is sorted and made unique below).
      for (NodeId box : d.boxes) triggers_in(box, triggers);
      for (NodeId part : d.unread) triggers_in(part, triggers);
    }
    if (std::count(triggers.begin(), triggers.end(), m_.plus_trigger)) std::erase(triggers, std::string_view("robbers"));
    std::sort(triggers.begin(), triggers.end());
    triggers.erase(std::unique(triggers.begin(), triggers.end()), triggers.end());
    rule.triggers = trigger_list(triggers);
  }
  for (NodeId c = doc_.node(row).first_child; c != kNoNode; c = doc_.node(c).next_sibling)
    if (is_scoring_cell(doc_.node(c)) && !cell_done_[c]) {
      cell_done_[c] = 1;
      ++out_.cells.total;
      count_use(c == desc ? "rule-description" : c == rules ? "rule-core" : "rule-other");
    }
  // A description cell spanning rows (`rowspan="2"`: points per tile, then per pennant)
  // continues the rule in the following rows, which hold rules cells only.
  int span = 1;
  // Document::attribute (the last one of the name) inline: every rule row asks, and the
  // call compared each attribute's name byte by byte.
  const parse::Attribute* a = nullptr;
  for (const parse::Attribute& at : doc_.attributes(doc_.node(desc)))
    if (parse::is_attribute_name<"rowspan">(at.name)) a = &at;
  if (a) {
    int v = 0;
    for (char ch : a->value) {
      if (ch < '0' || ch > '9') break;
      if (v < 1000) v = v * 10 + (ch - '0');
    }
    span = std::clamp(v, 1, 64);  // a runaway rowspan must not swallow the table
  }
  std::vector<NodeId>& continued = continued_rows_;
  continued.clear();
  bool continued_cells = false;
  NodeId next = doc_.node(row).next_sibling;
  for (int i = 1; i < span && next != kNoNode; ++i, next = doc_.node(next).next_sibling) {
    const Node& nr = doc_.node(next);
    if (nr.kind != NodeKind::TableRow) break;
    bool described = false, cells = false;
    for (NodeId c = nr.first_child; c != kNoNode; c = doc_.node(c).next_sibling) {
      described = described || (doc_.node(c).kind == NodeKind::TableCell && facts(doc_.node(c)).kind);
      cells = cells || doc_.node(c).kind == NodeKind::TableCell;
    }
    if (described) break;
    continued.push_back(next);
    continued_cells = continued_cells || cells;
  }
  // The rules text of a rule that continues in later rows is more than its cell's.
  CellRead rules_read = rules != kNoNode && !continued_cells ? cell_read(rules, true) : CellRead{};
  // Points in a text with parts are conditioned relative to the rule (CellText::full),
  // whose condition is the description cell's path condition unless structural classes
  // on the path add to it (finish_rule).
  if (rules_read.known && !out_.rules[rules_read.known->rule].rules_parts.empty() &&
      (projection_on_path(desc) || !rules_read.known->full.same(conditions_.full.at(desc))))
    rules_read = CellRead{};
  Collected& r = scratch(1);
  if (rules != kNoNode && !rules_read.known) collect(rules, true_condition_, r, true, 0);
  for (NodeId below : continued) {
    const Node& nr = doc_.node(below);
    const select::Condition& own_cond =
        conditions_.full.at(below) == conditions_.full.at(row) ? true_condition_ : r.keep(own(below));
    for (NodeId c = nr.first_child; c != kNoNode; c = doc_.node(c).next_sibling) {
      if (doc_.node(c).kind != NodeKind::TableCell) continue;
      r.runs.emplace_back(" ", &true_condition_, true_shown_);
      collect(c, own_cond, r, true, 0);
      if (rule.core || facts(doc_.node(c)).core) rule.core = true;
      if (is_scoring_cell(doc_.node(c)) && !cell_done_[c]) {
        cell_done_[c] = 1;
        ++out_.cells.total;
        count_use("rule-core-continued");
      }
    }
  }
  finish_rule(rule, row, desc, d, r, SIZE_MAX, desc_read, rules_read);
  rule_stack_.emplace_back(row, out_.rules.size() - 1);
  last_rule_row_ = row;
  last_rule_ = out_.rules.size() - 1;
  return true;
}

NodeId PageExtractor::param_fragment(NodeId semantic, std::string_view name) const {
  for (NodeId p = doc_.node(semantic).first_child; p != kNoNode; p = doc_.node(p).next_sibling) {
    const Node& pn = doc_.node(p);
    if (pn.kind == NodeKind::TemplateParameter && pn.name == name) return pn.first_child;
  }
  return kNoNode;
}

std::string PageExtractor::param_text(NodeId semantic, std::string_view name) const {
  NodeId f = param_fragment(semantic, name);
  return f == kNoNode ? std::string() : node_text(f);
}

bool PageExtractor::scoring_row(NodeId node) {
  const Node& n = doc_.node(node);
  if (n.name == "ScoringBegin") {
    block_ = param_text(node, "name");
    in_scoring_block_ = true;
    return false;
  }
  if (n.name == "ScoringRowEnd") {
    if (in_scoring_block_) block_ = SharedText();
    in_scoring_block_ = false;
    return false;
  }
  if (n.name != "ScoringRow") return false;
  Rule& rule = out_.rules.emplace_back();  // built in place (see finish_rule)
  std::string type = param_text(node, "scoringtype");
  auto it = m_.scoringtype.find(type);
  rule.kind = it != m_.scoringtype.end() ? it->second : "tile";
  if (it == m_.scoringtype.end())
    warn(n, "ScoringRow without a known scoringtype ('" + type + "'); kind tile assumed");
  auto flag = [&](const std::string& name) {
    NodeId f = param_fragment(node, name);
    if (f == kNoNode) return false;
    std::string v = lower(node_text_view(f));
    return v != "false" && v != "no" && v != "0";
  };
  rule.core = flag("corefeature");
  std::vector<std::string>& triggers = triggers_;
  triggers.clear();
  for (const auto& [param, trigger] : m_.trigger_flags)
    if (flag(param)) triggers.push_back(trigger);
  if (std::count(triggers.begin(), triggers.end(), m_.plus_trigger)) std::erase(triggers, std::string("robbers"));
  rule.triggers = trigger_list(triggers);
  rule.source.origin = std::string(n.name);
  // The parser keeps a row-kind semantic node inline, inside the last cell of the row
  // before it; MediaWiki renders it as a row of that table. So its condition is the
  // table's plus its own selector, and it is a sibling (not a child) of that row.
  NodeId host_row = kNoNode;
  for (NodeId a = n.parent; a != kNoNode; a = doc_.node(a).parent)
    if (doc_.node(a).kind == NodeKind::TableRow) {
      host_row = a;
      break;
    }
  std::size_t parent_override = kNoRule;
  bool reparent = false;
  if (host_row != kNoNode) {
    NodeId table = doc_.node(host_row).parent;
    row_condition_ = select::conjoin(table != kNoNode ? conditions_.full.at(table) : select::Condition(), own(node));
    use_row_condition_ = true;
    for (auto up = rule_stack_.rbegin(); up != rule_stack_.rend(); ++up)
      if (up->first != host_row) {
        parent_override = up->second;
        break;
      }
    reparent = true;
  }
  parent_override_ = reparent ? std::optional<std::size_t>(parent_override) : std::nullopt;
  Collected& d = scratch(0);
  Collected& r = scratch(1);
  if (NodeId f = param_fragment(node, "description"); f != kNoNode) collect(f, true_condition_, d, false, 0);
  if (NodeId f = param_fragment(node, "rules"); f != kNoNode) collect(f, true_condition_, r, true, 0);
  // The marker text names the expander's node (markers are unique).
  // Markers are unique; were one not, its last template would answer, as a map's
  // assignment in marker order had it.
  std::size_t origin = SIZE_MAX;
  if (n.source == 0) {
    const std::string_view marker = doc_.text(n);
    auto after = std::upper_bound(by_marker_.begin(), by_marker_.end(), marker,
                                  [](std::string_view m, const auto& e) { return m < e.first; });
    if (after != by_marker_.begin() && std::prev(after)->first == marker) origin = std::prev(after)->second;
  }
  finish_rule(rule, node, node, d, r, origin, CellRead{}, CellRead{});
  return false;
}

void PageExtractor::triggers_in(NodeId cell, std::vector<std::string>& out) const {
  // Depth first through the cell, nested tables left out (their rules have their own
  // icons): `box` is the outermost trigger box the node is in.
  NodeId id = cell, box = kNoNode;
  while (id != kNoNode) {
    const Node& n = doc_.node(id);
    bool descend = !(n.kind == NodeKind::Table && id != cell);
    if (descend && box == kNoNode && n.kind == NodeKind::Element && facts(n).box) box = id;
    if (descend && box != kNoNode && n.kind == NodeKind::FileLink) {
      std::string_view name = n.name;
      if (auto colon = name.find(':'); colon != std::string_view::npos) name.remove_prefix(colon + 1);
      for (const auto& [prefix, trigger] : m_.icons)
        if (starts_with(name, prefix)) {
          std::string t = trigger;
          NodeId next = n.next_sibling;
          if (t == "robbers" && next != kNoNode && doc_.node(next).kind == NodeKind::Bold &&
              node_text_view(next) == m_.plus_suffix)
            t = m_.plus_trigger;
          out.push_back(std::move(t));
        }
    }
    id = parse::next_in_subtree(doc_, cell, id, descend, [&](NodeId left) {
      if (left == box) box = kNoNode;
    });
  }
}

void PageExtractor::collect(NodeId id, const select::Condition& cond, Collected& out, bool skip_lists, int depth) {
  const Node& n = doc_.node(id);
  if (depth > 200) {
    out.add_unread(n, id);
    return;
  }
  // Most nodes hand their parent's condition down as it is: no copy of it is made then.
  auto descend = [&](const select::Condition& c) {
    // Text children (most of a cell's children) become runs here, without a call each;
    // they share the one `shown` of `c`.
    unsigned shown = 0;
    bool shown_known = false;
    for (NodeId k = n.first_child; k != kNoNode; k = doc_.node(k).next_sibling) {
      const Node& kn = doc_.node(k);
      if (kn.kind == NodeKind::Text && depth < 200) {
        if (!shown_known) {
          shown = shown_in(c);
          shown_known = true;
        }
        out.runs.push_back(text_run(doc_, kn, &c, shown));
        continue;
      }
      collect(k, c, out, skip_lists, depth + 1);
    }
  };
  switch (n.kind) {
    case NodeKind::Text:
      out.runs.push_back(text_run(doc_, n, &cond, shown_in(cond)));
      return;
    case NodeKind::Entity:
      out.add_owned(parse::decode_entity(doc_.text(n)), cond, shown_in(cond));
      return;
    case NodeKind::Nowiki:
      out.add_owned(doc_.plain_text(id), cond, shown_in(cond));
      out.add_unread(n, id);
      return;
    case NodeKind::Table:
      out.tables.push_back(id);
      return;
    case NodeKind::FileLink:
    case NodeKind::Comment:
    case NodeKind::Template:
    case NodeKind::HorizontalRule:
      out.add_unread(n, id);
      return;
    case NodeKind::Wikilink:
      if (n.first_child == kNoNode) {
        out.runs.emplace_back(n.name, &cond, shown_in(cond));
        return;
      }
      descend(cond);
      return;
    case NodeKind::SemanticTemplate: {
      out.add_unread(n, id);  // its other parameters
      std::string name(n.name);
      if (m_.reference_templates.count(name)) {
        std::string target = param_text(id, "name");
        if (!target.empty()) {
          add_once(out.references, name + ":" + target);
        }
        // Only "image" is asked of the variant: its text is read no further than that.
        if (NodeId v = param_fragment(id, "variant"); v != kNoNode && node_text_view(v, 5) == "image") return;
        NodeId f = param_fragment(id, "text");
        if (f == kNoNode) f = param_fragment(id, "name");
        if (f != kNoNode) collect(f, cond, out, skip_lists, depth + 1);
      } else if (m_.text_templates.count(name)) {
        if (NodeId f = param_fragment(id, "1"); f != kNoNode) collect(f, cond, out, skip_lists, depth + 1);
      }
      return;
    }
    case NodeKind::List:
      if (skip_lists) {
        const select::Condition& conjoined = out.keep(select::conjoin(cond, own(id)));
        for (NodeId k = n.first_child; k != kNoNode; k = doc_.node(k).next_sibling) collect(k, conjoined, out, skip_lists, depth + 1);
        return;
      }
      break;
    case NodeKind::ListItem:
      if (skip_lists) {
        out.items.emplace_back(id, cond);
        out.add_unread(n, id);
        return;
      }
      break;
    case NodeKind::Element:
      if (facts(n).box) {  // the trigger icons, read by triggers_in
        out.add_box(id);
        return;
      }
      if (is_name(n.name, "br")) {
        // A line break, which cleaning turns into a space like any other whitespace;
        // the points search reads the runs as they are, and a `per` ends at it.
        out.runs.emplace_back("\n", &cond, shown_in(cond));
        out.add_unread(n, id);
        return;
      }
      if (skip_lists && is_name(n.name, "li")) {
        out.items.emplace_back(id, select::conjoin(cond, own(id)));
        out.add_unread(n, id);
        return;
      }
      break;
    default:
      break;
  }
  const select::Condition* here = &cond;
  if (n.kind == NodeKind::Element || n.kind == NodeKind::TableCell || n.kind == NodeKind::List ||
      n.kind == NodeKind::ListItem) {
    // tree_conditions already reported the lints; the cell's own class is the rule's.
    if (!(n.kind == NodeKind::TableCell && depth == 0)) {
      // Most elements have no class: `cond` as it is, without asking conjoin()'s memo.
      // (An overflowed own condition reads as `true` but makes the product overflowed.)
      const select::Condition& mine = own(id);
      if (mine.identity() || mine.overflowed()) here = &out.keep(select::conjoin(cond, mine));
    }
    if (n.kind == NodeKind::Element && (is_name(n.name, "div") || is_name(n.name, "p") || is_name(n.name, "li")))
      out.runs.emplace_back(" ", &cond, shown_in(cond));
  }
  descend(*here);
}

Collected& PageExtractor::scratch(std::size_t level) {
  while (scratch_.size() <= level) scratch_.push_back(std::make_unique<Collected>());
  Collected& c = *scratch_[level];
  c.clear();
  return c;
}

bool PageExtractor::projection_on_path(NodeId id) {
  if (conditions_.projection_only.empty()) return false;
  // The nodes in projection_only are marked once, so that the walk up from a rule stops
  // at the first node answered or marked without a search of the map for every node on
  // its way (each rule's row and cells are new to it).
  if (projection_above_.empty()) {
    projection_above_.assign(doc_.size(), -1);
    for (const auto& entry : conditions_.projection_only)
      if (entry.first < projection_above_.size()) projection_above_[entry.first] = 1;
  }
  auto& chain = projection_chain_;
  chain.clear();
  NodeId a = id;
  for (; a != kNoNode && projection_above_[a] < 0; a = doc_.node(a).parent) chain.push_back(a);
  // No node on the chain is marked: each has the answer of the node where it stopped.
  const std::int8_t above = a != kNoNode && projection_above_[a] > 0 ? 1 : 0;
  for (NodeId x : chain) projection_above_[x] = above;
  return above > 0;
}

void PageExtractor::count_use(std::string_view reason, std::size_t n) {
  // By the reason's address first (a literal of this file or the mapping's string, the
  // same at each call): the texts are compared only for an address not seen yet, which
  // is then filed too.
  for (auto& [name, count] : use_counts_)
    if (name.data() == reason.data() && name.size() == reason.size()) {
      *count += n;
      return;
    }
  std::size_t* count = nullptr;
  for (auto& [name, c] : use_counts_)
    if (name == reason) count = c;
  // std::map never moves its values, so the pointer stays good for the page.
  if (!count) count = &out_.cells.by_use[std::string(reason)];
  use_counts_.emplace_back(reason, count);
  *count += n;
}

// Whether every run reads the same in all editions (each is shown under all three or
// under none), as select::text_variants decides per edition.
bool PageExtractor::edition_blind(const Run* begin, const Run* end) const {
  return std::all_of(begin, end, [](const Run& r) { return r.shown == 0 || r.shown == kAllEditions; });
}

void PageExtractor::variants_into(const Run* begin, const Run* end, Variants& out) const {
  std::size_t total = 0;
  const std::span<const Run> runs(begin, end);
  for (const Run& r : runs) total += r.text.size();
  // As select::text_variants, an edition's runs cleaned as they are gathered (Cleaner
  // reads a text in pieces exactly as in one). The cleaned text is never longer than
  // its pieces, so room for those is made once and the pieces are copied in place.
  auto reading = [&](select::Edition e, TextBuffer& text) {
    text.start(total + 16);  // room for put16's block past the last piece
    BasicCleaner<TextBuffer> c(text);
    const unsigned bit = edition_bit(e);
    for (const Run& r : runs)
      if (r.shown & bit) put_run(text, r);  // as c.append: the pieces are cleaned in finish()
    c.finish();
  };
  if (edition_blind(begin, end)) {
    // The usual case: one reading serves all three, and a uniform Variants holds it once.
    // Read into a buffer kept between calls and copied out at its size: reserved for
    // the uncleaned pieces, the record's own string was an allocation even for the many
    // texts that clean to a few words or none (blanks around a note, a part's arrow).
    reading(select::Edition::C2, variant_buffers_[1]);
    out.text = shared(variant_buffers_[1].view());
    out.uniform = true;
    return;
  }
  // Each edition read into a buffer kept between calls, and copied out only as the
  // Variants needs it: most such texts still read the same in all three (a span shown
  // to no edition, an edition span around a blank). An edition that shows the runs an
  // edition before it shows reads as that one and is not cleaned again.
  constexpr select::Edition editions[3] = {select::Edition::C1, select::Edition::C2, select::Edition::WE};
  std::string_view text_of[3];
  // The edition each reads as: itself, or an earlier one with the same text.
  std::size_t as[3] = {0, 1, 2};
  for (std::size_t k = 0; k < 3; ++k) {
    const unsigned bit = edition_bit(editions[k]);
    std::size_t j = 0;
    while (j < k && !std::all_of(begin, end, [&](const Run& r) {
             return !(r.shown & edition_bit(editions[j])) == !(r.shown & bit);
           }))
      ++j;
    if (j < k) {
      text_of[k] = text_of[j];
      as[k] = as[j];
    } else {
      reading(editions[k], variant_buffers_[k]);
      text_of[k] = variant_buffers_[k].view();
      for (j = 0; j < k; ++j)
        if (as[j] == j && text_of[j] == text_of[k]) {
          as[k] = j;
          break;
        }
    }
  }
  out.uniform = as[1] == as[0] && as[2] == as[0];
  if (out.uniform) {
    out.text = shared(text_of[1]);
    return;
  }
  // Most such texts differ in one edition only (C1's "follower" for "meeple"): an edition
  // that reads as one before it shares that one's text instead of a copy of its own.
  SharedText* const of[3] = {&out.c1, &out.c2, &out.we};
  for (std::size_t k = 0; k < 3; ++k) *of[k] = as[k] == k ? shared(text_of[k]) : *of[as[k]];
  out.text = v_.default_edition() == select::Edition::C1 ? out.c1 : v_.default_edition() == select::Edition::WE ? out.we : out.c2;
}

select::Condition PageExtractor::without_editions(const select::Condition& c) {
  // By the condition's shared terms, across pages (select::conjoin's memo keeps the
  // page's conditions shared from page to page); the entry keeps the condition alive, so
  // an address is never reused for another one. Per thread, bounded.
  thread_local std::unordered_map<const void*, std::pair<select::Condition, select::Condition>> memo;
  thread_local std::uint64_t serial = 0;
  auto [it, fresh] = run_memo(memo, serial, v_).try_emplace(c.identity());
  auto& [kept, answer] = it->second;
  if (!fresh) return answer;
  kept = c;
  auto edition_atom = [&](const select::Literal& l) {
    const select::AtomInfo* a = v_.find_atom(l.atom);
    return a && a->kind == select::AtomKind::edition;
  };
  // Terms no edition can satisfy (`C1 & C2`) go first, or dropping their edition atoms
  // would make them satisfiable.
  select::Condition simple = v_.simplify(c);
  bool any = false;
  for (const auto& t : simple.terms()) any = any || std::any_of(t.begin(), t.end(), edition_atom);
  if (!any) {
    answer = simple;
    return answer;
  }
  std::vector<select::Term> terms;
  terms.reserve(simple.terms().size());
  for (const auto& t : simple.terms()) {
    select::Term& term = terms.emplace_back();
    for (const auto& l : t)
      if (!edition_atom(l)) term.push_back(l);
  }
  answer = select::Condition::from_terms(std::move(terms));
  return answer;
}

bool PageExtractor::parts_of(const std::vector<Run>& runs, PartLayout& layout, std::vector<TextPart>& parts) {
  layout.clear();
  parts.clear();
  // The usual text: every run unconditioned, conditioned by editions only (which make
  // no parts: their runs all fall into parts under `true`), or conditioned but with
  // nothing to read (the trigger arrow of a description, a blank). One look at each run,
  // and a condition is asked about once for the runs in a row that share it.
  {
    const select::Condition* asked = nullptr;
    bool editions_only = false;
    bool plain = true;
    for (const Run& r : runs) {
      if (r.condition->is_true() || r.shown == 0) continue;
      if (!asked || !r.condition->same(*asked)) {
        asked = r.condition;
        editions_only = without_editions(*r.condition).is_true();
      }
      if (editions_only || blank_or_arrow(r.text)) continue;
      plain = false;
      break;
    }
    if (plain) return false;
  }
  constexpr std::size_t everywhere = PartLayout::kEverywhere;
  layout.part_of_run.assign(runs.size(), everywhere);
  bool conditioned = false;
  const select::Condition* last_asked = nullptr;
  select::Condition last_answer;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const Run& r = runs[i];
    // Blank runs (the space between two spans), the arrow before a description's trigger
    // icons (a showRobbers span on most rows, which cleaning drops) and runs no edition
    // shows never start a part: every reading has them, or none.
    if (r.shown == 0 || blank_or_arrow(r.text)) continue;
    // A cell's runs alternate between a few conditions: the last answer is asked first.
    if (!r.condition->is_true() && (!last_asked || !r.condition->same(*last_asked))) {
      last_asked = r.condition;
      last_answer = without_editions(*r.condition);
    }
    const select::Condition& c = r.condition->is_true() ? *r.condition : last_answer;
    if (layout.parts.empty() || !(layout.parts.back().condition == c)) {
      PartLayout::Part& p = layout.parts.emplace_back();
      p.begin = i;
      p.condition = c;
      p.always = c.is_true();
      conditioned = conditioned || !p.always;
    }
    layout.parts.back().end = i + 1;
    layout.part_of_run[i] = layout.parts.size() - 1;
  }
  if (!conditioned) {
    layout.clear();
    return false;
  }
  // A part without text (a trigger arrow alone, which cleaning drops) is none, and the
  // parts around it join when they share a condition. Gathered in vectors kept between
  // calls: the record's parts are then copied at their number, and the layout's parts
  // trade places with the scratch ones.
  std::vector<PartLayout::Part>& kept = parts_kept_;
  kept.clear();
  std::vector<TextPart>& found = parts_found_;
  found.clear();
  for (std::size_t k = 0; k < layout.parts.size(); ++k) {
    PartLayout::Part& p = layout.parts[k];
    Variants text = variants(runs.data() + p.begin, runs.data() + p.end);
    if (empty(text)) {
      for (std::size_t i = p.begin; i < p.end; ++i)
        if (layout.part_of_run[i] == k) layout.part_of_run[i] = everywhere;
      continue;
    }
    if (!kept.empty() && kept.back().condition == p.condition) {
      kept.back().end = p.end;
      found.back().text = variants(runs.data() + kept.back().begin, runs.data() + p.end);
      continue;
    }
    kept.push_back(std::move(p));
    found.push_back({SharedText(), std::move(text)});
  }
  if (kept.empty() || (kept.size() == 1 && kept.front().always)) {
    layout.clear();
    return false;
  }
  for (std::size_t k = 0; k < kept.size(); ++k) {
    PartLayout::Part& p = kept[k];
    for (std::size_t i = p.begin; i < p.end; ++i)
      if (layout.part_of_run[i] != everywhere) layout.part_of_run[i] = k;
    p.when = p.always ? true_when_ : when_of(p.condition);
    found[k].when = p.when;
  }
  parts.assign(std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
  std::swap(layout.parts, kept);
  return true;
}

std::pair<std::size_t, std::size_t> PageExtractor::points_in(std::string_view text) {
  PointsMemo& memo = points_memo_;
  const std::uint64_t h = text_hash(text);
  if (auto* e = memo.by_text.find(h, [text](const PointsMemo::Searched& x) { return x.text == text; }))
    return {e->begin, e->end};
  // Room for a page's expressions at its first search (the seed page finds about 300):
  // each doubling moved every expression found so far, five strings each.
  if (memo.found.capacity() == 0) memo.found.reserve(256);
  const std::size_t begin = memo.found.size();
  find_points(text, memo.found);
  const std::size_t end = memo.found.size();
  memo.by_text.insert(h, {memo.bytes.keep(text), begin, end});
  return {begin, end};
}

std::vector<PointsEntry> PageExtractor::points_of(const std::vector<Run>& runs, const PartLayout& layout,
                                                  const select::Condition& full) {
  std::vector<PointsEntry> out;
  const select::Edition order[] = {select::Edition::C2, select::Edition::C1, select::Edition::WE};
  constexpr std::size_t everywhere = PartLayout::kEverywhere;
  const bool with_parts = !layout.parts.empty();
  // One reading of one edition: the runs every reader sees (unconditioned parts and
  // blanks) and, unless `reading` is `everywhere`, those of that one conditioned part.
  // `at` holds where each run starts in it: (begin in text, run index).
  TextBuffer& buffer = points_text_;
  std::string_view text;
  std::size_t room = 0;  // every reading fits in the bytes of all runs
  for (const Run& r : runs) room += r.text.size();
  auto& at = points_at_;
  auto gather = [&](select::Edition e, std::size_t reading) {
    buffer.start(room + 16);
    at.clear();
    const unsigned bit = edition_bit(e);
    for (std::size_t i = 0; i < runs.size(); ++i) {
      if (!(runs[i].shown & bit)) continue;
      if (with_parts) {
        std::size_t part = layout.part_of_run[i];
        if (part != everywhere && part != reading && !layout.parts[part].always) continue;
      }
      at.emplace_back(buffer.size(), i);
      put_run(buffer, runs[i]);
    }
    text = buffer.view();
  };
  if (!with_parts && edition_blind(runs)) {
    // Every edition reads what the first does: each expression found is one entry that
    // all editions share (an empty `editions`), as the general loop below would make it.
    // Gathered without gather()'s places of the runs, which only the general case reads.
    buffer.start(room + 16);
    for (const Run& r : runs)
      if (r.shown) put_run(buffer, r);
    const auto [begin, end] = points_in(buffer.view());
    // A pointer into the memo is good here: nothing is added to it while `out` is filled.
    const Points* found = points_memo_.found.data() + begin;
    out.resize(end - begin);  // each entry filled where it stays, not built and moved
    for (std::size_t i = 0; i < out.size(); ++i) {
      out[i].when = true_when_;
      out[i].points = found[i];
      out[i].points.offset = out[i].points.length = 0;  // offsets into a per-edition text mean nothing to a reader
    }
    return out;
  }
  // The general case gathers its entries in a vector kept between rules and moves them
  // to the record's own at their number: it grew edition by edition before.
  std::vector<PointsEntry>& entries = points_entries_;
  entries.clear();
  // Readings: the common one, then one per conditioned part. An expression never spans
  // two alternatives: each reading shows at most one of them.
  auto& readings = points_readings_;
  readings.assign(1, everywhere);
  for (std::size_t k = 0; k < layout.parts.size(); ++k)
    if (!layout.parts[k].always) readings.push_back(k);
  // find_points depends on the text alone, and an edition often reads as one before it
  // (WE as C2 where only C1 says "follower"): points_in searches each text once.
  const std::vector<Points>& found = points_memo_.found;  // read only once all readings are searched
  auto& placed = points_placed_;
  if (placed.size() < readings.size()) placed.resize(readings.size());
  auto in_reading = [&](std::size_t ri, const Placed& x) {
    return std::any_of(placed[ri].begin(), placed[ri].end(), [&](const Placed& y) {
      return y.start == x.start && found[y.points].text == found[x.points].text;
    });
  };
  // Where each entry starts: parts' entries are put back in text order at the end.
  auto& starts = points_starts_;
  starts.clear();
  // Each entry's editions as edition_bit()s, made into `editions` at the end.
  auto& shown_in = points_shown_in_;
  shown_in.clear();
  for (std::size_t k = 0; k < 3; ++k) {
    const select::Edition e = order[k];
    const unsigned bit = edition_bit(e);
    // An edition that shows exactly the runs an edition before it shows (WE as C2 where
    // only C1 says "follower") has the same readings, placed alike: it makes the same
    // add() calls, and each one lands on the entry that the earlier edition's call did
    // (the n-th call for an expression and `when` takes the n-th entry of them lacking
    // the edition, in both). So it joins the entries that edition has.
    std::size_t copy_of = 0;
    while (copy_of < k && !std::all_of(runs.begin(), runs.end(), [&](const Run& r) {
             return !(r.shown & edition_bit(order[copy_of])) == !(r.shown & bit);
           }))
      ++copy_of;
    if (copy_of < k) {
      const unsigned earlier = edition_bit(order[copy_of]);
      for (unsigned& m : shown_in)
        if (m & earlier) m |= bit;
      continue;
    }
    for (std::size_t ri = 0; ri < readings.size(); ++ri) {
      gather(e, readings[ri]);
      const auto [begin, end] = points_in(text);
      placed[ri].clear();
      for (std::size_t n = begin; n < end; ++n) {
        const std::size_t offset = found[n].offset;
        auto it = std::upper_bound(at.begin(), at.end(), std::pair{offset, SIZE_MAX});
        const auto& run = it == at.begin() ? at.front() : *std::prev(it);
        placed[ri].push_back({{run.second, offset - run.first}, n});
      }
    }
    // Room for every expression of this edition up front: most are new entries in the
    // first edition, and each move of an entry is six strings.
    std::size_t expressions = entries.size();
    for (std::size_t ri = 0; ri < readings.size(); ++ri) expressions += placed[ri].size();
    entries.reserve(expressions);
    auto add = [&](const Placed& x, const SharedText& when) {
      const Points& p = found[x.points];
      for (std::size_t i = 0; i < entries.size(); ++i) {
        const PointsEntry& q = entries[i];
        if (!(shown_in[i] & bit) && q.points.op == p.op && q.points.value == p.value &&
            q.points.denominator == p.denominator && q.points.quantity == p.quantity && q.points.basis == p.basis &&
            q.points.per == p.per && q.points.rounding == p.rounding && q.when == when) {
          shown_in[i] |= bit;
          return;
        }
      }
      PointsEntry& q = entries.emplace_back();
      q.points = p;
      q.points.offset = 0;  // offsets into a per-edition text mean nothing to a reader
      q.points.length = 0;
      q.when = when;
      shown_in.push_back(bit);
      starts.push_back(x.start);
    };
    // The common reading's expressions. One that a conditioned part changes (it reads on
    // into the part, or across the place where it stands) is what a reader sees who is
    // not shown that part: "(+1) point / completed city" holds under !Castles, where
    // Castles readers have "(+1) point / castle or completed city".
    for (const Placed& x : placed[0]) {
      if (!with_parts) {
        add(x, true_when_);
        continue;
      }
      auto& changed_by = points_changed_by_;  // reading indices
      changed_by.clear();
      for (std::size_t ri = 1; ri < readings.size(); ++ri)
        if (!in_reading(ri, x)) changed_by.push_back(ri);
      if (changed_by.empty()) {
        add(x, true_when_);
        continue;
      }
      // The same parts change most expressions of a rule, in every edition, and the rows
      // of a table alike: each set's condition is made once per run (hidden_when_memo).
      auto& key = hidden_key_;
      key.clear();
      key.push_back(full.identity());
      for (std::size_t ri : changed_by) key.push_back(layout.parts[readings[ri]].condition.identity());
      auto [it, fresh] = hidden_when_memo().try_emplace(key);
      if (fresh) {
        it->second.kept.push_back(full);
        for (std::size_t ri : changed_by) it->second.kept.push_back(layout.parts[readings[ri]].condition);
        // Parts of which no two can show together are alternatives ("circus or acrobat
        // tiles", "circus tiles", "acrobat tiles"): the sentence is written for a reader
        // who sees one of them, so the reading with none of them is none the page means.
        bool alternatives = changed_by.size() >= 2;
        for (std::size_t a = 0; alternatives && a < changed_by.size(); ++a) {
          const select::Condition with_a =
              select::conjoin_once(full, layout.parts[readings[changed_by[a]]].condition);
          for (std::size_t b = a + 1; alternatives && b < changed_by.size(); ++b)
            alternatives = !v_.satisfiable(select::conjoin_once(with_a, layout.parts[readings[changed_by[b]]].condition));
        }
        // Otherwise the expression is the reading of those shown none of the parts.
        if (!alternatives) {
          select::Condition hidden;
          for (std::size_t ri : changed_by)
            hidden = select::conjoin_once(hidden, select::negate_once(layout.parts[readings[ri]].condition));
          if (v_.satisfiable(select::conjoin_once(full, hidden))) it->second.when = when_of(hidden);
        }
      }
      if (it->second.when) add(x, *it->second.when);
    }
    // A part's own expressions: those its reading has and the common one has not.
    for (std::size_t ri = 1; ri < readings.size(); ++ri)
      for (const Placed& x : placed[ri])
        if (!in_reading(0, x)) add(x, layout.parts[readings[ri]].when);
  }
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (shown_in[i] == kAllEditions) continue;  // every edition's wording has it: `editions` stays empty
    // One list per set of editions, made the first time the page needs it.
    SharedList& list = editions_lists_[shown_in[i] & kAllEditions];
    if (list.empty()) {
      std::vector<std::string> names;
      for (select::Edition e : select::kEditions)
        if (shown_in[i] & edition_bit(e)) names.emplace_back(select::to_string(e));
      std::sort(names.begin(), names.end());
      list = std::move(names);
    }
    entries[i].editions = list;
  }
  // In text order with parts: a stable insertion sort of the few entries by where they
  // start (std::stable_sort took a buffer of its own each time).
  auto& index = points_index_;
  index.resize(entries.size());
  for (std::size_t i = 0; i < index.size(); ++i) {
    std::size_t j = i;
    if (with_parts)
      for (; j > 0 && starts[i] < starts[index[j - 1]]; --j) index[j] = index[j - 1];
    index[j] = i;
  }
  out.reserve(entries.size());
  for (std::size_t i : index) out.push_back(std::move(entries[i]));
  return out;
}

void PageExtractor::notes_of(const Collected& c, std::vector<Note>& notes, std::vector<std::string>& refs,
                             std::size_t level) {
  for (const auto& [item, cond] : c.items) {
    const Node& n = doc_.node(item);
    // A note read before on the page, under the same condition, reads as it did then:
    // the rules cells of a page differ, and their notes repeat ("Only with …", the
    // bonus reminders). Only a tree that collect() reads alike is a repeat (see
    // cell_read), and only a note without references or notes of its own is remembered.
    const std::string_view item_text = doc_.text(n);
    const std::uint64_t hash =
        sampled_hash(item_text) ^ select::mix64(reinterpret_cast<std::uintptr_t>(cond.identity()));
    std::size_t candidates = 0;
    const KnownNote* known = known_notes_.find(hash, [&](const KnownNote& e) {
      ++candidates;
      return e.condition.same(cond) && doc_.text(doc_.node(e.item)) == item_text && reads_alike(e.item, item);
    });
    if (known) {
      if (known->has_text) notes.push_back(known->note);
      continue;
    }
    Collected& inner = scratch(level);
    for (NodeId k = n.first_child; k != kNoNode; k = doc_.node(k).next_sibling) collect(k, cond, inner, true, 1);
    // Edition spans inside the note decide its wording; its own condition is kept apart
    // in `when` (the runs carry it too, which text_variants reads as a restriction only).
    // As in parts, an edition in that condition shows in the wording (a `showC1` note has
    // C1 text only), not in `when`. Built in place (a Note is five strings) and dropped
    // again when it has no text.
    Note& note = notes.emplace_back();
    variants_into(inner.runs, note.text);
    const bool has_text = !empty(note.text);
    if (!has_text) notes.pop_back();
    else note.when = when_of(without_editions(cond));
    // Notes that differ only where the hash does not look share it: a few are filed
    // under one, so that a page of such notes is not compared note by note.
    if (inner.references.empty() && inner.items.empty() && candidates < 8)
      known_notes_.insert(hash, {item, cond, has_text ? notes.back() : Note{}, has_text});
    for (const auto& ref : inner.references) add_once(refs, ref);
    notes_of(inner, notes, refs, level + 1);
  }
}

void PageExtractor::place(Rule& rule, std::uint32_t offset, const expand::Origin* direct) {
  rule.source.page = page_title_;
  rule.source.revision = page_.revision.id;
  rule.source.file = page_file_;
  expand::Origin at;
  if (direct) {
    at = *direct;
  } else {
    // The segment is the last one that begins at or before `offset`. Rules are placed in
    // document order, so it is usually the one found last or the next: those are tried
    // before a search of all the page's segments.
    const auto& segs = expansion_.segments;
    auto starts_it = [&](std::size_t k) {
      return k < segs.size() && segs[k].begin <= offset && (k + 1 == segs.size() || segs[k + 1].begin > offset);
    };
    std::size_t k = place_segment_;
    if (!starts_it(k) && !starts_it(++k)) {
      auto it = std::upper_bound(segs.begin(), segs.end(), offset,
                                 [](std::uint32_t v, const expand::Segment& seg) { return v < seg.begin; });
      if (it == segs.begin()) return;
      k = static_cast<std::size_t>(it - segs.begin()) - 1;
    }
    place_segment_ = k;
    const expand::Segment& seg = segs[k];
    if (offset >= seg.end) return;
    at = seg.origin;
    // A segment copied verbatim maps byte for byte; otherwise (a template's output) the
    // best position is where the producing construct starts.
    if (seg.end - seg.begin == at.span.size()) at.span.begin += offset - seg.begin;
  }
  std::vector<std::string> chain;
  for (int guard = 0; at.chain != expand::kNoChain && at.chain < expansion_.calls.size() && guard < 200; ++guard) {
    const auto& call = expansion_.calls[at.chain];
    chain.insert(chain.begin(), call.template_title);
    at = call.called_at;
  }
  rule.source.chain = std::move(chain);
  // Whether the source is the page itself, asked once per source rather than per rule
  // (a title compare each).
  if (at.source != place_source_) {
    place_source_ = at.source;
    place_source_is_page_ = at.source < expansion_.sources.size() && at.source < expansion_.source_lines.size() &&
                            expansion_.sources[at.source].title == page_.title;
  }
  if (place_source_is_page_) {
    auto p = expansion_.source_lines[at.source].position(at.span.begin);
    rule.source.line = p.line;
    rule.source.column = p.column;
    // Restoration that only turned spaces into newlines keeps every offset.
    if (!restored_.restored || restored_.inserted == 0) rule.source.offset = at.span.begin;
  }
}

std::string PageExtractor::unique_id(std::string id) {
  bool fresh = false;
  std::size_t& repeats = ids_.add(id, fresh);
  if (fresh) return id;
  std::string candidate;
  do candidate = id + "-" + std::to_string(++repeats);
  while (ids_.contains(candidate));
  ids_.add(candidate, fresh);
  ++out_.id_collisions;
  return candidate;
}

PageExtractor::CellRead PageExtractor::cell_read(NodeId cell, bool rules) {
  const std::string_view text = doc_.text(doc_.node(cell));
  CellRead read;
  read.cell = cell;
  read.hash = sampled_hash(text);
  // Only a tree that collect() reads alike is a repeat: the same text might have been
  // parsed otherwise where it stands.
  std::size_t candidates = 0;
  read.known = (rules ? rules_cells_ : description_cells_).find(read.hash, [&](const CellText& e) {
    ++candidates;
    return doc_.text(doc_.node(e.cell)) == text && reads_alike(e.cell, cell);
  });
  // Cells that differ only between the samples share a hash: a few are filed under one,
  // so that a page of such rows is not compared row by row with all before it.
  if (!read.known && candidates >= 8) read.cell = kNoNode;
  return read;
}

bool PageExtractor::reads_alike(NodeId a, NodeId b) {
  // A subtree's nodes are made in document order, so they are the ids from its root to
  // its last descendant (the end of its chain of last children). Two such ranges match
  // when their nodes do one by one: kinds, child and sibling links and spans the same
  // relative to their roots, and own conditions the same. The texts being equal, so is
  // all that a node reads from its span (its text, tag or link name, its classes). A
  // subtree whose links leave its range is no repeat.
  const Node& ra = doc_.node(a);
  const Node& rb = doc_.node(b);
  if (ra.source != 0 || rb.source != 0) return false;
  NodeId last_a = a, last_b = b;
  while (doc_.node(last_a).last_child != kNoNode) last_a = doc_.node(last_a).last_child;
  while (doc_.node(last_b).last_child != kNoNode) last_b = doc_.node(last_b).last_child;
  const NodeId count = last_a - a;
  if (last_a < a || last_b < b || last_b - b != count) return false;
  if (std::max(last_a, last_b) >= conditions_.own.size()) return false;  // own() made on the spot: no identity
  const std::uint32_t begin_a = ra.span.begin, end_a = ra.span.end;
  // Spans and links as offsets from the other root: a node of the repeat stands where
  // its counterpart does, moved by these (modulo 2^32, as the differences from the roots
  // compared before). A child or sibling link must stay in the range; kNoNode matches
  // kNoNode only.
  const std::uint32_t moved = rb.span.begin - begin_a;
  const NodeId shift = b - a;
  // A link of node i in the range leads past i: x - a in (i, count], one unsigned compare
  // as (x - a - i - 1) < (count - i). Moved by `shift`, such a link lands on a node of the
  // other range, never on kNoNode, so its counterpart needs no test of its own.
  [[maybe_unused]] auto link_alike = [&](NodeId x, NodeId y, NodeId i) {
    if (x == kNoNode) return y == kNoNode;
    return y == x + shift && x - a - i - 1 < count - i;
  };
  // Both ranges walked by pointer into the arena, the own conditions by the column's
  // iterator (a node's entry in the page's table of distinct conditions, not an array
  // indexed by node), and the tests of a node that need no range or link are or'ed into
  // one word: a repeat, the usual answer, then takes one branch for them rather than seven.
  const Node* px = &doc_.node(a);
  const Node* py = &doc_.node(b);
  auto cx = conditions_.own.begin() + a;
  auto cy = conditions_.own.begin() + b;
#ifdef __SSE2__
  // The same tests four lanes at a time, on the node's first 16 bytes (kind, aux and
  // source as one word, the span, the parent, which is not compared) and its next 16
  // (first child, last child and next sibling, which are, but the last child, and
  // padding). A link's range test is the unsigned compare above, as a signed one of
  // both sides moved by 2^31: SSE2 has no other. `from` and `room` are i + 1 and
  // count - i as node ids of the first range, so moved.
  static_assert(offsetof(Node, span) == 4 && offsetof(Node, parent) == 12 && offsetof(Node, first_child) == 16 &&
                offsetof(Node, next_sibling) == 24 && sizeof(support::Span) == 8);
  const __m128i head_moved = _mm_set_epi32(0, static_cast<int>(moved), static_cast<int>(moved), 0);
  const __m128i link_moved = _mm_set1_epi32(static_cast<int>(shift));
  const __m128i no_node = _mm_set1_epi32(-1), one = _mm_set1_epi32(1);
  __m128i from = _mm_set1_epi32(static_cast<int>(a + 1u + 0x80000000u));
  __m128i room = _mm_set1_epi32(static_cast<int>(count + 0x80000000u));
  // Bytes of the lanes tested: the head word and span; the first child, and from the
  // root's first child on the next sibling too.
  constexpr unsigned kHead = 0x0FFF;
  unsigned links = 0x000F;
#endif
  for (NodeId i = 0; i <= count; ++i, ++px, ++py, ++cx, ++cy) {
    const Node& nx = *px;
#ifdef __SSE2__
    const __m128i hx = _mm_loadu_si128(reinterpret_cast<const __m128i*>(px));
    const __m128i hy = _mm_loadu_si128(reinterpret_cast<const __m128i*>(py));
    const __m128i lx = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&px->first_child));
    const __m128i ly = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&py->first_child));
    const __m128i none = _mm_cmpeq_epi32(lx, no_node);
    const __m128i link_same = _mm_cmpeq_epi32(_mm_sub_epi32(ly, lx), _mm_andnot_si128(none, link_moved));
    const __m128i inside = _mm_cmpgt_epi32(room, _mm_sub_epi32(lx, from));
    const auto head = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi32(_mm_sub_epi32(hy, hx), head_moved)));
    const auto link =
        static_cast<unsigned>(_mm_movemask_epi8(_mm_and_si128(link_same, _mm_or_si128(none, inside))));
    if ((head & kHead) != kHead || (link & links) != links || nx.source != 0 || nx.span.begin < begin_a ||
        nx.span.end > end_a)
      return false;
    from = _mm_add_epi32(from, one);
    room = _mm_sub_epi32(room, one);
    links = 0x0F0F;
#else
    const Node& ny = *py;
    const std::uint32_t differs = (static_cast<std::uint32_t>(nx.kind) ^ static_cast<std::uint32_t>(ny.kind)) |
                                  static_cast<std::uint32_t>(nx.aux ^ ny.aux) | nx.source | ny.source |
                                  ((ny.span.begin - nx.span.begin) ^ moved) | ((ny.span.end - nx.span.end) ^ moved);
    if (differs != 0 || nx.span.begin < begin_a || nx.span.end > end_a) return false;
    if (!link_alike(nx.first_child, ny.first_child, i) || (i > 0 && !link_alike(nx.next_sibling, ny.next_sibling, i)))
      return false;
#endif
    if (!cx->same(*cy)) return false;
  }
  return true;
}

// `cond_node` is the node whose full condition is the rule's: the description cell of a
// raw row (its own show… class counts), the ScoringRow node itself. `rule` is already
// the last of out_.rules: a Rule has two dozen members, and moving it in costs more than
// building it there.
void PageExtractor::finish_rule(Rule& rule, NodeId at, NodeId cond_node, const Collected& d, const Collected& r,
                                std::size_t origin_index, const CellRead& desc_read, const CellRead& rules_read) {
  const Node& n = doc_.node(at);
  rule.section = section_;
  rule.phase = phase_;
  rule.round = round_;
  rule.step = step_;
  rule.block = block_;
  select::Condition full = use_row_condition_ ? row_condition_ : conditions_.full.at(cond_node);
  // A structural class the page's script computes (`showStep1A_Messages`) keeps `true` in
  // the path condition, but shows its row only with what it requires (schema/selectors
  // .yaml `requires`): the Messages reminder of a step is no rule without Messages.
  bool described = !use_row_condition_;
  if (!use_row_condition_ && projection_on_path(cond_node)) {
    bool required = false;
    for (NodeId a = cond_node; a != kNoNode; a = doc_.node(a).parent)
      if (auto it = conditions_.projection_only.find(a); it != conditions_.projection_only.end()) {
        full = select::conjoin(full, it->second);
        required = true;
      }
    if (required) {
      full = v_.simplify(full);
      described = false;  // a fresh condition: nothing to share with other rules
    }
  }
  use_row_condition_ = false;
  std::optional<std::size_t> parent = parent_override_;
  parent_override_.reset();
  if (described) {
    // The rows of a table share their path condition: its text and atoms are made once.
    auto [it, fresh] = described_memo().try_emplace(full.identity());
    if (fresh) it->second = {full, select::to_string(full), full.atoms()};
    rule.when = it->second.when;
    rule.atoms = it->second.atoms;
  } else {
    rule.when = select::to_string(full);
    rule.atoms = full.atoms();
  }
  // A cell with references (a semantic template's) is not remembered: it would have to
  // keep them apart from the other cell's.
  const std::size_t this_rule = out_.rules.size() - 1;
  if (desc_read.known) {
    const Rule& first = out_.rules[desc_read.known->rule];
    rule.description = first.description;
    rule.description_parts = first.description_parts;
  } else {
    variants_into(d.runs, rule.description);
    parts_of(d.runs, description_layout_, rule.description_parts);
    rule.references = d.references;
    if (desc_read.cell != kNoNode && d.references.empty())
      description_cells_.insert(desc_read.hash, {desc_read.cell, this_rule, desc_read.plain_triggers, {}});
  }
  if (rules_read.known) {
    const Rule& first = out_.rules[rules_read.known->rule];
    rule.rules = first.rules;
    rule.rules_parts = first.rules_parts;
    rule.notes = first.notes;
    rule.points = first.points;
  } else {
    variants_into(r.runs, rule.rules);
    parts_of(r.runs, rules_layout_, rule.rules_parts);
    // The rules cell's references and its notes' follow the description's, each once
    // (collect() lists each of a cell's once already).
    std::vector<std::string> refs = r.references;
    rule.notes.reserve(r.items.size());  // the usual notes: one per item, none nested
    notes_of(r, rule.notes, refs, 2);
    for (const auto& ref : refs) add_once(rule.references, ref);
    rule.points = points_of(r.runs, rules_layout_, full);
    if (rules_read.cell != kNoNode && refs.empty())
      rules_cells_.insert(rules_read.hash,
                          {rules_read.cell, this_rule, false, rule.rules_parts.empty() ? select::Condition() : full});
  }
  rule.points_unparsed = rule.points.empty() && !empty(rule.rules);
  place(rule, n.span.begin, origin_index < expansion_.semantic.size() ? &expansion_.semantic[origin_index].origin : nullptr);
  // Ids name where a reader finds the rule; a sub-rule lives under its parent's id.
  const bool sub_rule = parent ? *parent != kNoRule : !rule_stack_.empty();
  if (sub_rule) {
    rule.parent = out_.rules[parent ? *parent : rule_stack_.back().second].id;
  } else {
    // page / step (else section) / block: the same figure's block recurs in several steps.
    // That part changes only with the structure around the rows: kept between rules, and
    // rebuilt in its own string from the slugs' views (the strings of the slugs and of
    // their sums were a few allocations each time the block changed).
    const SharedText& place_name = !step_.empty() ? step_ : section_;
    if (!id_prefix_valid_ || place_name != id_prefix_place_ || block_ != id_prefix_block_) {
      if (title_slug_.empty()) title_slug_.assign(slug_view(page_.title, m_.id_words)).append(m_.id_separator);
      const std::string_view where = slug_view(place_name, m_.id_words);
      id_prefix_.assign(title_slug_).append(where.empty() ? std::string_view("page") : where).append(m_.id_separator);
      if (!block_.empty()) id_prefix_.append(slug_view(block_, m_.id_words)).append(m_.id_separator);
      id_prefix_place_ = place_name;
      id_prefix_block_ = block_;
      id_prefix_valid_ = true;
    }
  }
  // The words are copied once, straight into the id (the view lasts until the next slug).
  std::string_view what = slug_view(rule.description.text, m_.id_words);
  if (what.empty()) what = slug_view(rule.rules.text, m_.id_words);
  if (what.empty()) what = "rule";
  // Built in the record's own string: a fresh id, the usual case, then needs no move.
  std::string& id = rule.id;
  if (sub_rule) {
    id.reserve(rule.parent.size() + m_.id_separator.size() + what.size());
    id.append(rule.parent).append(m_.id_separator);
  } else {
    id.reserve(id_prefix_.size() + what.size());
    id.append(id_prefix_);
  }
  id.append(what);
  // Repeated descriptions usually differ by condition (the same bonus under Castles and
  // under Robbers): that names the rule better than a number.
  // The usual case, an id not yet used, costs one lookup.
  if (bool fresh = false; ids_.add(id, fresh), fresh) return;
  std::string wanted = id;
  if (!full.is_true()) id += "-" + slug(rule.when, m_.id_words);
  std::string unique = unique_id(id);
  if (unique != wanted) {
    if (unique == id) ++out_.id_collisions;  // unique_id() counted the numbered ones
    sink_.warning(file_, {rule.source.line, rule.source.column},
                  "rule id '" + wanted + "' already used on this page; this rule is '" + unique + "'");
  }
  rule.id = std::move(unique);
}

}  // namespace

int extract_mapping_version() { return mapping().version; }

PageRules extract_rules(const PageInput& input, support::DiagnosticSink& sink) {
  return PageExtractor(input, sink).run();
}

}  // namespace wikic::extract
