// Line restoration for collapsed pages. The page is preprocessed once; a small scanner
// then walks its top-level text (headings seen through), each other node (template,
// argument, comment, extension tag, ignore) counting as one opaque byte so nothing inside
// it can be split, with table and `[[` state, and decides where MediaWiki would have
// needed a line start.
#include "preprocess/restore_lines.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace wikic::preprocess {

bool parse_restore_mode(std::string_view word, RestoreMode& mode) {
  if (word == "auto") mode = RestoreMode::Auto;
  else if (word == "always") mode = RestoreMode::Always;
  else if (word == "never") mode = RestoreMode::Never;
  else return false;
  return true;
}

namespace {
/// looks_collapsed(), noting in `newlines` (when not null) the offset of every '\n' of a
/// text it finds collapsed: restoration merges them with the ones it makes, and the text
/// is not searched for them again. `known`: the number of them, when the reader counted.
bool collapsed(std::string_view text, std::vector<std::uint32_t>* newlines_at,
               std::optional<std::size_t> known = std::nullopt) {
  // Thresholds: a real page of this size has a newline every line or so (tens of bytes);
  // one per 1000 bytes means the line structure is gone. Two mid-line table or heading
  // markers rule out long prose paragraphs, which are legitimately single lines.
  constexpr std::size_t kMinBytes = 1000;
  constexpr std::size_t kBytesPerNewline = 1000;
  constexpr std::size_t kMinMarkers = 2;
  if (text.size() < kMinBytes) return false;
  // Counting stops as soon as there are too many newlines: a normal page is decided
  // after its first few kilobytes. A page that goes on to the end has all its newlines
  // counted.
  std::size_t newlines = 0;
  const std::size_t enough = text.size() / kBytesPerNewline + 1;
  if (known && *known >= enough) return false;
  // With the count known, the search stops at the last newline: on the seed page, which
  // has none, there is no search at all (it read the whole page).
  const std::size_t wanted = known ? *known : enough;
  if (newlines_at) newlines_at->clear();
  for (const char* p = text.data(), *end = p + text.size();
       newlines < wanted && (p = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p))));
       ++p) {
    ++newlines;
    if (newlines_at) newlines_at->push_back(static_cast<std::uint32_t>(p - text.data()));
  }
  if (newlines * kBytesPerNewline > text.size()) return false;
  std::size_t markers = 0;
  for (std::string_view m : {" {| ", " |- ", " |} ", " == "}) {
    if (markers >= kMinMarkers) break;  // a search for the next marker would run on for nothing
    for (std::size_t p = text.find(m); p != std::string_view::npos && markers < kMinMarkers; p = text.find(m, p + 1))
      ++markers;
  }
  return markers >= kMinMarkers;
}
}  // namespace

bool looks_collapsed(std::string_view text) { return collapsed(text, nullptr); }

