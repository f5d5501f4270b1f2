// Wikitext → Document. Two levels like cmark: lines are classified first (tables after
// Parser::doTableStuff, headings after doHeadings, lists/pre/paragraphs after
// BlockLevelPass), then each line's inline content is lexed and built (tags, links,
// doQuotes, entities). One stack of open nodes serves both levels, because HTML tags in
// real pages open before a table and close after it; recovery on that stack follows the
// HTML tree builder (Remex) that MediaWiki and browsers apply to the output.
#include "parse/parser.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <memory>

#include "parse/attribute_list_memo.hpp"
#include "parse/limits.hpp"
#include "parse/offset_warnings.hpp"
#include "support/scan.hpp"

namespace wikic::parse {

namespace {

// support/scan.hpp's scans for a span [from, to) of a text readable up to `end`: when
// the 16 bytes from `from` still lie inside the text, the part of a block before `to`
// is one load with the bytes past `to` masked off instead of a byte loop. Cells,
// segments between tokens and attribute values are mostly shorter than 16 bytes, so
// that loop ran on most calls.
#ifdef __SSE2__
// Bit k set when p[k] is one of `Cs`, or equals `c`.
template <char... Cs>
WIKIC_SCAN_INLINE unsigned block_hits(const char* p) {
  __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  __m128i hit = _mm_setzero_si128();
  ((hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v, _mm_set1_epi8(Cs)))), ...);
  return static_cast<unsigned>(_mm_movemask_epi8(hit));
}
WIKIC_SCAN_INLINE unsigned block_hits(const char* p, __m128i c) {
  __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  return static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, c)));
}
#endif

template <char... Cs>
WIKIC_SCAN_INLINE std::uint32_t scan_for(const char* base, std::uint32_t from, std::uint32_t to,
                                         std::uint32_t end) {
#ifdef __SSE2__
  for (; from + 16 <= to; from += 16)
    if (unsigned m = block_hits<Cs...>(base + from)) return from + static_cast<std::uint32_t>(__builtin_ctz(m));
  if (from < to && from + 16 <= end) {
    unsigned m = block_hits<Cs...>(base + from) & ((1u << (to - from)) - 1u);
    return m ? from + static_cast<std::uint32_t>(__builtin_ctz(m)) : to;
  }
#endif
  while (from < to && ((base[from] != Cs) && ...)) ++from;
  return from;
}

WIKIC_SCAN_INLINE std::uint32_t scan_byte(const char* base, std::uint32_t from, std::uint32_t to,
                                          std::uint32_t end, char c) {
#ifdef __SSE2__
  const __m128i needle = _mm_set1_epi8(c);
  for (; from + 16 <= to; from += 16)
    if (unsigned m = block_hits(base + from, needle)) return from + static_cast<std::uint32_t>(__builtin_ctz(m));
  if (from < to && from + 16 <= end) {
    unsigned m = block_hits(base + from, needle) & ((1u << (to - from)) - 1u);
    return m ? from + static_cast<std::uint32_t>(__builtin_ctz(m)) : to;
  }
#endif
  while (from < to && base[from] != c) ++from;
  return from;
}

// scan_byte for the long scans (a line's newline, about a hundred bytes on a rules
// page and thousands on a paragraph): 32 bytes a step, two blocks tested by one mask,
// which halves the loop's compares and branches per byte.
WIKIC_SCAN_INLINE std::uint32_t scan_byte_long(const char* base, std::uint32_t from, std::uint32_t to,
                                               std::uint32_t end, char c) {
#ifdef __SSE2__
  const __m128i needle = _mm_set1_epi8(c);
  for (; from + 32 <= to; from += 32) {
    const __m128i lo = _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(base + from)), needle);
    const __m128i hi = _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(base + from + 16)), needle);
    if (_mm_movemask_epi8(_mm_or_si128(lo, hi)) != 0) {
      const auto m = static_cast<unsigned>(_mm_movemask_epi8(lo)) |
                     (static_cast<unsigned>(_mm_movemask_epi8(hi)) << 16);
      return from + static_cast<std::uint32_t>(__builtin_ctz(m));
    }
  }
#endif
  return scan_byte(base, from, to, end, c);
}

// --- character helpers -------------------------------------------------------------

// Byte classes in one table: the name and attribute scans test every byte of every tag,
// and a lookup is cheaper than the chains of comparisons.
enum : std::uint8_t { kSpaceByte = 1, kAlphaByte = 2, kDigitByte = 4, kAttrNameByte = 8,
                      kGapByte = 32,          // space or newline: between attributes and around `=`
                      kAttrStartByte = 64,    // starts an attribute name: a name byte but `-` and `.`
                      kTagNameEndByte = 128 };  // may follow a tag name: space, `>`, `/`
constexpr std::array<std::uint8_t, 256> kByteClass = [] {
  std::array<std::uint8_t, 256> t{};
  for (unsigned char c : {' ', '\t', '\r', '\f', '\v'}) t[c] |= kSpaceByte;
  for (int c = 'a'; c <= 'z'; ++c) t[c] |= kAlphaByte | kAttrNameByte;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] |= kAlphaByte | kAttrNameByte;
  for (int c = '0'; c <= '9'; ++c) t[c] |= kDigitByte | kAttrNameByte;
  // Attribute names: Sanitizer's loose set, with every non-ASCII byte.
  for (unsigned char c : {':', '_', '-', '.'}) t[c] |= kAttrNameByte;
  for (int c = 0x80; c < 0x100; ++c) t[c] |= kAttrNameByte;
  for (int c = 0; c < 0x100; ++c) {
    if ((t[c] & kSpaceByte) || c == '\n') t[c] |= kGapByte;
    if ((t[c] & kAttrNameByte) && c != '-' && c != '.') t[c] |= kAttrStartByte;
    if ((t[c] & kSpaceByte) || c == '>' || c == '/') t[c] |= kTagNameEndByte;
  }
  return t;
}();
bool has_class(char c, std::uint8_t cls) { return (kByteClass[static_cast<unsigned char>(c)] & cls) != 0; }
bool is_space(char c) { return has_class(c, kSpaceByte); }
bool is_alpha(char c) { return has_class(c, kAlphaByte); }
bool is_digit(char c) { return has_class(c, kDigitByte); }
bool is_alnum(char c) { return has_class(c, kAlphaByte | kDigitByte); }
bool is_attribute_name_byte(char c) { return has_class(c, kAttrNameByte); }
char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool istarts_with(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i)
    if (lower(s[i]) != prefix[i]) return false;
  return true;
}

// Whether a link target starts `file:` or `image:` in any case (the File namespace and
// its alias), asked for every `[[`: four letters compared as one word with bit 0x20 set
// in each byte, which maps exactly a letter's two cases onto the lowercase one, where
// istarts_with lowered and compared byte by byte.
bool is_file_target(std::string_view s) {
  if (s.size() < 5) return false;
  const auto word = [](const char* p) {
    std::uint32_t w;
    std::memcpy(&w, p, 4);
    return w;
  };
  const std::uint32_t lowered = word(s.data()) | 0x20202020u;
  if (lowered == word("file")) return s[4] == ':';
  return lowered == word("imag") && s.size() >= 6 && (s[4] | 0x20) == 'e' && s[5] == ':';
}

// Equality of short names without a memcmp call (tag names are a few bytes).
bool same_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

// --- tag table (Sanitizer::getRecognizedTagData, MediaWiki 1.39) --------------------

enum TagFlag : std::uint8_t {
  kVoid = 1,      // never has content (br, hr, wbr)
  kBlock = 2,     // closes an open paragraph, as BlockLevelPass and the tree builder do
  kScope = 4,     // td th caption table: end tags do not reach past it (HTML "scope")
  kTablePart = 8, // td th tr caption table: matched against the HTML table only
  kFlow = 16,     // text directly inside gets paragraphs (div, center, blockquote)
};

// An open node's flags when it is no Element (Open::flags): the document and fragment
// roots are flow containers, and lists, tables and rows take no text. Kept in the entry
// when the node opens, the text tests that run at every text run and token are one bit
// test instead of a chain of kind comparisons. kNoText is above every TagFlag.
enum : std::uint8_t { kNoText = 32 };
constexpr auto kContainerFlags = [] {
  std::array<std::uint8_t, static_cast<std::size_t>(NodeKind::ExtensionTag) + 1> t{};
  t[static_cast<std::size_t>(NodeKind::Document)] = t[static_cast<std::size_t>(NodeKind::Fragment)] = kFlow;
  for (NodeKind k : {NodeKind::List, NodeKind::Table, NodeKind::TableRow}) t[static_cast<std::size_t>(k)] = kNoText;
  return t;
}();
std::uint8_t container_flags(NodeKind kind) { return kContainerFlags[static_cast<std::size_t>(kind)]; }

struct TagInfo {
  std::string_view name;
  std::uint8_t flags;
};

constexpr TagInfo kTags[] = {
    {"b", 0}, {"bdi", 0}, {"del", 0}, {"i", 0}, {"ins", 0}, {"u", 0}, {"font", 0},
    {"big", 0}, {"small", 0}, {"sub", 0}, {"sup", 0}, {"h1", kBlock}, {"h2", kBlock},
    {"h3", kBlock}, {"h4", kBlock}, {"h5", kBlock}, {"h6", kBlock}, {"cite", 0},
    {"code", 0}, {"em", 0}, {"s", 0}, {"strike", 0}, {"strong", 0}, {"tt", 0}, {"var", 0},
    {"div", kBlock | kFlow}, {"center", kBlock | kFlow}, {"blockquote", kBlock | kFlow},
    {"ol", kBlock}, {"ul", kBlock}, {"dl", kBlock}, {"table", kBlock | kScope | kTablePart},
    {"ruby", 0}, {"rb", 0}, {"rp", 0}, {"rt", 0}, {"rtc", 0}, {"p", kBlock}, {"span", 0},
    {"abbr", 0}, {"dfn", 0}, {"kbd", 0}, {"samp", 0}, {"data", 0}, {"time", 0},
    {"mark", 0}, {"q", 0}, {"bdo", 0}, {"br", kVoid}, {"wbr", kVoid}, {"hr", kVoid | kBlock},
    {"li", kBlock}, {"dt", kBlock}, {"dd", kBlock},
    {"td", kBlock | kScope | kTablePart}, {"th", kBlock | kScope | kTablePart},
    {"tr", kBlock | kTablePart}, {"caption", kBlock | kScope | kTablePart},
    {"meta", kVoid}, {"link", kVoid},
};

// A tag's index in kTags, for the tree builder's tests on named tags: open elements
// keep their index, and a test is one comparison instead of a name's.
consteval std::uint8_t tag_index(std::string_view name) {
  for (std::size_t k = 0; k < std::size(kTags); ++k)
    if (kTags[k].name == name) return static_cast<std::uint8_t>(k);
  throw "not in kTags";
}
static_assert(std::size(kTags) <= 64);  // a set of tags is a 64-bit mask
consteval std::uint64_t tag_set(std::initializer_list<std::string_view> names) {
  std::uint64_t set = 0;
  for (std::string_view n : names) set |= std::uint64_t{1} << tag_index(n);
  return set;
}

// A table of lowercase names grouped by first letter and length, so a lookup compares
// against the one or two names of that shape instead of all (every `<` in a page asks
// up to four tables, and most names asked for are in none of them).
template <std::size_t N>
struct NameIndex {
  static constexpr std::size_t kLengths = 32;  // every name is shorter than 32
  std::array<std::string_view, N> names{};
  // order[start[s]..start[s+1]) are the names of shape s = letter * kLengths + length,
  // in table order.
  std::uint8_t start[26 * kLengths + 1] = {};
  std::uint8_t order[N] = {};

  // Position of `name` (compared case-insensitively) in the table, or -1. `name` is an
  // ASCII alphanumeric run (every caller's is), so setting bit 0x20 lowers its letters
  // and keeps its digits: one instruction instead of lower()'s compare and select.
  int find(std::string_view name) const {
    if (name.empty() || name.size() >= kLengths) return -1;
    char first = static_cast<char>(name[0] | 0x20);
    if (first < 'a' || first > 'z') return -1;
    std::size_t shape = static_cast<std::size_t>(first - 'a') * kLengths + name.size();
    for (int k = start[shape]; k < start[shape + 1]; ++k) {
      std::string_view n = names[order[k]];
      std::size_t i = 1;
      while (i < n.size() && static_cast<char>(name[i] | 0x20) == n[i]) ++i;
      if (i == n.size()) return order[k];
    }
    return -1;
  }

};

template <std::size_t N>
constexpr NameIndex<N> index_names(const std::array<std::string_view, N>& names) {
  static_assert(N < 256);
  constexpr std::size_t L = NameIndex<N>::kLengths;
  NameIndex<N> index;
  index.names = names;
  std::uint8_t count[26 * L] = {};
  for (std::string_view n : names) ++count[static_cast<std::size_t>(n[0] - 'a') * L + n.size()];
  for (std::size_t s = 0; s < 26 * L; ++s)
    index.start[s + 1] = static_cast<std::uint8_t>(index.start[s] + count[s]);
  std::uint8_t fill[26 * L] = {};
  for (std::size_t k = 0; k < N; ++k) {
    std::size_t s = static_cast<std::size_t>(names[k][0] - 'a') * L + names[k].size();
    index.order[index.start[s] + fill[s]++] = static_cast<std::uint8_t>(k);
  }
  return index;
}

// Include-control tags are dropped; they are looked up with the HTML tags, one lookup per
// tag the lexer meets: indices below std::size(kTags) are kTags entries.
constexpr std::string_view kIncludeTags[] = {"noinclude", "includeonly", "onlyinclude"};
constexpr auto kMarkupTagIndex = index_names([] {
  std::array<std::string_view, std::size(kTags) + std::size(kIncludeTags)> names{};
  for (std::size_t k = 0; k < std::size(kTags); ++k) names[k] = kTags[k].name;
  for (std::size_t k = 0; k < std::size(kIncludeTags); ++k) names[std::size(kTags) + k] = kIncludeTags[k];
  return names;
}());