namespace {

constexpr char kPlaceholder = '\x01';

// The scanner reads the page itself, not a copy: as runs of top-level text (headings seen
// through) and opaque nodes, each node counting as one placeholder byte at its begin.
// The runs follow each other without a gap (the tree prints back to the page), so a text
// byte's place in the page is its position for the scanner too, and only a look-around
// that reaches into a node needs the runs (a copy with placeholders cost more than the
// rest of the scan but the preprocess run, and a second map back to page offsets).
struct Run {
  std::uint32_t begin;  // its span in the page
  std::uint32_t end;
  NodeId node;          // the node behind a placeholder run, kNoNode for text
};

void collect_runs(const Tree& tree, NodeId parent, std::vector<Run>& runs) {
  for (NodeId id : tree.children(parent)) {
    const Node& n = tree.node(id);
    if (n.kind == NodeKind::Text) {
      if (n.span.end == n.span.begin) continue;
      runs.push_back({n.span.begin, n.span.end, kNoNode});
    } else if (n.kind == NodeKind::Heading) {
      collect_runs(tree, id, runs);  // a heading at offset 0 would otherwise hide the whole page
    } else {
      runs.push_back({n.span.begin, n.span.end, id});
    }
  }
}

bool is_space(char c) { return c == ' ' || c == '\t'; }

// The scanner's three sets of stops, by its state: in `[[…]]` (only the brackets act), in
// a table (cell and row markers), outside one (heading and list markers).
enum StopSet : int { kLinkStops, kTableStops, kTextStops };

#ifdef __SSE2__
/// The stops of `set` among the sixteen bytes at p, one bit each. The two last sets are
/// searched case-folded (a byte ORed with 0x20), which takes '[' with '{' and \x01 with
/// '!' in one compare each; the few other bytes that fold onto a stop ('\\' onto '|',
/// '\n' onto '*', …) act as any text byte. Outside a table '!' (and the \x01 it would
/// take) acts as text too, so it is not searched there.
template <int Set>
inline unsigned stops_in_block(const char* p) {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  auto is = [](__m128i x, char c) { return _mm_cmpeq_epi8(x, _mm_set1_epi8(c)); };
  if constexpr (Set == kLinkStops)
    return static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(is(v, '['), is(v, ']'))));
  const __m128i f = _mm_or_si128(v, _mm_set1_epi8(0x20));
  if constexpr (Set == kTableStops)
    return static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(is(f, '{'), is(f, '!')), is(f, '|'))));
  return static_cast<unsigned>(
      _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(is(f, '{'), is(f, '=')), _mm_or_si128(is(f, '*'), is(f, '#')))));
}
#endif

/// Whether byte c is a stop of `set` (stops_in_block's sets, byte by byte).
inline bool is_stop(char c, int set) {
  const char f = static_cast<char>(c | 0x20);
  if (set == kLinkStops) return c == '[' || c == ']';
  if (set == kTableStops) return f == '{' || f == '!' || f == '|';
  return f == '{' || f == '=' || f == '*' || f == '#';
}

// Byte classes for looks_like_attributes, one lookup per byte: it runs on the start of
// nearly every table cell, and its chains of comparisons cost more than the rest of it.
enum : std::uint8_t { kBlank = 1, kNameChar = 2, kValueEnd = 4 };
constexpr std::array<std::uint8_t, 256> kAttributeClass = [] {
  std::array<std::uint8_t, 256> t{};
  t[' '] = t['\t'] = kBlank | kValueEnd;
  t['"'] = t['\''] = kValueEnd;
  for (int c = 0; c < 256; ++c)
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
        c == ':' || c == '.')
      t[c] |= kNameChar;
  return t;
}();

// The number of lowercase ASCII letters [p, p + 8) starts with. Attribute names are
// nearly all lowercase words (colspan, class, style, width): eight of their bytes are
// tested at once, where the byte loop cost four instructions a byte. A byte's high bit is
// set when it is a letter: adding 0x1f reaches 0x80 from 'a' up, adding 5 from '{' up.
// A byte of 0x80 or more can carry into the next one, but only after the first byte that
// is not a letter, where the count has stopped.
inline unsigned lowercase_prefix(const char* p) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  std::uint64_t x;
  std::memcpy(&x, p, 8);
  constexpr std::uint64_t ones = ~std::uint64_t{0} / 255, high = ones * 0x80;
  const std::uint64_t letters = (x + ones * (0x80 - 'a')) & ~(x + ones * (0x80 - 'z' - 1)) & ~x & high;
  const std::uint64_t others = ~letters & high;
  return others ? static_cast<unsigned>(__builtin_ctzll(others)) / 8 : 8;
#else
  (void)p;
  return 0;
#endif
}

// The quote q closing a value that starts at p, if it is before `end`, else null.
// Quoted values are a dozen bytes or two (`style="text-align:center"`): one block compare
// finds most closes, where a call to memchr cost more than a byte loop; the blocks are
// read up to `readable`, and a hit at or after `end` is no close.
inline const char* closing_quote(const char* p, const char* end, const char* readable, char q) {
#ifdef __SSE2__
  const __m128i quote = _mm_set1_epi8(q);
  for (; p + 16 <= readable && p < end; p += 16)
    if (int mask = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), quote))) {
      p += __builtin_ctz(mask);
      return p < end ? p : nullptr;
    }
#endif
  while (p < end && *p != q) ++p;
  return p < end ? p : nullptr;
}

// The attribute syntax Sanitizer accepts, loosely: name[=value] pairs. Used to tell the
// attribute separator of a cell (`| class="x" | text`) from the start of a new cell.
// [p, end) is the cell's text so far and *end the '|' after it: that byte is neither a
// blank, a name byte, '=' nor a quote, so it ends those runs without a bound check (most
// calls do match, and walk every byte of the attributes).
// `readable`: the end of the readable text, up to which a quoted value is searched sixteen
// bytes at a time (a hit at or after `end` is no close).
bool looks_like_attributes(const char* p, const char* end, const char* readable) {
  // At least one name=value pair: bare words before a '|' ("Caption text | …") are far
  // more often the end of a collapsed cell than valueless attributes.
  std::size_t names = 0, valued = 0;
  auto is = [](char c, std::uint8_t cls) { return (kAttributeClass[static_cast<unsigned char>(c)] & cls) != 0; };
  for (;;) {
    while (is(*p, kBlank)) ++p;
    if (p == end) return names > 0 && valued > 0;
    const char* start = p;
    if (readable - p >= 8) p += lowercase_prefix(p);
    while (is(*p, kNameChar)) ++p;
    if (p == start) return false;
    ++names;
    while (is(*p, kBlank)) ++p;
    if (*p == '=') {
      ++p;
      ++valued;
      while (is(*p, kBlank)) ++p;
      if (*p == '"' || *p == '\'') {
        p = closing_quote(p + 1, end, readable, *p);
        if (!p) return false;
        ++p;
      } else {
        const char* v = p;
        while (p < end && !is(*p, kValueEnd)) ++p;
        if (p == v) return false;
      }
    }
  }
}

enum class Line { Text, TableStart, Row, Caption, Cell, Header, TableEnd };

/// A line start to make in the page: the blank before it becomes the newline, or one is
/// inserted there.
struct Edit {
  std::uint32_t at;   // source offset of the byte the new line starts with
  bool blank_before;  // the blank before it becomes the newline (else one is inserted)
};

// Positions below are page offsets of the bytes the scanner sees: a text byte, or the
// begin of a node (its placeholder). The next such position after a text byte is the
// page's next offset; after a node, its end.
class Scanner {
public:
  /// `runs`: the page as collect_runs() splits it (covering it without gaps).
  /// `links`: the `[[…]]` the preprocess run took whole as text (PlainRuns::links).
  /// `out`: any array, emptied, then filled with the line starts found.
  Scanner(const Tree& tree, const std::vector<Run>& runs, const std::vector<support::Span>& links,
          std::vector<Edit>& out)
      : edits(out),
        tree_(tree),
        s_(tree.source.data()),
        size_(static_cast<std::uint32_t>(tree.source.size())),
        runs_(runs.data()),
        count_(runs.size()),
        links_taken_(links) {
    edits.clear();
  }
  // The line starts as page edits, made as each is found. In order of `at` and each once,
  // unless `unsorted` (a break made ahead of the scan, then one before it).
  std::vector<Edit>& edits;
  bool unsorted = false;
  std::size_t replaced = 0;  // edits with blank_before