#if defined(__SSE2__) && defined(__x86_64__)
// kMarkupTagIndex by a perfect hash of a name's first eight bytes, for lex_tag, which
// has the name lowered in a register: the lookup is a multiply and one 16-byte compare,
// where the table by first letter and length compared against each name of that shape
// after checks lex_tag has already made.
template <std::size_t N>
struct BlockNameHash {
  static constexpr unsigned kBits = 9;
  std::uint64_t multiplier = 0;
  std::uint8_t slot[1u << kBits] = {};  // a name's index + 1; 0 for none
  // keys[k + 1] is name k zero-padded; keys[0], all zeros, equals no name's block.
  alignas(16) char keys[N + 1][16] = {};
  // prefix[n] keeps the first n bytes of a block.
  alignas(16) char prefix[17][16] = {};

  // The index of the name that is the first `size` bytes (1 to 16) of `lowered`, a block
  // of alphanumerics lowered by setting bit 0x20 and then anything; -1 if none. No name
  // is 16 bytes long, so a run cut at 16 bytes is found in none.
  int find(__m128i lowered, std::size_t size) const {
    const __m128i key =
        _mm_and_si128(lowered, _mm_load_si128(reinterpret_cast<const __m128i*>(prefix[size])));
    const auto low = static_cast<std::uint64_t>(_mm_cvtsi128_si64(key));
    const unsigned k = slot[(low * multiplier) >> (64 - kBits)];
    const __m128i name = _mm_load_si128(reinterpret_cast<const __m128i*>(keys[k]));
    return _mm_movemask_epi8(_mm_cmpeq_epi8(key, name)) == 0xFFFF ? static_cast<int>(k) - 1 : -1;
  }
};

template <std::size_t N>
consteval BlockNameHash<N> hash_names(const std::array<std::string_view, N>& names) {
  static_assert(N < 255);
  BlockNameHash<N> h;
  std::uint64_t low[N] = {};
  for (std::size_t k = 0; k < N; ++k) {
    if (names[k].empty() || names[k].size() >= 16) throw "names must be 1 to 15 bytes long";
    for (std::size_t i = 0; i < names[k].size(); ++i) {
      h.keys[k + 1][i] = names[k][i];
      if (i < 8) low[k] |= std::uint64_t{static_cast<unsigned char>(names[k][i])} << (8 * i);
    }
  }
  for (std::size_t n = 0; n <= 16; ++n)
    for (std::size_t i = 0; i < n; ++i) h.prefix[n][i] = static_cast<char>(0xFF);
  // Odd multipliers from splitmix64 until one sends every name to its own slot.
  std::uint64_t seed = 0x9E3779B97F4A7C15u;
  for (int attempt = 0; attempt < 10000; ++attempt) {
    seed += 0x9E3779B97F4A7C15u;
    std::uint64_t m = seed;
    m = (m ^ (m >> 30)) * 0xBF58476D1CE4E5B9u;
    m = (m ^ (m >> 27)) * 0x94D049BB133111EBu;
    m = (m ^ (m >> 31)) | 1u;
    std::uint8_t slot[1u << BlockNameHash<N>::kBits] = {};
    bool clash = false;
    for (std::size_t k = 0; k < N && !clash; ++k) {
      std::uint8_t& s = slot[(low[k] * m) >> (64 - BlockNameHash<N>::kBits)];
      if (s != 0) clash = true;
      s = static_cast<std::uint8_t>(k + 1);
    }
    if (clash) continue;
    h.multiplier = m;
    for (std::size_t s = 0; s < (1u << BlockNameHash<N>::kBits); ++s) h.slot[s] = slot[s];
    return h;
  }
  throw "no multiplier separates the names";
}

constexpr auto kMarkupTagHash = hash_names(kMarkupTagIndex.names);
#endif

// Extension tags are opaque to this stage (they are strip markers in MediaWiki by now);
// `pre` and `nowiki` become literal text.
constexpr auto kExtensionTags = index_names(std::array<std::string_view, 29>{
    "nowiki", "pre", "ref", "references", "gallery", "math", "syntaxhighlight", "source",
    "poem", "section", "translate", "tvar", "languages", "templatedata", "indicator",
    "categorytree", "inputbox", "timeline", "score", "graph", "chem", "ce", "hiero",
    "charinsert", "imagemap", "mapframe", "maplink", "templatestyles", "tabber"});

// The first two letters of the extension tag names, a bit per second letter for each
// first: find_regions meets every `<` of the page, and this rejects the HTML tags (span,
// li, hr, div…) before their name is read.
constexpr std::array<std::uint32_t, 26> kExtensionTagStarts = [] {
  std::array<std::uint32_t, 26> starts{};
  for (std::string_view n : kExtensionTags.names) starts[n[0] - 'a'] |= 1u << (n[1] - 'a');
  return starts;
}();

// Whether the `<` at i may open a region: a comment starts `<!`, an extension tag with
// one of kExtensionTagStarts. Nearly every `<` find_regions meets is an HTML tag that
// fails this, and is passed over inside scan_region_start's block, without a trip
// through the loop that handles the regions. True near the end of the text, where the
// full checks decide.
inline bool may_open_region(const char* base, std::uint32_t i, std::uint32_t n) {
  if (i + 2 >= n || base[i + 1] == '!') return true;
  const unsigned l0 = static_cast<unsigned char>(base[i + 1] | 0x20) - 'a';
  const unsigned l1 = static_cast<unsigned char>(base[i + 2] | 0x20) - 'a';
  return l0 < 26 && l1 < 26 && ((kExtensionTagStarts[l0] >> l1) & 1u);
}

// Whether the `<`, `{` or `}` at p may open or close a region for find_regions: a `<`
// that may_open_region() lets pass, or the first of two braces.
inline bool may_bound_region(const char* base, std::uint32_t p, std::uint32_t end) {
  const char c = base[p];
  return c == '<' ? may_open_region(base, p, end) : p + 1 < end && base[p + 1] == c;
}

// The next byte in [from, to) that may_bound_region() accepts (comments and extension
// tags start `<!` and `<letter`; templates `{{`, and `}}` ends them). A block's mask has
// every `<`, `{` and `}`, and its bits are tested where they stand, as the byte loop
// near the text's end tests its bytes: nearly every `<` of a page is an HTML start or end
// tag (span, li, div, `</`…) and nearly every brace a table's `{|` or `|}`, and returned
// to the caller, each would leave the scan and enter it again at the next byte. Bytes
// after a hit are read up to `end`, past `to`.
WIKIC_SCAN_INLINE std::uint32_t scan_region_start(const char* base, std::uint32_t from, std::uint32_t to,
                                                  std::uint32_t end) {
#ifdef __SSE2__
  const auto block = [base](std::uint32_t at) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + at));
    return _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('<')),
                        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('{')), _mm_cmpeq_epi8(v, _mm_set1_epi8('}'))));
  };
  const auto hits = [&block](std::uint32_t at) { return static_cast<unsigned>(_mm_movemask_epi8(block(at))); };
  // The first hit of mask `m` (of the block or blocks at `at`) that may open or close a
  // region, or `none`.
  const auto first_hit = [base, end](std::uint32_t at, unsigned m, std::uint32_t none) {
    for (; m != 0; m &= m - 1) {
      const std::uint32_t p = at + static_cast<std::uint32_t>(__builtin_ctz(m));
      if (may_bound_region(base, p, end)) return p;
    }
    return none;
  };
  // Both bounds of the loops in one (`to` is never past `end`): a block must end before
  // `to`, and its last byte's successor be readable. Two blocks a step while they fit,
  // tested by one mask (as in scan_byte_long): the scan crosses the whole page, with a
  // few hundred bytes between the hits that stop it.
  const std::uint32_t last = std::min(to, end - 1);
  for (; from + 32 <= last; from += 32) {
    const __m128i lo = block(from), hi = block(from + 16);
    if (_mm_movemask_epi8(_mm_or_si128(lo, hi)) != 0) {
      const auto m = static_cast<unsigned>(_mm_movemask_epi8(lo)) |
                     (static_cast<unsigned>(_mm_movemask_epi8(hi)) << 16);
      if (const std::uint32_t p = first_hit(from, m, to); p < to) return p;
    }
  }
  for (; from + 16 <= last; from += 16)
    if (unsigned m = hits(from))
      if (const std::uint32_t p = first_hit(from, m, to); p < to) return p;
  if (from < to && from + 17 <= end) return first_hit(from, hits(from) & ((1u << (to - from)) - 1u), to);
#endif
  for (; from < to; ++from) {
    const char c = base[from];
    if ((c == '<' || c == '{' || c == '}') && may_bound_region(base, from, end)) break;
  }
  return from;
}

// --- atomic regions ----------------------------------------------------------------
// Comments, ext tags, unexpanded templates and semantic markers are found in one
// pre-pass; line splitting and every scanner jump over them, so a `|` or a newline
// inside a template never changes the block structure.

enum class RegionKind : std::uint8_t { Comment, Template, Nowiki, Pre, Extension, Semantic };

// 32 bytes, a power of two: the scanners index the regions and compare against their
// count all through lex and line splitting, and at 48 bytes (the tag as a string_view)
// each of those paid a multiply or a division.
struct Region {
  std::uint32_t begin = 0, end = 0;
  std::uint32_t index = 0;              // semantic ref index
  std::uint32_t open_end = 0;           // end of the opening tag (ext tags)
  std::uint32_t close_begin = 0;        // start of the closing tag (ext tags)
  RegionKind kind = RegionKind::Comment;
  std::uint8_t tag = 0;                 // ext tag: index in kExtensionTags
  bool unclosed = false;
  std::uint8_t padding[9] = {};
};
static_assert(sizeof(Region) == 32);

// Image options recognised by Parser::makeImage (magic words img_*), English forms.
// Inlined into its one caller, as GCC chose to until the unit grew past its limit.
__attribute__((always_inline)) inline bool is_image_option(std::string_view o) {
  while (!o.empty() && is_space(o.front())) o.remove_prefix(1);
  while (!o.empty() && is_space(o.back())) o.remove_suffix(1);
  // Sizes first: they are the most common option on rules pages, and no word or
  // prefix below is made of digits, `x` and spaces, so the order changes no answer.
  if (o.size() > 2 && o[o.size() - 2] == 'p' && o[o.size() - 1] == 'x') {
    std::string_view d = o.substr(0, o.size() - 2);
    bool ok = true;
    int x = 0;
    for (char c : d) {
      if (c == 'x') ++x;
      else if (!is_digit(c) && c != ' ') ok = false;
    }
    if (ok && x <= 1 && d != "x") return true;
  }
  // MediaWiki's words and prefixes, grouped by first byte: a file link's caption is
  // asked too, and comparing it against all 35 cost more than the rest of the part.
  // same_name, not ==: string_view's equality called memcmp for each word, and `left`
  // is a quarter of a rules page's options.
  const auto is = [o](std::string_view w) { return same_name(o, w); };
  const auto starts = [o](std::string_view p) {
    return o.size() >= p.size() && same_name(o.substr(0, p.size()), p);
  };
  if (o.empty()) return false;
  switch (o.front()) {
    case 'a': return starts("alt=");
    case 'b': return is("border") || is("baseline") || is("bottom");
    case 'c': return is("center") || is("centre") || starts("class=");
    case 'e': return starts("end=");
    case 'f': return is("frame") || is("framed") || is("frameless");
    case 'l': return is("left") || starts("link=") || starts("lang=") || starts("loop") ||
                     starts("lossy=");
    case 'm': return is("middle") || starts("manualthumb=") || starts("muted");
    case 'n': return is("none");
    case 'p': return starts("page=");
    case 'r': return is("right");
    case 's': return is("sub") || is("super") || is("sup") || starts("start=");
    case 't': return is("thumb") || is("thumbnail") || is("top") || is("text-top") ||
                     is("text-bottom") || starts("thumb=") || starts("thumbnail=");
    case 'u': return is("upright") || starts("upright=");
    default: return false;
  }
}

constexpr std::string_view kUrlProtocols[] = {
    "http://", "https://", "ftp://", "ftps://", "sftp://", "irc://", "ircs://", "news:",
    "mailto:", "gopher://", "telnet://", "nntp://", "worldwind://", "svn://", "git://",
    "mms://", "ssh://", "tel:", "sms:", "urn:", "xmpp:", "geo:", "magnet:", "bitcoin:",
    "redis://", "//"};

std::size_t url_protocol_length(std::string_view s) {
  if (s.empty() || (!is_alpha(s[0]) && s[0] != '/')) return 0;
  for (std::string_view p : kUrlProtocols)
    if (istarts_with(s, p)) return p.size();
  return 0;
}

// --- inline tokens -----------------------------------------------------------------

// Markup only: the text between two tokens is no token (inline_segment appends it).
enum class Tok : std::uint8_t { Quote, StartTag, EndTag, Link, File, ExtLink, Entity, Region, Skip };

enum QuoteOp : std::uint8_t { kNone = 0, kOpenB, kOpenI, kCloseB, kCloseI };

// 32 bytes: a page makes about 6 K of them, each written once and copied once.
struct Token {
  Tok kind = Tok::Skip;
  bool self_closing = false;
  std::uint8_t tag = 0;             // StartTag, EndTag: index in kTags
  std::uint8_t ops[4] = {kNone, kNone, kNone, kNone};
  std::uint32_t b = 0, e = 0;       // whole token
  std::uint32_t ib = 0, ie = 0;     // inner: attributes of a tag, link text/caption, ext text;
                                    // for a Region token, ib is the region's index
  std::uint32_t tb = 0, te = 0;     // link target / URL
};
static_assert(std::size(kTags) <= 256 && sizeof(Token) == 32);