  void run() {
    std::uint32_t i = 0;
    for (; r_ < count_; ++r_) {
      const Run& run = runs_[r_];
      if (i >= run.end) continue;  // stepped or jumped past
      if (run.node != kNoNode) {
        on_node(run.node, run.begin);
        i = run.end;
        continue;
      }
      // Only link brackets and the first byte of a table, heading or list marker can
      // change anything; the bytes between are skipped sixteen at a time, up to the end
      // of the text run (a node is taken above). Which of them matter depends on the
      // state: inside `[[…]]` only the brackets (nothing else acts while links_ > 0, and
      // ']' acts only then); in a table the cell and row markers; outside one the heading
      // and list markers.
      const std::uint32_t begin = run.begin, to = run.end;
      text_begin_ = begin;
      text_end_ = to;
      for (;;) {
        i = next_stop(i, to, links_ > 0 ? kLinkStops : depth_ > 0 ? kTableStops : kTextStops);
        if (i >= to) break;
        const char c = s_[i], d = i + 1 < to ? s_[i + 1] : run_after(r_);
        if (links_ > 0) {
          // The scan stopped at a bracket, and only a pair of them counts.
          if (c == d) {
            links_ += c == '[' ? 1 : -1;
            i += 2;
          } else {
            ++i;
          }
          continue;
        }
        // Each stop is decided by its own byte first; a '[', a \x01 of the page's text
        // and a byte that only folds onto a stop end as text in every case below that
        // does not match.
        if (c == kPlaceholder) {
          ++i;
          continue;
        }
        if (c == '[') {
          if (d == '[') {
            i = link(i);
          } else {
            ++i;
          }
          continue;
        }
        if (depth_ > 0 && d == c &&
            (c == '|' ? line_ == Line::Cell || line_ == Line::Header : c == '!' && line_ == Line::Header)) {
          // `||` (and `!!` in a header line) separates cells anywhere on a cell line.
          new_cell(i + 2, line_);
          i += 2;
          continue;
        }
        if (i > 0) {
          const char b = i > begin ? s_[i - 1] : before(i);
          if (!is_space(b) && b != '\n') {
            ++i;
            continue;
          }
        }
        i = at_boundary(i, c, d);  // (may leave the run: the scan from i then ends at once)
      }
    }
  }

private:
  // The first stop of `set` in [i, to), or `to`; i itself when a step has taken the scan
  // past the run's end already. Stops are far apart (one per fifty bytes or so of the
  // seed page's text), so the blocks between are searched two at a time, one test and
  // branch for thirty-two bytes, and the few bytes that end a run as one block reaching
  // past it, its bits past the run cleared (a byte loop over them cost more than the
  // blocks of the run).
  std::uint32_t next_stop(std::uint32_t i, std::uint32_t to, int set) const {
    if (i >= to) return i;
    if (set == kTableStops) return scan<kTableStops>(i, to);
    if (set == kTextStops) return scan<kTextStops>(i, to);
    return scan<kLinkStops>(i, to);
  }
  template <int Set>
  std::uint32_t scan(std::uint32_t i, std::uint32_t to) const {
    const char* const s = s_;
#ifdef __SSE2__
    while (to - i >= 32) {
      if (const unsigned m = stops_in_block<Set>(s + i) | stops_in_block<Set>(s + i + 16) << 16)
        return i + __builtin_ctz(m);
      i += 32;
    }
    if (to - i >= 16) {
      if (const unsigned m = stops_in_block<Set>(s + i)) return i + __builtin_ctz(m);
      i += 16;
    }
    if (i < to && size_ - i >= 16) {  // (never past the page)
      const unsigned m = stops_in_block<Set>(s + i) & ((1u << (to - i)) - 1);
      return m ? i + __builtin_ctz(m) : to;
    }
#endif
    for (; i < to; ++i)
      if (is_stop(s[i], Set)) return i;
    return to;
  }

  // A `[[` with nothing open. A link the preprocess run took whole as text holds no other
  // `[[` and ends at its first `]]`, so the scan in link state would only count it open
  // and closed again: it is stepped over (the page's links are a third of its stops).
  std::uint32_t link(std::uint32_t i) {
    const auto& links = links_taken_;
    while (next_link_ < links.size() && links[next_link_].begin < i) ++next_link_;
    if (next_link_ < links.size() && links[next_link_].begin == i) return links[next_link_++].end;
    ++links_;
    return i + 2;
  }
  // The byte the scanner sees after text run r, at its end: the next run's first, or a
  // placeholder, or '\0' at the end of the page.
  char run_after(std::size_t r) const {
    if (r + 1 >= count_) return '\0';
    return runs_[r + 1].node != kNoNode ? kPlaceholder : s_[runs_[r].end];
  }
  // The run holding page offset p (< size_), walked to from the scan's run: every
  // question is about a few bytes around the scan.
  std::size_t run_index(std::uint32_t p) const {
    std::size_t k = r_ < count_ ? r_ : count_ - 1;
    while (p < runs_[k].begin) --k;
    while (p >= runs_[k].end) ++k;
    return k;
  }
  // The byte the scanner sees at position p, '\0' at the end of the page.
  // Most are in the scan's own text run, which is looked at first.
  char at(std::uint32_t p) const {
    if (p - text_begin_ < text_end_ - text_begin_) return s_[p];
    if (p >= size_) return '\0';
    return runs_[run_index(p)].node != kNoNode ? kPlaceholder : s_[p];
  }
  // The byte the scanner sees before position p > 0.
  char before(std::uint32_t p) const {
    if (p - 1 - text_begin_ < text_end_ - text_begin_) return s_[p - 1];
    return runs_[run_index(p - 1)].node != kNoNode ? kPlaceholder : s_[p - 1];
  }

  // Called at nearly every table marker. The common case, a break after a byte of the
  // scan's text run (the last it entered) appended after the last, is a call that saves
  // no registers; with the rare paths (a break at a run's start, out of order, past the
  // edits' room) in it, every call saved six, and inlined into run() it made the scan
  // dearer.
  [[gnu::noinline]] void line_break(std::uint32_t at) {
    if (at - 1 - text_begin_ >= text_end_ - text_begin_ || (!edits.empty() && edits.back().at >= at) ||
        edits.size() == edits.capacity())
      return line_break_elsewhere(at);
    const char b = s_[at - 1];
    if (b == '\n') return;
    // A blank before `at` is a text byte, the page's byte before it (runs have no gaps).
    const bool blank_before = is_space(b);
    replaced += blank_before ? 1 : 0;
    edits.push_back({at, blank_before});
  }
  [[gnu::noinline]] void line_break_elsewhere(std::uint32_t at) {
    if (at == 0) return;
    const char b = before(at);
    if (b == '\n') return;
    if (!edits.empty() && edits.back().at >= at) {
      if (edits.back().at == at) return;  // found twice: one edit
      unsorted = true;
    }
    const bool blank_before = is_space(b);
    replaced += blank_before ? 1 : 0;
    edits.push_back({at, blank_before});
  }
  void new_cell(std::uint32_t content, Line kind) {
    line_ = kind;
    cell_start_ = content;
    cell_attributes_seen_ = false;
  }

  void on_node(NodeId id, std::uint32_t at) {
    const Node& n = tree_.node(id);
    if (depth_ == 0 || links_ > 0 || n.kind != NodeKind::Template) return;
    // A block-style call (`{{Name |…`, as row templates are written) directly in a table
    // expands to rows, which only work from a line start.
    const Node& title = tree_.node(n.first_child);
    std::string_view t = tree_.text(title);
    if (!t.empty() && is_space(t.back()) && title.next_sibling != kNoNode) {
      line_break(at);
      line_ = Line::Row;
    }
  }

  // Whether the cell's text so far, [cell_start_, i) with the '|' at i, is attributes.
  bool cell_attributes(std::uint32_t i) {
    const char *from = s_ + cell_start_, *end = s_ + i, *readable = s_ + size_;
    if (cell_start_ < text_begin_) {
      // The cell's text crosses a node (rare): it is looked at as the scanner sees it.
      copy_cell(i);
      from = window_.data();
      end = from + window_.size() - 1;
      readable = end + 1;
    }
    return looks_like_attributes(from, end, readable);
  }
  void copy_cell(std::uint32_t i) {
    window_.clear();
    for (std::size_t k = run_index(cell_start_); k <= r_; ++k) {
      const Run& run = runs_[k];
      if (run.node != kNoNode) {
        window_ += kPlaceholder;
      } else {
        const std::uint32_t from = std::max(cell_start_, run.begin), to = std::min(i, run.end);
        window_.append(s_ + from, to - from);
      }
    }
    window_ += '|';
  }