// The tokens of one segment. The lexer writes each token (about 6 K per seed page) in
// place through a cursor it keeps in a register (cursor() is the next free entry,
// commit() sets the list's end): a token's byte-sized fields may alias anything, so
// through a slot()/keep() pair the list's size and data were loaded again after each
// token and the size stored back. Built on the stack and copied in, a token cost two
// more loads and stores and the spills around them; only the growth is out of line.
// The entry is not cleared: it may hold an earlier token, and the lexer sets every field
// that is read for the kind it writes (the quote ops only a Quote's, tb…ie only a tag's
// or a link's), which spares a 32-byte store per token.
class TokenList {
public:
  void clear() { size_ = 0; }
  std::size_t size() const { return size_; }
  Token& operator[](std::size_t k) { return store_[k]; }
  const Token* begin() const { return store_.data(); }
  const Token* end() const { return store_.data() + size_; }
  Token* cursor() { return store_.data() + size_; }
  Token* room_end() { return store_.data() + capacity_; }
  // Makes room past `at` (the cursor, == room_end()); returns the cursor in the new store.
  __attribute__((noinline)) Token* grow_at(Token* at) {
    size_ = index_of(at);
    grow();
    return cursor();
  }
  std::size_t index_of(const Token* at) const { return static_cast<std::size_t>(at - store_.data()); }
  void commit(const Token* at) { size_ = index_of(at); }
  void swap(TokenList& other) noexcept {
    store_.swap(other.store_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
  }

private:
  __attribute__((noinline)) void grow() {
    store_.resize(store_.size() * 2 + 64);
    capacity_ = store_.size();
  }
  std::vector<Token> store_;  // [0, size_) are the tokens; the rest is room
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;  // store_.size(), kept to spare the division
};

// 16 bytes, so that the stack's size is a shift and an entry two stores: an element's
// name is kTags[tag_index].name, and a pending row's attributes are found again from its
// start (after the `|-…`) when the row is opened, rather than kept in every entry.
struct Open {
  NodeId node;
  NodeKind kind;
  std::uint8_t flags = 0;      // an Element's TagFlags, else container_flags(kind)
  std::uint8_t tag_index = 0;  // Elements only: the tag's index in kTags
  // Tables only: a `|-` seen but not yet given a cell. doTableStuff emits <tr> when the
  // first cell comes, so a row without cells leaves no trace in MediaWiki's output.
  bool row_pending = false;
  std::uint32_t row_b = 0, row_e = 0;
};
static_assert(sizeof(Open) == 16);

struct ListLevel {
  std::size_t index;  // stack index of the List
  NodeId node;
  char marker;        // `;` normalised to `:` (BlockLevelPass compares them equal)
};

// The working vectors of a Builder. A page makes one nested Builder per semantic
// parameter (over a hundred on the seed page), one after another: they share the
// Scratch of their depth (`nested`), so each vector is allocated once per page rather
// than once per parameter. A Builder clears what it reads before using it.
struct Scratch {
  std::vector<Region> regions, semantic_regions, outer_regions;
  std::vector<Open> stack;
  std::vector<ListLevel> lists;
  // One per inline depth (inline_segment goes no deeper than kMaxInlineDepth): fixed, so
  // a depth's tokens stay in place while a link's text is built one level down.
  std::array<TokenList, kMaxInlineDepth> token_pool;
  std::array<std::vector<std::pair<std::uint32_t, std::uint32_t>>, kMaxInlineDepth> pair_pool;
  std::vector<std::uint32_t> link_opens;
  std::vector<std::size_t> quote_scratch;
  AttributeListMemo attribute_lists;
  std::unique_ptr<Scratch> nested;
  Scratch& next() {
    if (!nested) {
      nested = std::make_unique<Scratch>();
      nested->attribute_lists.start_page();  // a page's Builder started the depths above
    }
    return *nested;
  }
};

class Builder {
public:
  /// `param` and `in` name the semantic parameter a nested Builder parses (its
  /// warnings say which); both are null for the page itself.
  Builder(Document& doc, std::uint16_t source, NodeId root, support::DiagnosticSink& sink,
          const ParseOptions& options, const std::vector<SemanticNodeRef>* semantic,
          support::Span diag_anchor, const SemanticParam* param, const SemanticNodeRef* in,
          std::size_t* diagnostic_count, Scratch& scratch)
      : doc_(doc), src_(source), text_(doc.source(source)), sink_(sink), opt_(options),
        semantic_(semantic), diag_anchor_(diag_anchor), context_param_(param), context_ref_(in),
        diagnostic_count_(diagnostic_count), scratch_(scratch), regions_(scratch.regions),
        stack_(scratch.stack), lists_(scratch.lists), token_pool_(scratch.token_pool),
        pair_pool_(scratch.pair_pool), link_opens_(scratch.link_opens),
        quote_scratch_(scratch.quote_scratch) {
    regions_.clear();
    stack_.clear();
    lists_.clear();
    // Room for the deepest stack can_open() allows: open() then pushes without a
    // capacity check (reserved once per Scratch, not per Builder).
    stack_.reserve(kMaxNestingDepth + 1);
    stack_.push_back({root, doc.node(root).kind, container_flags(doc.node(root).kind)});
    // The page's Builder starts the memos of every depth: a nested Builder keeps the
    // lists its depth met in the page's earlier parameters.
    if (!param) {
      for (Scratch* s = &scratch; s; s = s->nested.get()) s->attribute_lists.start_page();
    }
    scratch.attribute_lists.use(text_);
  }

  /// Warnings go to `f` by offset instead of to the sink by line:column.
  void report_offsets_to(const OffsetWarning* f) { at_offset_ = f; }
  void borrow_texts(bool borrow) { borrow_texts_ = borrow; }

  void run() {
    find_regions();
    std::uint32_t pos = 0;
    const auto n = static_cast<std::uint32_t>(text_.size());
    while (pos <= n) {
      if (exhausted_) {
        if (pos < n) doc_.add_node(NodeKind::Text, src_, {pos, n}, stack_.front().node);
        break;
      }
      // A cell line's end comes from the scan for its cells; every other line is
      // classified from its end.
      const std::size_t table = innermost(NodeKind::Table);
      std::uint32_t le = table != 0 ? cell_line(table, pos) : kUnknownEnd;
      if (le == kUnknownEnd) {
        le = line_end(pos);
        process_line(pos, le, table);
      }
      if (le >= n) break;
      newline(le);
      pos = le + 1;
    }
    const auto end = static_cast<std::uint32_t>(text_.size());
    while (stack_.size() > 1) close_top(end, true);
    doc_.mutable_node(stack_.front().node).span.end = end;
  }

private:
  Document& doc_;
  std::uint16_t src_;
  std::string_view text_;
  support::DiagnosticSink& sink_;
  const ParseOptions& opt_;
  const std::vector<SemanticNodeRef>* semantic_;
  support::Span diag_anchor_;
  const SemanticParam* context_param_;
  const SemanticNodeRef* context_ref_;
  std::size_t* diagnostic_count_;
  const OffsetWarning* at_offset_ = nullptr;
  bool borrow_texts_ = false;  // ParseInput::borrow_texts: semantic names and values are viewed
  Scratch& scratch_;

  std::vector<Region>& regions_;
  std::vector<Open>& stack_;
  std::vector<ListLevel>& lists_;
  std::size_t pre_index_ = 0;
  NodeId pre_node_ = kNoNode;
  bool depth_reported_ = false;
  // Whether the current line holds a block-level tag, asked only by paragraph and pre
  // decisions: computed on first use, since table lines (most lines of a rules page) are
  // block-level by themselves and never need the scan.
  enum : std::uint8_t { kBlockyUnknown, kBlockyNo, kBlockyYes };
  std::uint8_t line_blocky_ = kBlockyNo;
  std::uint32_t line_b_ = 0, line_e_ = 0;
  bool line_blocky() {
    if (line_blocky_ == kBlockyUnknown) line_blocky_ = has_block_tag(line_b_, line_e_) ? kBlockyYes : kBlockyNo;
    return line_blocky_ == kBlockyYes;
  }
  bool exhausted_ = false;
  std::size_t inline_depth_ = 0;
  std::array<TokenList, kMaxInlineDepth>& token_pool_;
  std::array<std::vector<std::pair<std::uint32_t, std::uint32_t>>, kMaxInlineDepth>& pair_pool_;
  std::vector<std::uint32_t>& link_opens_;
  mutable std::size_t region_hint_ = 0;
  std::vector<std::size_t>& quote_scratch_;  // plan_quotes's list, kept to avoid a malloc per line
  bool lexed_quote_ = false;  // the last lex() produced a Quote token (most cells have none)
  // The last lex()'s quote runs that count as italic and as bold (doQuotes's balance
  // counts), kept as each run is lexed rather than in a second pass over the runs.
  std::uint32_t quote_italics_ = 0, quote_bolds_ = 0;

  // --- diagnostics ---

  // Cold and out of line: a page warns a few dozen times, and the string building
  // inlined into the hot paths crowded out the inlining GCC does there.
  __attribute__((cold, noinline)) void warn(std::uint32_t offset, const std::string& message) {
    if (*diagnostic_count_ >= kMaxDiagnostics) return;
    if (++*diagnostic_count_ == kMaxDiagnostics) {
      emit_warning(src_ == 0 ? offset : diag_anchor_.begin,
                   "more than " + std::to_string(kMaxDiagnostics) +
                       " diagnostics on this page; the rest are suppressed");
      return;
    }
    if (src_ == 0) {
      emit_warning(offset, message);
    } else {
      // Built only here: most parameters never warn.
      std::string context = context_param_ && context_ref_
                                ? "in parameter '" + std::string(context_param_->name) +
                                      "' of semantic template '" + std::string(context_ref_->name) + "'"
                                : std::string();
      emit_warning(diag_anchor_.begin, message + " (" + context + ")");
    }
  }

  // `offset` is in source 0 (the page text).
  void emit_warning(std::uint32_t offset, std::string message) {
    if (at_offset_)
      (*at_offset_)(offset, std::move(message));
    else
      sink_.warning(opt_.page, doc_.position(offset), std::move(message));
  }

  // --- regions ---

  void find_regions() {
    const std::string_view t = text_;
    const auto n = static_cast<std::uint32_t>(t.size());
    // Semantic markers first: they are authoritative spans from the expander.
    std::size_t next_semantic = 0;
    if (semantic_) {
      std::uint32_t last = 0;
      for (std::size_t k = 0; k < semantic_->size(); ++k) {
        const auto& m = (*semantic_)[k].marker;
        if (m.begin < last || m.end <= m.begin || m.end > n) {
          warn(std::min(m.begin, n), "semantic template marker out of order or out of range; ignored");
          continue;
        }
        Region r;
        r.begin = m.begin;
        r.end = m.end;
        r.kind = RegionKind::Semantic;
        r.index = static_cast<std::uint32_t>(k);
        regions_.push_back(r);
        last = m.end;
      }
    }
    std::vector<Region>& semantic_regions = scratch_.semantic_regions;
    semantic_regions.clear();
    semantic_regions.swap(regions_);

    struct BraceFrame {
      std::uint32_t pos;
      std::uint32_t count;
    };
    std::vector<BraceFrame> braces;
    // Names whose closing tag is known to be absent after some offset: keeps unclosed
    // `<ref>` spam linear instead of rescanning the rest of the page each time.
    std::vector<std::pair<std::string_view, std::uint32_t>> no_close;

    // The markers through a local pointer and count, and `limit` (the next marker's
    // start) kept from one byte met to the next: read through the vector, they were
    // reloaded and the size divided again at every `<` and brace of the page, since
    // pushing a region may, for all the compiler knows, change them.
    const Region* const semantic = semantic_regions.data();
    const std::size_t semantic_count = semantic_regions.size();
    std::uint32_t limit = semantic_count > 0 ? semantic[0].begin : n;
    std::uint32_t i = 0;
    while (i < n) {
      if (next_semantic < semantic_count && semantic[next_semantic].begin <= i) {
        const Region& s = semantic[next_semantic++];
        limit = next_semantic < semantic_count ? semantic[next_semantic].begin : n;
        if (s.begin == i || s.end > i) {
          regions_.push_back(s);
          i = std::max(i, s.end);
          continue;
        }
      }
      // Skip quickly to the next byte that can open or close a region.
      i = scan_region_start(t.data(), i, limit, n);
      if (i >= limit) {
        if (i >= n) break;
        continue;
      }
      char c = t[i];
      if (c == '<' && i < limit) {
        if (i + 1 < n && t[i + 1] == '!' && text_at(i, "<!--")) {
          std::size_t close = t.find("-->", i + 4);
          Region r;
          r.begin = i;
          r.kind = RegionKind::Comment;
          if (close == std::string_view::npos) {
            r.end = n;
            r.unclosed = true;
          } else {
            r.end = static_cast<std::uint32_t>(close + 3);
          }
          regions_.push_back(r);
          i = r.end;
          continue;
        }
        if (std::uint32_t e = try_extension_tag(i, no_close); e != 0) {
          i = e;
          continue;
        }
        ++i;
        continue;
      }
      if (opt_.opaque_templates && (c == '{' || c == '}')) {
        std::uint32_t run = 1;
        while (i + run < limit && t[i + run] == c) ++run;
        if (run >= 2 && c == '{') {
          braces.push_back({i, run});
        } else if (run >= 2 && c == '}') {
          std::uint32_t left = run;
          std::uint32_t at = i;
          while (left >= 2 && !braces.empty()) {
            BraceFrame& f = braces.back();
            std::uint32_t take = (f.count >= 3 && left >= 3) ? 3 : 2;
            f.count -= take;
            left -= take;
            at += take;
            Region r;
            r.begin = f.pos + f.count;
            r.end = at;
            r.kind = RegionKind::Template;
            regions_.push_back(r);
            if (f.count < 2) braces.pop_back();
          }
        }
        i += run;
        continue;
      }
      ++i;
    }
    // Keep only outermost regions: nested template matches and comments inside
    // templates are part of their enclosing region.
    std::sort(regions_.begin(), regions_.end(), [](const Region& a, const Region& b) {
      return a.begin != b.begin ? a.begin < b.begin : a.end > b.end;
    });
    std::vector<Region>& outer = scratch_.outer_regions;
    outer.clear();
    outer.reserve(regions_.size() + 1);  // and the sentinel
    for (const Region& r : regions_) {
      if (!outer.empty() && r.begin < outer.back().end) continue;
      outer.push_back(r);
    }
    regions_.swap(outer);
    for (const Region& r : regions_)
      if (r.unclosed && r.kind == RegionKind::Comment)
        warn(r.begin, "<!-- opened here is never closed; the rest of the page is a comment");
    // A sentinel past every offset ends the list: the scanners step through the regions
    // at every markup byte they meet, and need no test of the list's end.
    Region sentinel;
    sentinel.begin = sentinel.end = 0xFFFFFFFFu;
    regions_.push_back(sentinel);
  }