  // A stop after a blank (or at the start): c and d are its byte and the one after it.
  std::uint32_t at_boundary(std::uint32_t i, char c, char d) {
    if (c == '{' && d == '|') {
      line_break(i);
      ++depth_;
      line_ = Line::TableStart;
      return i + 2;
    }
    if (depth_ > 0) {
      if (c == '|') {
        // (one test of c for the row, caption, end and cell markers, the table's stops)
        switch (d) {
        case '}': {
          line_break(i);
          --depth_;
          line_ = Line::TableEnd;
          // What follows `|}` on its line (text, a tag) was on a line of its own.
          std::uint32_t k = i + 2;
          char e;
          while (is_space(e = at(k))) ++k;
          if (k < size_ && k > i + 2 && !(e == '|' || e == '{' || e == '!')) line_break(k);
          return i + 2;
        }
        case '-': {
          line_break(i);
          line_ = Line::Row;
          std::uint32_t k = i + 1;
          while (at(k) == '-') ++k;
          return k;
        }
        case '+':
          line_break(i);
          new_cell(i + 2, Line::Caption);
          return i + 2;
        case '|':
          if (line_ == Line::Cell || line_ == Line::Header) {
            new_cell(i + 2, line_);  // inline cell on the same line
          } else {
            line_break(i);
            new_cell(i + 2, Line::Cell);
          }
          return i + 2;
        default: break;
        }
        bool in_cell = line_ == Line::Cell || line_ == Line::Header || line_ == Line::Caption;
        if (in_cell && !cell_attributes_seen_ && cell_attributes(i)) {
          cell_attributes_seen_ = true;
          return i + 1;
        }
        line_break(i);
        new_cell(i + 1, Line::Cell);
        return i + 1;
      }
      if (c == '!' && d == '!' && line_ == Line::Header) {
        new_cell(i + 2, Line::Header);
        return i + 2;
      }
      if (c == '!' && (line_ == Line::Row || line_ == Line::TableStart)) {
        line_break(i);
        new_cell(i + 1, Line::Header);
        return i + 1;
      }
      return i + 1;
    }
    if (c == '=' && d == '=') return heading(i);
    if ((c == '*' || c == '#') && is_space(d) && list_item_context(i)) {
      line_break(i);
      return i + 1;
    }
    return i + 1;
  }

  // `== text ==` with matching runs of 2–6 '=' and a space inside each, within
  // kMaxHeadingBytes of what the scanner sees (a node counting as one byte).
  std::uint32_t heading(std::uint32_t i) {
    constexpr std::size_t kMaxHeadingBytes = 300;
    std::uint32_t run = 0;
    while (at(i + run) == '=') ++run;
    if (run < 2 || run > 6 || !is_space(at(i + run))) return i + run;
    // The window from i as the scanner sees it, with each byte's position and one more
    // position after the last (headings are rare: a copy is cheaper than a reader).
    window_.clear();
    positions_.clear();
    const std::size_t wanted = run + kMaxHeadingBytes + 2;
    std::uint32_t p = i;
    for (std::size_t k = run_index(i); window_.size() < wanted && p < size_;) {
      positions_.push_back(p);
      if (runs_[k].node != kNoNode) {
        window_ += kPlaceholder;
        p = runs_[k++].end;
      } else {
        window_ += s_[p++];
        if (p == runs_[k].end) ++k;
      }
    }
    positions_.push_back(p);
    const bool to_end = p >= size_;  // the window holds the rest of the page
    const std::string_view w = window_;
    const std::size_t m = w.size();
    auto w_at = [&](std::size_t k) { return k < m ? w[k] : '\0'; };
    const std::string closing(run, '=');
    const std::size_t limit = std::min<std::size_t>(m, run + kMaxHeadingBytes);
    for (std::size_t k = run + 1; k + run <= limit; ++k) {
      char c = w[k];
      if (c == '\n' || (c == '[' && w_at(k + 1) == '[') || (c == '{' && w_at(k + 1) == '|')) break;
      const bool at_end = to_end && k + run == m;
      if (is_space(w[k - 1]) && w.compare(k, run, closing) == 0 && w_at(k + run) != '=' &&
          (at_end || is_space(w_at(k + run)))) {
        line_break(i);
        if (!at_end) line_break(positions_[k + run + 1]);
        return positions_[k + run];
      }
    }
    return i + run;
  }