  // Recognises `<name attrs>…</name>` for an extension tag at i and records it;
  // returns the end offset, or 0 if there is none (then `<` is ordinary text).
  std::uint32_t try_extension_tag(std::uint32_t i,
                                  std::vector<std::pair<std::string_view, std::uint32_t>>& no_close) {
    const std::string_view t = text_;
    if (i + 2 >= t.size()) return 0;
    // Setting bit 0x20 maps exactly the ASCII letters into a…z.
    const char l0 = static_cast<char>(t[i + 1] | 0x20), l1 = static_cast<char>(t[i + 2] | 0x20);
    if (l0 < 'a' || l0 > 'z' || l1 < 'a' || l1 > 'z' || !((kExtensionTagStarts[l0 - 'a'] >> (l1 - 'a')) & 1u))
      return 0;
    std::uint32_t j = i + 1;
    while (j < t.size() && is_alnum(t[j])) ++j;
    std::string_view name = t.substr(i + 1, j - i - 1);
    int known = kExtensionTags.find(name);
    if (known < 0) return 0;
    std::string_view canon = kExtensionTags.names[static_cast<std::size_t>(known)];
    if (j < t.size() && !(is_space(t[j]) || t[j] == '>' || t[j] == '/' || t[j] == '\n')) return 0;
    std::size_t gt = t.find('>', j);
    if (gt == std::string_view::npos) return 0;
    Region r;
    r.begin = i;
    r.open_end = static_cast<std::uint32_t>(gt + 1);
    r.tag = static_cast<std::uint8_t>(known);
    r.kind = canon == "nowiki" ? RegionKind::Nowiki
             : canon == "pre"  ? RegionKind::Pre
                               : RegionKind::Extension;
    if (t[gt - 1] == '/') {  // <ref name="x" />
      r.end = r.close_begin = r.open_end;
      regions_.push_back(r);
      return r.end;
    }
    for (auto& [nm, after] : no_close)
      if (nm == canon && after <= r.open_end) return 0;
    // Find `</name\s*>` case-insensitively.
    std::size_t k = r.open_end;
    while ((k = t.find("</", k)) != std::string_view::npos) {
      if (istarts_with(t.substr(k + 2), canon)) {
        std::size_t m = k + 2 + canon.size();
        while (m < t.size() && is_space(t[m])) ++m;
        if (m < t.size() && t[m] == '>') {
          r.close_begin = static_cast<std::uint32_t>(k);
          r.end = static_cast<std::uint32_t>(m + 1);
          regions_.push_back(r);
          return r.end;
        }
      }
      k += 2;
    }
    no_close.emplace_back(canon, r.open_end);
    return 0;
  }

  // First region whose end is after `pos`. Scans move forward through the page, so the
  // previous answer or the one after it is almost always right; binary search otherwise.
  // The hint's checks inline, the search out of line: most calls are answered by the
  // hint, and as one function every call paid for the search's frame.
  // The hint is never past the sentinel, whose end is after every offset: neither it
  // nor the one after a region before it needs a test against the list's end.
  __attribute__((always_inline)) std::size_t region_at_or_after(std::uint32_t pos) const {
    std::size_t h = region_hint_;
    if (h == 0 || regions_[h - 1].end <= pos) {
      if (regions_[h].end > pos) return h;
      if (regions_[h + 1].end > pos) return region_hint_ = h + 1;
    }
    return search_region(pos);
  }
  __attribute__((noinline)) std::size_t search_region(std::uint32_t pos) const {
    auto it = std::upper_bound(regions_.begin(), regions_.end(), pos,
                               [](std::uint32_t p, const Region& r) { return p < r.end; });
    return region_hint_ = static_cast<std::size_t>(it - regions_.begin());
  }

  std::uint32_t text_end() const { return static_cast<std::uint32_t>(text_.size()); }

  // True if the text at `i` starts with `s` (a few bytes; no memcmp call).
  bool text_at(std::uint32_t i, std::string_view s) const {
    if (i > text_.size() || text_.size() - i < s.size()) return false;
    for (std::size_t k = 0; k < s.size(); ++k)
      if (text_[i + k] != s[k]) return false;
    return true;
  }

  // First occurrence of `needle` in text_[from, to), or `to`: a scan for its first byte,
  // the rest compared in place (std::string_view::find calls memcmp at every candidate).
  std::uint32_t find_in(std::uint32_t from, std::uint32_t to, std::string_view needle) const {
    const char* base = text_.data();
    const auto m = static_cast<std::uint32_t>(needle.size());
    while (from + m <= to) {
      const std::uint32_t last = to - m + 1;  // candidates start before this
      std::uint32_t h = scan_byte(base, from, last, text_end(), needle[0]);
      if (h >= last) return to;
      std::size_t k = 1;
      while (k < m && base[h + k] == needle[k]) ++k;
      if (k == m) return h;
      from = h + 1;
    }
    return to;
  }

  // End of the line starting at pos: the next newline that is not inside a region.
  __attribute__((always_inline)) std::uint32_t line_end(std::uint32_t pos) const {
    const auto n = static_cast<std::uint32_t>(text_.size());
    std::size_t r = region_at_or_after(pos);
    std::uint32_t from = pos;
    for (;;) {
      std::uint32_t nl = scan_byte_long(text_.data(), from, n, n, '\n');
      if (nl >= n) return n;
      while (regions_[r].end <= nl) ++r;
      if (regions_[r].begin < nl) {
        from = regions_[r].end;
        if (from >= n) return n;
        continue;
      }
      return nl;
    }
  }

  // Next offset in [from, to) where `c` occurs outside regions, or `to`.
  std::uint32_t find_outside(std::uint32_t from, std::uint32_t to, std::string_view needle) const {
    std::size_t r = region_at_or_after(from);
    std::uint32_t i = from;
    while (i < to) {
      std::uint32_t h = find_in(i, to, needle);
      if (h >= to) return to;
      while (regions_[r].end <= h) ++r;
      if (regions_[r].begin <= h) {
        i = regions_[r].end;
        continue;
      }
      return h;
    }
    return to;
  }

  // --- the stack ---

  NodeId top() const { return stack_.back().node; }
  NodeKind top_kind() const { return stack_.back().kind; }

  // The limits are far from every real page: the common answer is inline, the
  // reporting out of line.
  // exhausted_ is only ever set once the arena holds kMaxNodes nodes (here or in a
  // nested Builder on the same Document), and the arena never shrinks: the size test
  // alone keeps an exhausted Builder off the fast path, which spares a load and a branch
  // per node.
  bool can_open() {
    if (doc_.size() < kMaxNodes && stack_.size() < kMaxNestingDepth) [[likely]]
      return true;
    return can_open_at_limit();
  }
  __attribute__((noinline)) bool can_open_at_limit() {
    if (exhausted_) return false;
    if (doc_.size() >= kMaxNodes) {
      exhausted_ = true;
      warn(0, "node limit (" + std::to_string(kMaxNodes) +
                  ") reached; the rest of the page is kept as text");
      return false;
    }
    if (stack_.size() >= kMaxNestingDepth) {
      if (!depth_reported_) {
        depth_reported_ = true;
        warn(0, "nesting deeper than " + std::to_string(kMaxNestingDepth) +
                    " levels; deeper markup is kept as text");
      }
      return false;
    }
    return true;
  }

  NodeId add_leaf(NodeKind kind, std::uint32_t b, std::uint32_t e) {
    if (doc_.size() >= kMaxNodes) [[unlikely]] {  // exhausted_ implies this, see can_open
      can_open_at_limit();
      return kNoNode;
    }
    return doc_.add_node(kind, src_, {b, e}, top());
  }

  NodeId open(NodeKind kind, std::uint32_t b, std::uint32_t e) {
    if (!can_open()) return kNoNode;
    NodeId id = doc_.add_node(kind, src_, {b, e}, top());
    push_open({id, kind, container_flags(kind)});
    return id;
  }
  NodeId open_element(std::uint8_t tag, std::uint32_t b, std::uint32_t e) {
    if (!can_open()) return kNoNode;
    NodeId id = doc_.add_node(NodeKind::Element, src_, {b, e}, top());
    doc_.mutable_node(id).name = kTags[tag].name;
    push_open({id, NodeKind::Element, kTags[tag].flags, tag});
    return id;
  }
  // can_open() keeps the stack below kMaxNestingDepth and the constructor reserved room
  // for that: telling the compiler so drops push_back's reallocation path.
  __attribute__((always_inline)) void push_open(const Open& o) {
    if (stack_.size() >= kMaxNestingDepth + 1) __builtin_unreachable();
    if (stack_.size() == stack_.capacity()) __builtin_unreachable();
    stack_.push_back(o);
  }

  // Closes the top node at `end`; `implicit` means its own end markup never came.
  void close_top(std::uint32_t end, bool implicit) {
    const Open& o = stack_.back();
    Node& n = doc_.mutable_node(o.node);
    n.span.end = std::max({n.span.end, end, n.span.begin});
    if (implicit) {
      n.implicitly_closed = true;
      if ((o.kind == NodeKind::Element && !(o.flags & kVoid)) || o.kind == NodeKind::Table)
        warn_never_closed(o, n);
    }
    if (o.node == pre_node_) pre_node_ = kNoNode;
    stack_.pop_back();
  }

  // Out of line: inlined, the message building made every close_top save and restore
  // six registers, for a warning a page gives a few times.
  __attribute__((cold, noinline)) void warn_never_closed(const Open& o, const Node& n) {
    if (o.kind == NodeKind::Element)
      warn(n.span.begin, "<" + std::string(kTags[o.tag_index].name) + "> opened here is never closed");
    else
      warn(n.span.begin, "{| opened here is never closed");
  }

  // Pops everything above index i (recovered closes), then i itself.
  void pop_to(std::size_t i, std::uint32_t at, bool implicit_self) {
    while (stack_.size() > i + 1) close_top(at, true);
    if (stack_.size() == i + 1 && i > 0) close_top(at, implicit_self);
  }
  __attribute__((always_inline)) void pop_above(std::size_t i, std::uint32_t at) {
    while (stack_.size() > i + 1) close_top(at, true);
  }

  // Open::flags holds kFlow for the roots and flow elements, kNoText for the containers
  // that take no text (container_flags): the tests read no kind.
  bool is_flow(const Open& o) const { return (o.flags & kFlow) != 0; }
  bool accepts_text(const Open& o) const { return (o.flags & (+kFlow | +kNoText)) == 0; }

  // BlockLevelPass wraps a text line in <p> only when the line holds no block-level
  // tag (its openMatch/closeMatch test); table lines always hold one after doTableStuff.
  void ensure_inline_container(std::uint32_t at) {
    if (is_flow(stack_.back()) && !line_blocky()) open(NodeKind::Paragraph, at, at);
  }

  void close_paragraph(std::uint32_t at) {
    if (top_kind() == NodeKind::Paragraph) close_top(at, false);
  }

  // Inline, with the rarer containers out of line: the text between two tokens is
  // appended for most tokens of a page, and the call cost more than the append.
  __attribute__((always_inline)) void append_text(std::uint32_t b, std::uint32_t e) {
    if (b >= e || exhausted_) return;
    // Where text is accepted there is no paragraph to open either (accepts_text excludes
    // flow containers), so only the other containers need to know if the text is blank.
    if (!accepts_text(stack_.back()) && !text_container_for(b, e)) return;
    Node& parent = doc_.mutable_node(top());
    if (parent.last_child != kNoNode) {
      Node& last = doc_.mutable_node(parent.last_child);
      if (last.kind == NodeKind::Text && last.span.end == b) {
        last.span.end = e;
        return;
      }
    }
    add_leaf(NodeKind::Text, b, e);
  }

  // For text in a container that takes none directly: false if the text is blank (it
  // is dropped), else opens the paragraph a flow container needs.
  __attribute__((noinline)) bool text_container_for(std::uint32_t b, std::uint32_t e) {
    bool blank = true;
    for (std::uint32_t k = b; k < e && blank; ++k) blank = has_class(text_[k], kGapByte);
    if (blank) return false;
    ensure_inline_container(b);
    return true;
  }

  void newline(std::uint32_t at) {
    if (accepts_text(stack_.back()) && top_kind() != NodeKind::Heading) append_text(at, at + 1);
  }

  // --- lists and pre ---

  // Called after every cell; outside lists (most of a rules page) there is nothing to do.
  void validate_lists() {
    if (lists_.empty()) return;
    std::size_t keep = 0;
    while (keep < lists_.size() && lists_[keep].index < stack_.size() &&
           stack_[lists_[keep].index].node == lists_[keep].node)
      ++keep;
    lists_.resize(keep);
  }

  void close_lists(std::uint32_t at) {
    validate_lists();
    if (!lists_.empty()) pop_to(lists_.front().index, at, false);
    lists_.clear();
  }

  void close_pre(std::uint32_t at) {
    if (pre_node_ != kNoNode && pre_index_ < stack_.size() && stack_[pre_index_].node == pre_node_)
      pop_to(pre_index_, at, false);
    pre_node_ = kNoNode;
  }

  void start_block(std::uint32_t at) {
    close_lists(at);
    close_pre(at);
    close_paragraph(at);
  }

  static char list_kind(char c) { return c == ';' ? ':' : c; }

  // BlockLevelPass: common prefix with the previous line, close deeper lists, next item
  // or open new levels.
  void list_line(std::uint32_t ls, std::uint32_t plen, std::uint32_t le) {
    close_pre(ls);
    validate_lists();
    std::string_view prefix = text_.substr(ls, plen);
    std::size_t common = 0;
    while (common < lists_.size() && common < prefix.size() &&
           lists_[common].marker == list_kind(prefix[common]))
      ++common;
    if (common < lists_.size()) {
      pop_to(lists_[common].index, ls, false);
      lists_.resize(common);
    }
    if (lists_.empty()) close_paragraph(ls);
    if (prefix.size() == common && common > 0) {
      pop_above(lists_[common - 1].index, ls);
      if (open(NodeKind::ListItem, ls, ls + plen) != kNoNode)
        doc_.mutable_node(top()).aux = static_cast<std::uint8_t>(prefix[common - 1]);
    } else {
      for (std::size_t k = common; k < prefix.size(); ++k) {
        NodeId list = open(NodeKind::List, static_cast<std::uint32_t>(ls + k), ls + plen);
        if (list == kNoNode) break;
        doc_.mutable_node(list).aux = static_cast<std::uint8_t>(list_kind(prefix[k]));
        lists_.push_back({stack_.size() - 1, list, list_kind(prefix[k])});
        if (open(NodeKind::ListItem, static_cast<std::uint32_t>(ls + k), ls + plen) == kNoNode)
          break;
        doc_.mutable_node(top()).aux = static_cast<std::uint8_t>(prefix[k]);
      }
    }
    std::uint32_t cb = ls + plen;
    if (!prefix.empty() && prefix.back() == ';') {
      // `;term : definition` on one line (BlockLevelPass::findColonNoLinks).
      std::uint32_t colon = find_definition_colon(cb, le);
      if (colon < le && !lists_.empty()) {
        inline_segment(cb, colon);
        // The term's inlines may have closed the list (a table or block tag in it).
        validate_lists();
        if (lists_.empty()) {
          inline_segment(colon, le);
          return;
        }
        pop_above(lists_.back().index, colon);
        if (open(NodeKind::ListItem, colon, colon + 1) != kNoNode)
          doc_.mutable_node(top()).aux = ':';
        inline_segment(colon + 1, le);
        return;
      }
    }
    inline_segment(cb, le);
  }

  std::uint32_t find_definition_colon(std::uint32_t b, std::uint32_t e) const {
    int links = 0;
    bool in_tag = false;
    std::size_t r = region_at_or_after(b);
    for (std::uint32_t i = b; i < e; ++i) {
      while (regions_[r].end <= i) ++r;
      if (regions_[r].begin <= i) {
        i = regions_[r].end - 1;
        continue;
      }
      char c = text_[i];
      if (c == '<') in_tag = true;
      else if (c == '>') in_tag = false;
      else if (c == '[' && i + 1 < e && text_[i + 1] == '[') { ++links; ++i; }
      else if (c == ']' && i + 1 < e && text_[i + 1] == ']' && links > 0) { --links; ++i; }
      else if (c == ':' && !in_tag && links == 0 && text_.compare(i, 3, "://") != 0) return i;
    }
    return e;
  }

  // BlockLevelPass refuses leading-space <pre> on lines holding block-level tags.
  bool has_block_tag(std::uint32_t b, std::uint32_t e) const {
    static constexpr auto kNames = index_names(std::array<std::string_view, 23>{
        "table", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "tr", "td", "th", "p", "ul",
        "ol", "dl", "li", "blockquote", "div", "hr", "center", "caption", "dd", "dt"});
    for (std::uint32_t i = b; i < e; ++i) {
      i = scan_byte(text_.data(), i, e, text_end(), '<');
      if (i >= e) return false;
      std::uint32_t j = i + 1;
      if (j < e && text_[j] == '/') ++j;
      std::uint32_t k = j;
      while (k < e && is_alnum(text_[k])) ++k;
      if (kNames.find(text_.substr(j, k - j)) >= 0) return true;
    }
    return false;
  }

  // --- tables (Parser::doTableStuff) ---

  std::size_t innermost(NodeKind kind, std::size_t stop_at = 0) const {
    for (std::size_t i = stack_.size(); i-- > stop_at + 1;)
      if (stack_[i].kind == kind) return i;
    return 0;
  }

  // How a diagnostic names the owner of an attribute; built only when one is reported.
  std::string describe(const Node& n) const {
    switch (n.kind) {
      case NodeKind::Table: return "table";
      case NodeKind::TableRow: return "table row";
      case NodeKind::TableCell: return n.header() ? "table header cell" : "table cell";
      case NodeKind::TableCaption: return "table caption";
      case NodeKind::Preformatted: return "<pre>";
      default: {
        std::string s = "<";
        s += n.name;
        s += '>';
        return s;
      }
    }
  }

  // End of the attribute name starting at `nb`, or `e`. Names are mostly 2 to 7 bytes
  // (class, style, colspan): one load classifies them where the byte loop took a
  // lookup, a test and a branch per byte.
  std::uint32_t attribute_name_end(std::uint32_t nb, std::uint32_t e) const {
#ifdef __SSE2__
    const char* base = text_.data();
    while (nb + 16 <= text_end()) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + nb));
      const __m128i lowered = _mm_or_si128(v, _mm_set1_epi8(0x20));
      __m128i name = _mm_and_si128(_mm_cmpgt_epi8(lowered, _mm_set1_epi8('a' - 1)),
                                   _mm_cmplt_epi8(lowered, _mm_set1_epi8('z' + 1)));
      // `-` `.` `/` digits `:` are 0x2D…0x3A; all but `/` are name bytes.
      name = _mm_or_si128(name, _mm_andnot_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('/')),
                                                 _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('-' - 1)),
                                                               _mm_cmplt_epi8(v, _mm_set1_epi8(':' + 1)))));
      name = _mm_or_si128(name, _mm_cmpeq_epi8(v, _mm_set1_epi8('_')));
      // The sign bits are the non-ASCII bytes, all name bytes.
      const unsigned stop = ~static_cast<unsigned>(_mm_movemask_epi8(name) | _mm_movemask_epi8(v)) & 0xFFFFu;
      if (stop) return std::min(nb + static_cast<std::uint32_t>(__builtin_ctz(stop)), e);
      nb += 16;
      if (nb >= e) return e;
    }