  // A '*' or '#' item marker: not arithmetic (`5 * 3`), so the text before it must end a
  // sentence, a tag or another item.
  bool list_item_context(std::uint32_t i) const {
    std::uint32_t k = i;
    while (k > 0 && is_space(before(k))) --k;
    if (k == 0) return true;
    char p = before(k);
    return p == '>' || p == '.' || p == ':' || p == kPlaceholder;
  }

  const Tree& tree_;
  const char* const s_;
  const std::uint32_t size_;
  const Run* const runs_;
  const std::size_t count_;
  const std::vector<support::Span>& links_taken_;
  std::size_t next_link_ = 0;  // the first of links_taken_ not yet behind the scan
  std::size_t r_ = 0;          // the run the scan is in
  std::uint32_t text_begin_ = 0, text_end_ = 0;  // the last text run it entered
  int depth_ = 0;
  int links_ = 0;
  Line line_ = Line::Text;
  std::uint32_t cell_start_ = 0;
  bool cell_attributes_seen_ = false;
  // Scratch for the rare look-arounds that cross a node.
  std::string window_;
  std::vector<std::uint32_t> positions_;
};

}  // namespace

namespace {

// restore_lines on a page found collapsed. With `in_place` (the string `text` views),
// the restored text replaces it there and the result's text stays empty.
/// `own_newlines`: every '\n' of `text`, when collapsed() found them (else null).
RestoreResult restore(std::string_view text, const Options& options, const DiagnosticTarget& diagnostics,
                      std::string* in_place, const std::vector<std::uint32_t>* own_newlines) {
  RestoreResult result;
  Options quiet = options;
  quiet.report_unclosed = false;  // the real preprocess run reports them
  // The tree and the runs are scratch: their storage is kept for the thread's next page
  // rather than allocated (a few hundred KB on a long page) and freed every time.
  thread_local Tree spare_tree;
  thread_local std::vector<Run> spare_runs;
  Tree tree = preprocess(text, quiet, {}, std::move(spare_tree), nullptr, &result.plain_runs);
  std::vector<Run> runs = std::move(spare_runs);
  runs.clear();
  collect_runs(tree, tree.root, runs);
  thread_local std::vector<Edit> spare_edits;
  std::vector<Edit> edits = std::move(spare_edits);
  Scanner scanner(tree, runs, result.plain_runs.links, edits);
  scanner.run();
  result.replaced = scanner.replaced;
  if (scanner.unsorted) {
    // Rare enough that sorting then, rather than checking for it after every page, pays.
    std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.at < b.at; });
    edits.erase(std::unique(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.at == b.at; }),
                edits.end());
    result.replaced = 0;
    for (const Edit& e : edits) result.replaced += e.blank_before ? 1 : 0;
  }
  const std::size_t count = edits.size();
  result.inserted = count - result.replaced;
  if (result.inserted == 0) {
    // The restored text's newlines are the page's own (a collapsed page has almost none)
    // and the blanks just turned into newlines, both in order: merged, they spare the
    // restored page's preprocess run and line index a scan for them. (A blank turned
    // into a newline is never one of the page's own.)
    thread_local std::vector<std::uint32_t> searched;
    const std::vector<std::uint32_t>* own = own_newlines;
    if (!own) {
      searched.clear();
      for (const char *p = text.data(), *end = p + text.size();
           (p = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)))); ++p)
        searched.push_back(static_cast<std::uint32_t>(p - text.data()));
      own = &searched;
    }
    std::vector<std::uint32_t>& newlines = result.plain_runs.newlines;
    newlines.resize(edits.size() + own->size());
    // Restored in place, the blanks become newlines in the same pass (only blanks do: the
    // seed page's case, offsets stay and nothing is copied; the tree and the runs
    // viewing `text` are not read again). Raw pointers: through the vectors, every store
    // made the compiler load their bounds again.
    char* const bytes = in_place ? in_place->data() : nullptr;
    std::uint32_t* out = newlines.data();
    const Edit* e = edits.data();
    const Edit* const edits_end = e + edits.size();
    auto take = [&](const Edit* edit) {
      *out++ = edit->at - 1;
      if (bytes) bytes[edit->at - 1] = '\n';
    };
    for (const std::uint32_t own_at : *own) {
      for (; e != edits_end && e->at - 1 < own_at; ++e) take(e);
      *out++ = own_at;
    }
    for (; e != edits_end; ++e) take(e);
    result.plain_runs.newlines_known = result.plain_runs.recorded;
  }
  if (!in_place || result.inserted > 0) {  // (else done above, with the newlines)
    std::string out;
    out.reserve(text.size() + result.inserted);
    std::size_t copied = 0;
    for (const Edit& e : edits) {
      out.append(text.substr(copied, e.at - (e.blank_before ? 1 : 0) - copied));
      out += '\n';
      copied = e.at;
    }
    out.append(text.substr(copied));
    if (in_place) *in_place = std::move(out);
    else result.text = std::move(out);
  }
  result.restored = true;
  if (result.inserted > 0) result.plain_runs = {};
  spare_runs = std::move(runs);
  spare_edits = std::move(edits);
  spare_tree = std::move(tree);
  // Restored in place with nothing inserted, the page is the text this tree was built
  // on: the run over the restored page takes its templates from it, and its node arena
  // with them (the tree is left empty). That run checks the tree is of its very text
  // (same bytes in place, same size): the lent pointer says nothing about content, so
  // nothing may rewrite the page between restoration and that run.
  if (in_place && result.plain_runs.recorded) result.plain_runs.tree = &spare_tree;
  if (diagnostics.sink)
    diagnostics.sink->warning(diagnostics.file, {1, 1},
                              "page text has its newlines collapsed into spaces; restored " +
                                  std::to_string(result.replaced + result.inserted) + " line breaks (" +
                                  std::to_string(result.inserted) + " inserted)");
  return result;
}

}  // namespace

RestoreResult restore_lines(std::string_view text, RestoreMode mode, const Options& options,
                            const DiagnosticTarget& diagnostics) {
  thread_local std::vector<std::uint32_t> own_newlines;
  if (mode == RestoreMode::Never || (mode == RestoreMode::Auto && !collapsed(text, &own_newlines))) {
    RestoreResult result;
    result.text = std::string(text);
    return result;
  }
  return restore(text, options, diagnostics, nullptr, mode == RestoreMode::Auto ? &own_newlines : nullptr);
}

RestoreResult restore_lines_in_place(std::string& text, RestoreMode mode, const Options& options,
                                     const DiagnosticTarget& diagnostics, std::optional<std::size_t> newlines) {
  thread_local std::vector<std::uint32_t> own_newlines;
  if (mode == RestoreMode::Never || (mode == RestoreMode::Auto && !collapsed(text, &own_newlines, newlines)))
    return {};
  return restore(text, options, diagnostics, &text, mode == RestoreMode::Auto ? &own_newlines : nullptr);
}

}  // namespace wikic::preprocess