#endif
    while (nb < e && is_attribute_name_byte(text_[nb])) ++nb;
    return nb;
  }

  // Every caller passes a node it has just made, whose attribute fields are still zero:
  // an empty range (`<li>`, `<span>`, a bare `|-`, a third of the calls on a rules page)
  // adds nothing, and is answered here without a call. A list the page has already
  // given (most are: a rules page repeats a few dozen lists thousands of times) is
  // copied by the memo, called from here: through a wrapper of its own, each list paid
  // for a second frame that kept the list's bounds across the memo's call.
  __attribute__((always_inline)) void parse_attributes(NodeId id, std::uint32_t b, std::uint32_t e) {
    if (b < e && id != kNoNode) {
      Node& n = doc_.mutable_node(id);
      if (!scratch_.attribute_lists.repeat(doc_, n, b, e)) parse_new_attribute_list(n, b, e);
    }
  }

  // Flattened: GCC called Document::add_attribute out of line, which cost more than its
  // compare and copy.
  __attribute__((flatten, noinline)) void parse_new_attribute_list(Node& n, std::uint32_t b, std::uint32_t e) {
    // Adding attributes never moves the node array, so `n` stays valid.
    AttributeListMemo& memo = scratch_.attribute_lists;
    std::uint32_t i = b;
    while (i < e) {
      if (!has_class(text_[i], kAttrStartByte)) {
        ++i;
        continue;
      }
      std::uint32_t nb = i;
      i = attribute_name_end(nb, e);
      Attribute a;
      a.name = std::string_view(text_.data() + nb, i - nb);
      std::uint32_t j = i;
      bool has_value;
      if (j + 1 < e && text_[j] == '=' && text_[j + 1] == '"') {
        // `name="value"`, as nearly every attribute of a page is written: its quote is
        // reached without the two gap loops around the `=`.
        has_value = true;
        ++j;
      } else {
        while (j < e && has_class(text_[j], kGapByte)) ++j;
        has_value = j < e && text_[j] == '=';
        if (has_value) {
          ++j;
          while (j < e && has_class(text_[j], kGapByte)) ++j;
        }
      }
      if (has_value) {
        a.has_value = true;
        if (j < e && (text_[j] == '"' || text_[j] == '\'')) {
          char q = text_[j];
          std::uint32_t vb = j + 1;
          std::uint32_t ve = scan_byte(text_.data(), vb, e, text_end(), q);
          a.value = std::string_view(text_.data() + vb, ve - vb);
          i = ve < e ? ve + 1 : e;
        } else {
          std::uint32_t vb = j;
          while (j < e && !has_class(text_[j], kGapByte)) ++j;
          a.value = std::string_view(text_.data() + vb, j - vb);
          i = j;
        }
      }
      a.span = {nb, i};
      if (n.attr_count >= kMaxAttributes) {
        warn_too_many_attributes(nb, n);
        break;
      }
      std::uint32_t at = doc_.add_attribute(a);
      if (n.attr_count == 0) {
        n.attr_begin = at;
        n.attr_count = 1;
        continue;
      }
      ++n.attr_count;
      // Sanitizer::decodeTagAttributes keeps the last of a repeated name; a browser
      // given the raw HTML keeps the first. Both are worth knowing when they differ.
      auto attrs = doc_.attributes(n);
      for (std::size_t k = 0; k + 1 < attrs.size(); ++k) {
        const Attribute& earlier = attrs[k];
        if (iequals(earlier.name, a.name)) {
          warn_duplicate_attribute(nb, n, earlier, a);
          break;
        }
      }
    }
    memo.remember(n);
  }

  // Out of line: inlined, the message building gave parse_attributes a frame of 800
  // bytes and six saved registers, for warnings a page gives a few times.
  __attribute__((cold, noinline)) void warn_too_many_attributes(std::uint32_t at, const Node& n) {
    scratch_.attribute_lists.forget();
    warn(at, "more than " + std::to_string(kMaxAttributes) + " attributes on " + describe(n) +
                 "; the rest are dropped");
  }
  __attribute__((cold, noinline)) void warn_duplicate_attribute(std::uint32_t at, const Node& n,
                                                                const Attribute& earlier,
                                                                const Attribute& a) {
    scratch_.attribute_lists.forget();
    warn(at, "duplicate attribute '" + std::string(a.name) + "' on " + describe(n) +
                 ": a browser keeps the first (" + std::string(earlier.name) + "=\"" +
                 std::string(earlier.value) + "\"), MediaWiki's Sanitizer keeps the last (" +
                 std::string(a.name) + "=\"" + std::string(a.value) + "\")");
  }

  static bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (lower(a[i]) != lower(b[i])) return false;
    return true;
  }

  void table_start(std::uint32_t ls, std::uint32_t colons_end, std::uint32_t brace,
                   std::uint32_t le) {
    line_blocky_ = kBlockyYes;
    if (colons_end > ls) {
      // `:{|` indents the table in a definition list, as doTableStuff's <dl><dd> does.
      list_line_prefix_only(ls, colons_end - ls);
    } else {
      start_block(ls);
    }
    NodeId t = open(NodeKind::Table, brace, le);
    if (t == kNoNode) {
      inline_segment(brace, le);
      return;
    }
    parse_attributes(t, brace + 2, le);
  }

  void list_line_prefix_only(std::uint32_t ls, std::uint32_t plen) {
    close_pre(ls);
    validate_lists();
    std::string_view prefix = text_.substr(ls, plen);
    std::size_t common = 0;
    while (common < lists_.size() && common < prefix.size() &&
           lists_[common].marker == list_kind(prefix[common]))
      ++common;
    if (common < lists_.size()) {
      pop_to(lists_[common].index, ls, false);
      lists_.resize(common);
    }
    if (lists_.empty()) close_paragraph(ls);
    if (prefix.size() == common && common > 0) {
      pop_above(lists_[common - 1].index, ls);
      if (open(NodeKind::ListItem, ls, ls + plen) != kNoNode)
        doc_.mutable_node(top()).aux = static_cast<std::uint8_t>(prefix[common - 1]);
      return;
    }
    for (std::size_t k = common; k < prefix.size(); ++k) {
      NodeId list = open(NodeKind::List, static_cast<std::uint32_t>(ls + k), ls + plen);
      if (list == kNoNode) return;
      doc_.mutable_node(list).aux = static_cast<std::uint8_t>(list_kind(prefix[k]));
      lists_.push_back({stack_.size() - 1, list, list_kind(prefix[k])});
      if (open(NodeKind::ListItem, static_cast<std::uint32_t>(ls + k), ls + plen) == kNoNode)
        return;
      doc_.mutable_node(top()).aux = static_cast<std::uint8_t>(prefix[k]);
    }
  }

  // Splits `attrs | content` the way doTableStuff does: the first single `|` separates,
  // unless the part before it contains `[[` (then it is all content). `bar` is that `|`
  // (the first outside regions in [b, e)), or e; `link_before_bar` whether a `[[`
  // outside regions starts before it.
  void cell(NodeKind kind, bool header, std::uint32_t mark, std::uint32_t b, std::uint32_t e,
            std::uint32_t bar, bool link_before_bar, std::size_t parent_index) {
    pop_above(parent_index, mark);
    NodeId c = open(kind, mark, e);
    if (c == kNoNode) {
      inline_segment(b, e);
      return;
    }
    if (header) doc_.mutable_node(c).aux = 1;
    std::uint32_t content = b;
    if (bar < e && !link_before_bar) {
      parse_attributes(c, b, bar);
      content = bar + 1;
    }
    inline_segment(content, e);
  }

  // `|}`, `|-` and `|+` lines: the other lines starting `|` or `!` in a table are cell
  // lines, which cell_line() takes before their end is known.
  void table_line(std::size_t table, std::uint32_t ts, std::uint32_t te) {
    line_blocky_ = kBlockyYes;
    const char c1 = text_[ts + 1];
    if (c1 == '}') {
      close_pre(ts);
      pop_to(table, ts + 2, false);
      validate_lists();
      inline_segment(ts + 2, te);
      return;
    }
    if (c1 == '-') {
      pop_above(table, ts);
      validate_lists();
      Open& t = stack_[table];
      t.row_pending = true;
      t.row_b = ts;
      t.row_e = te;
      return;
    }
    stack_[table].row_pending = false;  // `|+`
    pop_above(table, ts);
    validate_lists();
    std::uint32_t bar = find_outside(ts + 2, te, "|");
    cell(NodeKind::TableCaption, false, ts, ts + 2, te, bar, find_outside(ts + 2, bar, "[[") < bar, table);
  }

  static constexpr std::uint32_t kUnknownEnd = 0xFFFFFFFFu;

  // A cell line of the table at stack index `table` starting at `ls`: the line's cells,
  // and its end (the newline, or the text's end). kUnknownEnd if the line is no cell line
  // (then nothing was done). The cells are found by one scan that also meets the line's
  // newline, where line_end() and the cell scan used to read every byte of the line twice.
  __attribute__((always_inline)) std::uint32_t cell_line(std::size_t table, std::uint32_t ls) {
    const std::uint32_t n = text_end();
    std::uint32_t ts = ls;
    while (ts < n && is_space(text_[ts])) ++ts;
    if (ts >= n) return kUnknownEnd;
    const char c0 = text_[ts];
    if (c0 != '|' && c0 != '!') return kUnknownEnd;
    // `|}`, `|-`, `|+`: a non-space second byte lies before the trimmed end, as
    // table_line() asks it.
    if (c0 == '|' && ts + 1 < n && (text_[ts + 1] == '}' || text_[ts + 1] == '-' || text_[ts + 1] == '+'))
      return kUnknownEnd;
    if (in_region(ts)) return kUnknownEnd;
    // What process_line() does for every line; line_e_ is read only while line_blocky_
    // is unknown, never on a table line.
    line_b_ = ls;
    line_blocky_ = kBlockyYes;
    // Cells: make sure a row is open (doTableStuff adds the missing <tr>).
    // A row opens only right above its table (after pop_above(table)), and `table` is
    // the innermost: the open row, if any, is the entry above it, without a walk.
    std::size_t row = table + 1 < stack_.size() && stack_[table + 1].kind == NodeKind::TableRow ? table + 1 : 0;
    if (row == 0 || stack_[table].row_pending) {
      pop_above(table, ts);
      Open pending = stack_[table];
      stack_[table].row_pending = false;
      NodeId r = pending.row_pending ? open(NodeKind::TableRow, pending.row_b, pending.row_e)
                                     : open(NodeKind::TableRow, ts, ts);
      if (r == kNoNode) return line_as_text(ts);
      if (pending.row_pending) {
        std::uint32_t a = pending.row_b + 1;  // past `|-…`
        while (a < pending.row_e && text_[a] == '-') ++a;
        parse_attributes(r, a, pending.row_e);
      }
      row = stack_.size() - 1;
    }
    validate_lists();
    // The cells, each ended by the first `||` (also `!!` on a header line) outside
    // regions or by the line's end, trimmed of spaces like every line; `bar` is a cell's
    // first single `|` before that, and `link` whether a `[[` comes before it, which
    // makes the cell all content (`[` is looked for only until one of the two is found).
    // The same scan meets the line's end: its first newline outside regions, one a
    // region starts with included, as line_end() counts them. A byte found before that
    // newline lies before the trimmed end unless it is a space, which is none of those
    // looked for: a `||` or `[[` whose second byte matches needs no other test of the end.
    constexpr std::uint32_t kNone = 0xFFFFFFFFu;
    const bool header = c0 == '!';
    const char* base = text_.data();
    std::uint32_t pos = ts + 1;
    std::uint32_t mark = ts;
    // Regions are passed in order as the scan moves on, cell after cell.
    std::size_t r = region_at_or_after(pos);
    for (;;) {
      std::uint32_t bar = kNone;
      bool link = false;
      std::uint32_t i = pos;
      for (;; ++i) {
        const bool want_link = bar == kNone && !link;
        i = want_link ? (header ? scan_for<'|', '!', '[', '\n'>(base, i, n, n) : scan_for<'|', '[', '\n'>(base, i, n, n))
                      : (header ? scan_for<'|', '!', '\n'>(base, i, n, n) : scan_for<'|', '\n'>(base, i, n, n));
        if (i >= n) break;
        while (regions_[r].end <= i) ++r;
        const char c = base[i];
        if (regions_[r].begin < i || (regions_[r].begin == i && c != '\n')) {
          i = regions_[r].end - 1;
          continue;
        }
        if (c == '\n') break;
        if (c == '[') {
          // A `[` after the bar or a first `[[` is no longer asked about.
          if (want_link && i + 1 < n && base[i + 1] == '[') link = true;
          continue;
        }
        if (i + 1 < n && base[i + 1] == c) break;  // the separator
        if (c == '|' && bar == kNone) bar = i;
      }
      // At the line's end (i is its newline, or n), the cell ends at the trimmed end;
      // bytes before `pos` are the `|` or `!` that opened the cell, where the trim stops.
      const bool last = i >= n || base[i] == '\n';
      std::uint32_t sep = i;
      if (last) {
        sep = i = std::min(i, n);
        while (is_space(base[sep - 1])) --sep;
      }
      cell(NodeKind::TableCell, header, mark, pos, sep, bar == kNone ? sep : bar, link, row);
      validate_lists();
      if (last) return i;
      // The row was closed from inside the cell: the rest of the line is dropped, as
      // doTableStuff's output leaves it to the tree builder. `sep` lies outside regions,
      // so the line's end seen from it is the one seen from the line's start.
      if (stack_.size() <= row) return line_end_cold(sep);
      mark = sep;
      pos = sep + 2;
    }
  }

  // Out of line: the limits reached, the rest of a cell line from `ts` (outside regions)
  // is text; returns the line's end.
  __attribute__((cold, noinline)) std::uint32_t line_as_text(std::uint32_t ts) {
    const std::uint32_t le = line_end(ts);
    std::uint32_t te = le;
    while (te > ts && is_space(text_[te - 1])) --te;
    inline_segment(ts, te);
    return le;
  }
  // line_end() for the rare callers, which need not inline its scan.
  __attribute__((noinline)) std::uint32_t line_end_cold(std::uint32_t pos) const { return line_end(pos); }

  // --- lines ---

  // Every line but a table's cell lines (see cell_line); `table` is the innermost
  // table's stack index, or 0.
  __attribute__((always_inline)) void process_line(std::uint32_t ls, std::uint32_t le, std::size_t table) {
    line_blocky_ = kBlockyUnknown;
    line_b_ = ls;
    line_e_ = le;
    std::uint32_t ts = ls;
    while (ts < le && is_space(text_[ts])) ++ts;
    std::uint32_t te = le;
    while (te > ts && is_space(text_[te - 1])) --te;
    if (ts == te) {
      close_lists(ls);
      close_pre(ls);
      close_paragraph(ls);
      return;
    }
    // `{|`, possibly after `:` indentation and spaces (doTableStuff's /^(:*)\s*\{\|/).
    // Only a line starting `:` or `{` can be one (text_[ts] is no space).
    if (const char first = text_[ts]; first == ':' || first == '{') {
      std::uint32_t p = ts;
      while (p < te && text_[p] == ':') ++p;
      std::uint32_t q = p;
      while (q < te && is_space(text_[q])) ++q;
      if (text_at(q, "{|") && !in_region(q)) {
        table_start(ts, p, q, te);
        return;
      }
    }
    // A line of a table starting `|` or `!` outside a region is a cell line unless it
    // starts `|}`, `|-` or `|+`, and cell lines never come here.
    if (table != 0 && text_[ts] == '|' && !in_region(ts)) {
      table_line(table, ts, te);
      return;
    }
    // Inside a table doTableStuff trims every line, so no leading-space <pre> there and
    // block markup may follow indentation.
    std::uint32_t start = table != 0 ? ts : ls;
    char c = text_[start];
    if (c == '=' && !in_region(start)) {
      std::uint32_t open_run = 0;
      while (start + open_run < te && text_[start + open_run] == '=') ++open_run;
      std::uint32_t close_run = 0;
      while (te - close_run > start + open_run && text_[te - 1 - close_run] == '=') ++close_run;
      std::uint32_t level = std::min({open_run, close_run, 6u});
      if (close_run > 0 && te - start > 2 * level) {
        start_block(start);
        NodeId h = open(NodeKind::Heading, start, te);
        if (h == kNoNode) {
          inline_segment(start, le);
          return;
        }
        doc_.mutable_node(h).aux = static_cast<std::uint8_t>(level);
        std::size_t hi = stack_.size() - 1;
        inline_segment(start + level, te - level);
        pop_to(hi, te, false);
        return;
      }
    }
    if (c == '-' && text_at(start, "----")) {
      start_block(start);
      std::uint32_t e = start;
      while (e < le && text_[e] == '-') ++e;
      add_leaf(NodeKind::HorizontalRule, start, e);
      inline_segment(e, le);
      return;
    }
    if ((c == '*' || c == '#' || c == ':' || c == ';') && !in_region(start)) {
      std::uint32_t p = start;
      while (p < le && (text_[p] == '*' || text_[p] == '#' || text_[p] == ':' || text_[p] == ';'))
        ++p;
      list_line(start, p - start, le);
      return;
    }
    close_lists(start);
    if (table == 0 && text_[ls] == ' ' && !line_blocky()) {
      if (pre_node_ == kNoNode) {
        close_paragraph(ls);
        if (open(NodeKind::Preformatted, ls, le) != kNoNode) {
          pre_node_ = top();
          pre_index_ = stack_.size() - 1;
        }
      } else if (pre_index_ < stack_.size()) {
        pop_above(pre_index_, ls);
      }
      inline_segment(ls + 1, le);
      return;
    }
    close_pre(start);
    inline_segment(start, le);
  }

  // Inline: asked for about every line (`{|`, table lines, headings, lists), and the
  // hint answers it in a few instructions.
  __attribute__((always_inline)) bool in_region(std::uint32_t pos) const {
    std::size_t r = region_at_or_after(pos);
    return regions_[r].begin <= pos;
  }

  // --- inline level ---


  // The `[[ ]]` pairs of [b, e), where b is the first `[[` the lexer meets: lex() asks
  // only then, since most segments hold no link. Starting there instead of at the
  // segment's first `[[` gives the same pairs for every `[[` from b on, the only ones
  // the lexer looks up: a `[[` it did not meet lies in a tag's attributes or in a
  // region, and pairs only with a `]]` no later `[[` takes.
  void compute_link_pairs(std::uint32_t b, std::uint32_t e,
                          std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs) {
    pairs.clear();
    std::vector<std::uint32_t>& opens = link_opens_;
    opens.clear();
    std::size_t r = region_at_or_after(b);
    for (std::uint32_t i = b; i + 1 < e; ++i) {
      // Only bracket bytes matter; regions are checked at those alone.
      i = scan_for<'[', ']'>(text_.data(), i, e - 1, text_end());
      if (i + 1 >= e) break;
      while (regions_[r].end <= i) ++r;
      if (regions_[r].begin <= i) {
        i = regions_[r].end - 1;
        continue;
      }
      if (text_[i] == '[' && text_[i + 1] == '[') {
        opens.push_back(i);
        ++i;
      } else if (text_[i] == ']' && text_[i + 1] == ']' && !opens.empty()) {
        pairs.emplace_back(opens.back(), i);
        opens.pop_back();
        ++i;
      }
    }
    std::sort(pairs.begin(), pairs.end());
  }


  void lex(std::uint32_t b, std::uint32_t e, TokenList& out) {
    auto& pairs = pair_pool_[inline_depth_];
    bool paired = false;  // pairs are computed at the first `[[`
    std::size_t r = region_at_or_after(b);
    std::uint32_t no_ext_close_after = 0xFFFFFFFFu;
    lexed_quote_ = false;
    quote_italics_ = quote_bolds_ = 0;
    quote_scratch_.clear();  // the quote runs' token indices, for plan_quotes
    Token* next = out.cursor();
    Token* room = out.room_end();
    const auto slot = [&]() -> Token& {
      if (next == room) [[unlikely]] {
        next = out.grow_at(next);
        room = out.room_end();
      }
      return *next;
    };
    std::uint32_t i = b;
    // The next region's start (or e): the region list is consulted again only once the
    // scan reaches it, since nothing before it can be a region.
    std::uint32_t stop = 0;
    while (i < e) {
      if (i >= stop) {
        while (regions_[r].end <= i) ++r;
        stop = (regions_[r].begin < e) ? regions_[r].begin : e;
        if (regions_[r].begin <= i) {
          Token& t = slot();
          t.kind = Tok::Region;
          t.b = regions_[r].begin;
          t.e = std::min(regions_[r].end, e);
          t.ib = static_cast<std::uint32_t>(r);
          ++next;
          i = t.e;
          continue;
        }
      }
      // Only these bytes can start inline markup; the rest is copied as text in bulk.
      i = scan_for<'<', '[', '\'', '&'>(text_.data(), i, stop, text_end());
      if (i >= stop) continue;
      char c = text_[i];
      if (c == '\'') {
        std::uint32_t j = i;
        while (j < stop && text_[j] == '\'') ++j;
        if (j - i >= 2) {
          quote_scratch_.push_back(out.index_of(next));
          Token& t = slot();
          t.kind = Tok::Quote;
          std::fill(std::begin(t.ops), std::end(t.ops), kNone);  // plan_quotes sets the few it needs
          // doQuotes: a run of 4 is an apostrophe and a bold, one of more than 5 is text
          // and a bold italic. The run's markup starts at b; tb..b stays text.
          const std::uint32_t run = j - i;
          const std::uint32_t markup = run == 4 ? 3 : std::min(run, 5u);
          t.tb = i;
          t.b = j - markup;
          t.e = j;
          quote_italics_ += markup != 3;
          quote_bolds_ += markup != 2;
          ++next;
          lexed_quote_ = true;
        }
        i = j;
        continue;
      }
      if (c == '&') {
        std::uint32_t j = i + 1;
        bool ok = false;
        if (j < stop && text_[j] == '#') {
          ++j;
          bool hex = j < stop && (text_[j] == 'x' || text_[j] == 'X');
          if (hex) ++j;
          std::uint32_t d = j;
          while (j < stop && j - d < 8 && (hex ? std::isxdigit(static_cast<unsigned char>(text_[j])) != 0 : is_digit(text_[j]))) ++j;
          ok = j > d && j < stop && text_[j] == ';';
        } else {
          while (j < stop && j - i < 33 && is_alnum(text_[j])) ++j;
          ok = j > i + 1 && j < stop && text_[j] == ';' && is_alpha(text_[i + 1]);
        }
        if (ok) {
          std::string_view ent = text_.substr(i, j + 1 - i);
          if (decode_entity(ent) != ent) {
            Token& t = slot();
            t.kind = Tok::Entity;
            t.b = i;
            t.e = j + 1;
            ++next;
            i = j + 1;
            continue;
          }
        }
        ++i;
        continue;
      }
      if (c == '<') {
        // Attribute values may hold regions (`data-x="{{{1|}}}"`), so the tag may end
        // past `stop`.
        Token& t = slot();
        if (lex_tag(i, stop, e, t)) {
          ++next;
          i = t.e;
          continue;
        }
        ++i;
        continue;
      }
      // '['
      if (i + 1 < e && text_[i + 1] == '[') {
        if (!paired) {
          compute_link_pairs(i, e, pairs);
          paired = true;
        }
        auto it = std::lower_bound(pairs.begin(), pairs.end(), std::make_pair(i, 0u));
        Token& t = slot();
        if (it != pairs.end() && it->first == i && lex_wikilink(i, it->second, pairs, t)) {
          ++next;
          i = t.e;
          continue;
        }
        i += 2;
        continue;
      }
      if (std::size_t plen = url_protocol_length(text_.substr(i + 1, 16)); plen > 0) {
        std::uint32_t u = i + 1;
        std::uint32_t ue = u + static_cast<std::uint32_t>(plen);
        while (ue < e) {
          char x = text_[ue];
          if (x == '[' || x == ']' || x == '<' || x == '>' || x == '"' ||
              static_cast<unsigned char>(x) <= 0x20 || x == 0x7F)
            break;
          if (in_region(ue)) break;
          ++ue;
        }
        if (ue > u + plen && i < no_ext_close_after) {
          std::uint32_t close = find_outside(ue, e, "]");
          if (close < e) {
            Token& t = slot();
            t.kind = Tok::ExtLink;
            t.b = i;
            t.e = close + 1;
            t.tb = u;
            t.te = ue;
            std::uint32_t tx = ue;
            while (tx < close && is_space(text_[tx])) ++tx;
            t.ib = tx;
            t.ie = close;
            ++next;
            i = close + 1;
            continue;
          }
          no_ext_close_after = i;
        }
      }
      ++i;
    }
    out.commit(next);
  }

  bool lex_wikilink(std::uint32_t b, std::uint32_t close,
                    const std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs, Token& t) {
    std::uint32_t inner = b + 2;
    // The target's end (the first `|` outside regions) and its title check in one scan:
    // a byte of Title's illegal set (the part of it scanned for) before that `|` makes
    // it no link, also inside a region, whose bytes are part of the target.
    std::uint32_t bar = close;
    std::size_t r = region_at_or_after(inner);
    for (std::uint32_t i = inner; i < close; ++i) {
      i = scan_for<'|', '<', '>', '[', ']', '{', '}', '\n'>(text_.data(), i, close, text_end());
      if (i >= close) break;
      if (text_[i] != '|') return false;
      while (regions_[r].end <= i) ++r;
      if (regions_[r].begin <= i) continue;
      bar = i;
      break;
    }
    std::string_view target = text_.substr(inner, bar - inner);
    std::string_view trimmed = target;
    while (!trimmed.empty() && is_space(trimmed.front())) trimmed.remove_prefix(1);
    while (!trimmed.empty() && is_space(trimmed.back())) trimmed.remove_suffix(1);
    if (trimmed.empty()) return false;
    const bool file = is_file_target(trimmed);
    // A link inside a plain link's text breaks the outer one (only file captions nest).
    if (!file) {
      auto it = std::upper_bound(pairs.begin(), pairs.end(), std::make_pair(b, 0xFFFFFFFFu));
      if (it != pairs.end() && it->first < close) return false;
    }
    t.kind = file ? Tok::File : Tok::Link;
    t.b = b;
    t.e = close + 2;
    t.tb = inner;
    t.te = bar;
    t.ib = bar < close ? bar + 1 : inner;
    t.ie = close;
    return true;
  }

  bool lex_tag(std::uint32_t i, std::uint32_t stop, std::uint32_t e, Token& t) {
    std::uint32_t j = i + 1;
    bool end_tag = j < stop && text_[j] == '/';
    if (end_tag) ++j;
    std::uint32_t nb = j;
    int known;
    // The tag's `>` once found before `stop`, and where the scan for it starts while
    // it is not.
    std::uint32_t g = stop;
    std::uint32_t scan_from = stop;
#if defined(__SSE2__) && defined(__x86_64__)
    if (nb + 16 <= text_end()) {
      // The name's end and its lookup from one load: a byte loop and a compare loop
      // per tag were most of the cost of lexing one. A run cut at 16 bytes is longer
      // than every tag name, and so found in none, whatever its true end.
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text_.data() + nb));
      const __m128i lowered = _mm_or_si128(v, _mm_set1_epi8(0x20));
      const __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(lowered, _mm_set1_epi8('a' - 1)),
                                           _mm_cmplt_epi8(lowered, _mm_set1_epi8('z' + 1)));
      const __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
                                          _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
      const auto alnum = static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(letter, digit)));
      j = std::min(nb + static_cast<std::uint32_t>(__builtin_ctz(~alnum)), stop);
      // A name starts with a letter: the block's first bit, not a load of the byte.
      if (j == nb || !(_mm_movemask_epi8(letter) & 1)) return false;
      if (j < stop && !has_class(text_[j], kTagNameEndByte)) return false;
      known = kMarkupTagHash.find(lowered, j - nb);
      // Most tags (all end tags, `<br>`, `<span>`, short attribute lists) close within
      // the name's block: its `>` is read from the same load. The name's bytes are no
      // `>`, so the first one is past the name; one at or past `stop` means none before
      // it, and is taken for none below.
      if (const auto closes = static_cast<unsigned>(
              _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('>')))))
        g = nb + static_cast<std::uint32_t>(__builtin_ctz(closes));
      else
        scan_from = std::min(nb + 16, stop);
    } else
#endif
    {
      while (j < stop && is_alnum(text_[j])) ++j;
      if (j == nb || !is_alpha(text_[nb])) return false;
      if (j < stop && !has_class(text_[j], kTagNameEndByte)) return false;
      known = kMarkupTagIndex.find(std::string_view(text_.data() + nb, j - nb));
      scan_from = j;
    }
    if (known < 0) return false;
    // [i, stop) holds no region, so a `>` there is the tag's end without asking the
    // region list; only a tag running into a region needs find_outside.
    if (g >= stop) {
      g = scan_byte(text_.data(), scan_from, stop, text_end(), '>');
      if (g >= stop) {
        g = find_outside(j, e, ">");
        if (g >= e) return false;
      }
    }
    if (static_cast<std::size_t>(known) >= std::size(kTags)) {
      t.kind = Tok::Skip;
      t.b = i;
      t.e = g + 1;
      return true;
    }
    t.kind = end_tag ? Tok::EndTag : Tok::StartTag;
    t.tag = static_cast<std::uint8_t>(known);
    t.b = i;
    t.e = g + 1;
    t.ib = j;
    t.ie = g;
    t.self_closing = !end_tag && g > j && text_[g - 1] == '/';
    if (t.self_closing) t.ie = g - 1;
    return true;
  }

  // Parser::doQuotes: balance counts, then the state machine; a `'''''` whose
  // order is open is decided by the next run (what the 'both' buffer does in MW).
  // `quote_scratch_` holds the indices of the quote runs, as lex() left them.
  void plan_quotes(TokenList& toks, std::uint32_t seg_begin) {
    const std::vector<std::size_t>& q = quote_scratch_;
    if (q.empty()) return;
    auto len = [&](std::size_t k) { return toks[k].e - toks[k].b; };
    // lex() has set each run's markup (b..e, at most five apostrophes) and counted them.
    if (quote_italics_ % 2 == 1 && quote_bolds_ % 2 == 1) {
      std::ptrdiff_t single = -1, multi = -1, space = -1;
      for (std::size_t k : q) {
        if (len(k) != 3) continue;
        std::uint32_t b = toks[k].b;
        char x1 = b >= seg_begin + 1 ? text_[b - 1] : '\0';
        // PHP's substr($prev, -2, 1) is the only character of a one-character piece.
        char x2 = b >= seg_begin + 2 ? text_[b - 2] : x1;
        if (x1 == ' ') {
          if (space < 0) space = static_cast<std::ptrdiff_t>(k);
        } else if (x2 == ' ') {
          single = static_cast<std::ptrdiff_t>(k);
          break;
        } else if (multi < 0) {
          multi = static_cast<std::ptrdiff_t>(k);
        }
      }
      std::ptrdiff_t pick = single >= 0 ? single : multi >= 0 ? multi : space;
      if (pick >= 0) toks[static_cast<std::size_t>(pick)].b += 1;
    }
    enum State { None, I, B, BI, IB } state = None;
    for (std::size_t n = 0; n < q.size(); ++n) {
      Token& t = toks[q[n]];
      std::uint8_t* ops = t.ops;
      switch (len(q[n])) {
        case 2:
          if (state == I) { ops[0] = kCloseI; state = None; }
          else if (state == BI) { ops[0] = kCloseI; state = B; }
          else if (state == IB) { ops[0] = kCloseB; ops[1] = kCloseI; ops[2] = kOpenB; state = B; }
          else if (state == None) { ops[0] = kOpenI; state = I; }
          else { ops[0] = kOpenI; state = BI; }
          break;
        case 3:
          if (state == B) { ops[0] = kCloseB; state = None; }
          else if (state == BI) { ops[0] = kCloseI; ops[1] = kCloseB; ops[2] = kOpenI; state = I; }
          else if (state == IB) { ops[0] = kCloseB; state = I; }
          else if (state == None) { ops[0] = kOpenB; state = B; }
          else { ops[0] = kOpenB; state = IB; }
          break;
        default:
          if (state == B) { ops[0] = kCloseB; ops[1] = kOpenI; state = I; }
          else if (state == I) { ops[0] = kCloseI; ops[1] = kOpenB; state = B; }
          else if (state == BI) { ops[0] = kCloseI; ops[1] = kCloseB; state = None; }
          else if (state == IB) { ops[0] = kCloseB; ops[1] = kCloseI; state = None; }
          else {
            std::uint32_t next = n + 1 < q.size() ? len(q[n + 1]) : 0;
            if (next == 3 || next == 5) { ops[0] = kOpenI; ops[1] = kOpenB; state = IB; }
            else { ops[0] = kOpenB; ops[1] = kOpenI; state = BI; }
          }
          break;
      }
    }
  }

  // Builds the inline content of [b, e) into the current top. Formatting opened here is
  // closed at the end (MediaWiki closes '' and ''' at each line end); HTML elements stay
  // open across lines, that is the point of having one stack.
  void inline_segment(std::uint32_t b, std::uint32_t e) {
    if (b >= e || exhausted_) return;
    if (inline_depth_ >= kMaxInlineDepth) {
      append_text(b, e);
      return;
    }
    std::size_t base = stack_.size();
    TokenList& toks = token_pool_[inline_depth_];
    toks.clear();
    lex(b, e, toks);
    if (lexed_quote_) plan_quotes(toks, b);
    ++inline_depth_;
    // The text between tokens is no token of its own: it is appended as the loop
    // reaches the next token (a quote run's text starts at tb, see plan_quotes).
    std::uint32_t text_from = b;
    for (const Token& t : toks) {
      if (exhausted_) break;
      std::uint32_t text_to = t.kind == Tok::Quote ? t.tb : t.b;
      if (text_to > text_from) {
        append_text(text_from, text_to);
        if (exhausted_) break;
      }
      build(t, base);
      text_from = t.e;
    }
    if (!exhausted_ && text_from < e) append_text(text_from, e);
    --inline_depth_;
    // Close formatting still open from this segment.
    for (std::size_t k = base; k < stack_.size(); ++k) {
      if (stack_[k].kind == NodeKind::Bold || stack_[k].kind == NodeKind::Italic) {
        pop_to(k, e, true);
        break;
      }
    }
  }

  void quote_op(std::uint8_t op, const Token& t, std::size_t base) {
    NodeKind want = (op == kOpenB || op == kCloseB) ? NodeKind::Bold : NodeKind::Italic;
    if (op == kOpenB || op == kOpenI) {
      ensure_inline_container(t.b);
      if (open(want, t.b, t.e) == kNoNode) append_text(t.b, t.e);
      return;
    }
    // Most closes find their formatting on top (`''x''`): what the search and pop_to
    // below would do, without them. The root is never Bold or Italic.
    if (stack_.size() > base && stack_.back().kind == want) {
      close_top(t.e, false);
      return;
    }
    for (std::size_t k = stack_.size(); k-- > base;) {
      if (stack_[k].kind == want) {
        pop_to(k, t.e, false);
        return;
      }
    }
  }

  void build(const Token& t, std::size_t base) {
    switch (t.kind) {
      case Tok::Skip:
        return;
      case Tok::Quote:
        if (t.ops[0] == kNone) {
          append_text(t.tb, t.e);
          return;
        }
        // Leading apostrophes MW turned into text (runs of 4 or more than 5).
        if (t.tb < t.b) append_text(t.tb, t.b);
        // plan_quotes fills ops from the first on, and most runs have one.
        for (std::uint8_t op : t.ops) {
          if (op == kNone) break;
          quote_op(op, t, base);
        }
        return;
      case Tok::Entity:
        ensure_inline_container(t.b);
        add_leaf(NodeKind::Entity, t.b, t.e);
        return;
      case Tok::StartTag:
        start_tag(t);
        return;
      case Tok::EndTag:
        end_tag(t);
        return;
      case Tok::Link:
      case Tok::File:
      case Tok::ExtLink:
        link(t);
        return;
      case Tok::Region:
        region(regions_[t.ib], t);
        return;
    }
  }

  void link(const Token& t) {
    ensure_inline_container(t.b);
    NodeKind kind = t.kind == Tok::Link ? NodeKind::Wikilink
                    : t.kind == Tok::File ? NodeKind::FileLink
                                          : NodeKind::ExternalLink;
    NodeId id = open(kind, t.b, t.e);
    if (id == kNoNode) {
      append_text(t.b, t.e);
      return;
    }
    std::size_t li = stack_.size() - 1;
    std::string_view target = text_.substr(t.tb, t.te - t.tb);
    while (!target.empty() && is_space(target.front())) target.remove_prefix(1);
    while (!target.empty() && is_space(target.back())) target.remove_suffix(1);
    doc_.mutable_node(id).name = target;
    if (kind == NodeKind::FileLink) {
      // Parser::makeImage: every part that is an image option is an option; the last
      // part that is not is the caption.
      std::uint32_t caption_b = 0, caption_e = 0;
      bool has_caption = false;
      if (t.te < t.ie) {
        std::uint32_t p = t.ib;
        for (;;) {
          std::uint32_t bar = next_top_level_bar(p, t.ie);
          std::string_view part = text_.substr(p, bar - p);
          if (is_image_option(part)) {
            Attribute a;
            std::size_t eq = part.find('=');
            a.name = eq == std::string_view::npos ? part : part.substr(0, eq);
            if (eq != std::string_view::npos) {
              a.value = part.substr(eq + 1);
              a.has_value = true;
            }
            a.span = {p, bar};
            std::uint32_t at = doc_.add_attribute(a);
            Node& n = doc_.mutable_node(id);
            if (n.attr_count == 0) n.attr_begin = at;
            ++n.attr_count;
          } else {
            caption_b = p;
            caption_e = bar;
            has_caption = true;
          }
          if (bar >= t.ie) break;
          p = bar + 1;
        }
      }
      if (has_caption) inline_segment(caption_b, caption_e);
    } else if (kind == NodeKind::Wikilink) {
      if (t.te < t.ie) inline_segment(t.ib, t.ie);
    } else {
      inline_segment(t.ib, t.ie);
    }
    pop_to(li, t.e, false);
  }

  std::uint32_t next_top_level_bar(std::uint32_t p, std::uint32_t e) const {
    int depth = 0;
    std::size_t r = region_at_or_after(p);
    for (std::uint32_t i = p; i < e; ++i) {
      // Only these bytes matter; regions are checked at those alone.
      i = scan_for<'[', ']', '|'>(text_.data(), i, e, text_end());
      if (i >= e) break;
      while (regions_[r].end <= i) ++r;
      if (regions_[r].begin <= i) {
        i = regions_[r].end - 1;
        continue;
      }
      char c = text_[i];
      if (c == '[' && i + 1 < e && text_[i + 1] == '[') { ++depth; ++i; }
      else if (c == ']' && i + 1 < e && text_[i + 1] == ']' && depth > 0) { --depth; ++i; }
      else if (c == '|' && depth == 0) return i;
    }
    return e;
  }

  void region(const Region& r, const Token& t) {
    switch (r.kind) {
      case RegionKind::Comment:
        add_leaf(NodeKind::Comment, t.b, t.e);
        return;
      case RegionKind::Template:
        ensure_inline_container(t.b);
        add_leaf(NodeKind::Template, t.b, t.e);
        return;
      case RegionKind::Nowiki: {
        ensure_inline_container(t.b);
        NodeId id = open(NodeKind::Nowiki, t.b, t.e);
        if (id == kNoNode) return;
        if (r.close_begin > r.open_end) add_leaf(NodeKind::Text, r.open_end, r.close_begin);
        close_top(t.e, false);
        return;
      }
      case RegionKind::Pre: {
        close_paragraph(t.b);
        NodeId id = open(NodeKind::Preformatted, t.b, t.e);
        if (id == kNoNode) return;
        parse_attributes(id, t.b + 4, r.open_end - 1);
        if (r.close_begin > r.open_end) add_leaf(NodeKind::Text, r.open_end, r.close_begin);
        close_top(t.e, false);
        return;
      }
      case RegionKind::Extension: {
        ensure_inline_container(t.b);
        NodeId id = add_leaf(NodeKind::ExtensionTag, t.b, t.e);
        if (id == kNoNode) return;
        const std::string_view tag = kExtensionTags.names[r.tag];
        doc_.mutable_node(id).name = tag;
        std::uint32_t ae = r.open_end - 1;
        if (ae > t.b && text_[ae - 1] == '/') --ae;
        parse_attributes(id, t.b + 1 + static_cast<std::uint32_t>(tag.size()), ae);
        return;
      }
      case RegionKind::Semantic:
        semantic(r, t);
        return;
    }
  }

  void semantic(const Region& r, const Token& t) {
    const SemanticNodeRef& ref = (*semantic_)[r.index];
    ensure_inline_container(t.b);
    NodeId id = open(NodeKind::SemanticTemplate, t.b, t.e);
    if (id == kNoNode) return;
    std::size_t si = stack_.size() - 1;
    doc_.mutable_node(id).name = borrow_texts_ ? ref.name : doc_.keep(std::string(ref.name));
    for (const SemanticParam& p : ref.params) {
      if (doc_.source_count() >= 0xFFFF) {  // Node::source is 16 bits
        warn(t.b, "too many semantic template parameters on this page; the rest are dropped");
        break;
      }
      NodeId param = open(NodeKind::TemplateParameter, t.b, t.e);
      if (param == kNoNode) break;
      doc_.mutable_node(param).name = borrow_texts_ ? p.name : doc_.keep(std::string(p.name));
      std::uint16_t source = borrow_texts_ ? doc_.add_source_view(p.value) : doc_.add_source(std::string(p.value));
      NodeId frag = doc_.add_node(NodeKind::Fragment, source,
                                  {0, static_cast<std::uint32_t>(p.value.size())}, param);
      Builder nested(doc_, source, frag, sink_, opt_, p.nested.empty() ? nullptr : &p.nested,
                     src_ == 0 ? support::Span{t.b, t.e} : diag_anchor_, &p, &ref,
                     diagnostic_count_, scratch_.next());
      nested.at_offset_ = at_offset_;
      nested.borrow_texts_ = borrow_texts_;
      nested.run();
      if (nested.exhausted_) exhausted_ = true;
      close_top(t.e, false);
    }
    pop_to(si, t.e, false);
  }

  // --- HTML tags (Sanitizer + the tree builder's implied closes) ---

  bool is_boundary(const Open& o, bool table_tag) const {
    switch (o.kind) {
      case NodeKind::Document:
      case NodeKind::Fragment:
      case NodeKind::Table:
      case NodeKind::TableCell:
      case NodeKind::TableCaption:
        return true;
      case NodeKind::Wikilink:
      case NodeKind::FileLink:
      case NodeKind::ExternalLink:
      case NodeKind::SemanticTemplate:
      case NodeKind::TemplateParameter:
        return true;
      case NodeKind::Element:
        return table_tag ? o.tag_index == tag_index("table") : (o.flags & kScope) != 0;
      default:
        return false;
    }
  }

  // Index of the nearest open element with kTags index `tag`, searching down to a
  // boundary; the tags in `stop_tags` (a tag_set) end the search early (e.g. `ul` for
  // an implied </li>).
  std::size_t find_open(std::uint8_t tag, bool table_tag, std::uint64_t stop_tags = 0) const {
    for (std::size_t i = stack_.size(); i-- > 1;) {
      const Open& o = stack_[i];
      if (o.kind == NodeKind::Element && o.tag_index == tag) return i;
      if (is_boundary(o, table_tag)) return 0;
      if (o.kind == NodeKind::Element && ((stop_tags >> o.tag_index) & 1u)) return 0;
    }
    return 0;
  }

  void implied_close(std::size_t i, std::uint32_t at) {
    if (i != 0) pop_to(i, at, true);
  }

  void start_tag(const Token& t) {
    const TagInfo& info = kTags[t.tag];
    if (info.flags & kBlock) {
      close_paragraph(t.b);
      // A block start tag closes an open <p> (HTML "close a p element in button scope").
      for (std::size_t i = stack_.size(); i-- > 1;) {
        const Open& o = stack_[i];
        if (o.kind == NodeKind::Element && o.tag_index == tag_index("p")) {
          pop_to(i, t.b, false);
          break;
        }
        if (o.kind != NodeKind::Element || (o.flags & kBlock) || is_boundary(o, false)) break;
      }
    }
    // Most start tags (span above all) close nothing: one test of a set skips the chain.
    constexpr std::uint64_t kImpliesClose = tag_set({"li", "dt", "dd", "tr", "td", "th"});
    if ((kImpliesClose >> t.tag) & 1u) {
      if (t.tag == tag_index("li")) {
        implied_close(find_open(tag_index("li"), false, tag_set({"ul", "ol", "div", "table"})), t.b);
      } else if (t.tag == tag_index("dt") || t.tag == tag_index("dd")) {
        std::size_t i = find_open(tag_index("dd"), false, tag_set({"dl", "div"}));
        if (i == 0) i = find_open(tag_index("dt"), false, tag_set({"dl", "div"}));
        implied_close(i, t.b);
      } else if (t.tag == tag_index("tr")) {
        std::size_t i = find_open(tag_index("tr"), true);
        implied_close(i, t.b);
      } else {  // td, th
        std::size_t i = find_open(tag_index("td"), true, tag_set({"tr"}));
        if (i == 0) i = find_open(tag_index("th"), true, tag_set({"tr"}));
        implied_close(i, t.b);
      }
    }
    if (!(info.flags & kBlock)) ensure_inline_container(t.b);
    NodeId id = open_element(t.tag, t.b, t.e);
    if (id == kNoNode) {
      append_text(t.b, t.e);
      return;
    }
    parse_attributes(id, t.ib, t.ie);
    if ((info.flags & kVoid) || t.self_closing) close_top(t.e, false);
  }

  void end_tag(const Token& t) {
    const TagInfo& info = kTags[t.tag];
    if (info.flags & kVoid) {
      // Sanitizer turns </br> into <br>; other void end tags are dropped.
      if (t.tag == tag_index("br")) {
        ensure_inline_container(t.b);
        if (open_element(t.tag, t.b, t.e) != kNoNode)
          close_top(t.e, false);
      }
      return;
    }
    // Most end tags close the element on top (`<span …>text</span>`): what find_open and
    // pop_to would find and do, without the search. The root is never an Element.
    if (const Open& top = stack_.back(); top.kind == NodeKind::Element && top.tag_index == t.tag) {
      close_top(t.e, false);
      validate_lists();
      return;
    }
    std::size_t i = find_open(t.tag, (info.flags & kTablePart) != 0);
    if (i == 0) {
      warn(t.b, "stray </" + std::string(info.name) + "> ignored: no open <" +
                    std::string(info.name) + "> in scope");
      return;
    }
    pop_to(i, t.e, false);
    validate_lists();
  }
};

}  // namespace

namespace {

// `owned` is the page text when the caller hands it over (no copy), else empty and the
// text is copied from input.text.
Document parse(const ParseInput& input, std::string* owned, support::DiagnosticSink& diagnostics,
               const ParseOptions& options, const OffsetWarning* at_offset = nullptr,
               Document&& recycled = Document()) {
  Document doc = std::move(recycled);
  doc.clear();
  std::string_view text = input.text;
  // Spans are 32-bit: a page beyond 4 GiB is cut (MediaWiki's own limit is 2 MiB).
  constexpr std::size_t kMaxText = 0xFFFFFFF0u;
  if (text.size() > kMaxText) {
    diagnostics.warning(options.page, {0, 0}, "page longer than 4 GiB; the rest is ignored");
    text = text.substr(0, kMaxText);
    if (owned) owned->resize(kMaxText);
  }
  std::uint16_t src = owned                ? doc.add_source(std::move(*owned))
                     : input.borrow_texts ? doc.add_source_view(text)
                                          : doc.add_source(std::string(text));
  // Markup-dense pages (the seed page) hold a node per ~18 bytes and an attribute per
  // ~50; reserving avoids regrowing (and copying) both arrays as the page is read.
  doc.reserve(input.text.size() / 12 + 16, input.text.size() / 40 + 16);
  NodeId root = doc.add_node(NodeKind::Document, src,
                             {0, static_cast<std::uint32_t>(text.size())}, kNoNode);
  std::size_t diagnostic_count = 0;
  // Kept for the thread's next page: the vectors keep their size from page to page.
  // Builders never call parse(), so no two use it at once.
  thread_local Scratch scratch;
  Builder builder(doc, src, root, diagnostics, options, &input.semantic, {}, nullptr, nullptr,
                  &diagnostic_count, scratch);
  builder.report_offsets_to(at_offset);
  builder.borrow_texts(input.borrow_texts);
  builder.run();
  return doc;
}

}  // namespace

Document parse_document(const ParseInput& input, support::DiagnosticSink& diagnostics,
                        const ParseOptions& options) {
  return parse(input, nullptr, diagnostics, options);
}

Document parse_document(std::string_view text, support::DiagnosticSink& diagnostics,
                        const ParseOptions& options) {
  ParseInput input;
  input.text = text;
  return parse(input, nullptr, diagnostics, options);
}

Document parse_document_offsets(const ParseInput& input, support::DiagnosticSink& diagnostics,
                                const ParseOptions& options, const OffsetWarning& warning,
                                Document&& recycled) {
  return parse(input, nullptr, diagnostics, options, &warning, std::move(recycled));
}

Document parse_document_moved(std::string&& text, support::DiagnosticSink& diagnostics,
                              const ParseOptions& options) {
  ParseInput input;
  input.text = text;
  return parse(input, &text, diagnostics, options);
}

}  // namespace wikic::parse
