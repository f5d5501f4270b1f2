// Line restoration for collapsed pages. The page is preprocessed once; its top-level
// text (headings seen through) is flattened with every other node (template, argument,
// comment, extension tag, ignore) as one opaque placeholder, so nothing inside them can
// be split. A small scanner then walks the flat text with table and `[[` state and
// decides where MediaWiki would have needed a line start.
#include "preprocess/restore_lines.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "support/scan.hpp"

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
/// is not searched for them again.
bool collapsed(std::string_view text, std::vector<std::uint32_t>* newlines_at) {
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
  if (newlines_at) newlines_at->clear();
  for (const char* p = text.data(), *end = p + text.size();
       newlines < enough && (p = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p))));
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

// The flat text is kept as runs, not per byte: a page is mostly long text runs, and a
// per-byte source offset and node id made flattening cost more than the scan itself.
struct Run {
  std::uint32_t flat;    // first flat position of the run
  std::uint32_t source;  // its source offset (the node's begin for a placeholder)
  NodeId node;           // the node behind a one-byte placeholder run, kNoNode for text
};

struct Flat {
  std::string chars;      // text bytes, kPlaceholder for an opaque node
  std::vector<Run> runs;  // in flat order; runs[0].flat == 0

  /// The run holding flat position k (the scanner walks to most from the last it found).
  const Run& run_at(std::size_t k) const {
    auto it = std::upper_bound(runs.begin(), runs.end(), k, [](std::size_t v, const Run& r) { return v < r.flat; });
    return *(it - 1);
  }
};

void flatten(const Tree& tree, NodeId parent, Flat& flat) {
  for (NodeId id : tree.children(parent)) {
    const Node& n = tree.node(id);
    auto here = static_cast<std::uint32_t>(flat.chars.size());
    if (n.kind == NodeKind::Text) {
      if (n.span.end == n.span.begin) continue;
      flat.runs.push_back({here, n.span.begin, kNoNode});
      flat.chars.append(tree.source.substr(n.span.begin, n.span.end - n.span.begin));
    } else if (n.kind == NodeKind::Heading) {
      flatten(tree, id, flat);  // a heading at offset 0 would otherwise hide the whole page
    } else {
      flat.runs.push_back({here, n.span.begin, id});
      flat.chars += kPlaceholder;
    }
  }
}

bool is_space(char c) { return c == ' ' || c == '\t'; }

/// Offset of the first byte in [from, to) that ORed with 0x20 equals one of `Cs`, or `to`.
template <char... Cs>
inline std::uint32_t scan_folded(const char* base, std::uint32_t from, std::uint32_t to) {
#ifdef __SSE2__
  const __m128i fold = _mm_set1_epi8(0x20);
  while (from + 16 <= to) {
    __m128i v = _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(base + from)), fold);
    __m128i hit = _mm_setzero_si128();
    ((hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v, _mm_set1_epi8(Cs)))), ...);
    if (int mask = _mm_movemask_epi8(hit)) return from + static_cast<std::uint32_t>(__builtin_ctz(mask));
    from += 16;
  }
#endif
  while (from < to && (((base[from] | 0x20) != Cs) && ...)) ++from;
  return from;
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

// The attribute syntax Sanitizer accepts, loosely: name[=value] pairs. Used to tell the
// attribute separator of a cell (`| class="x" | text`) from the start of a new cell.
// [p, end) is the cell's text so far and *end the '|' after it: that byte is neither a
// blank, a name byte, '=' nor a quote, so it ends those runs without a bound check (most
// calls do match, and walk every byte of the attributes).
// `readable`: the end of the flat text, up to which a quoted value is searched sixteen
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
    while (is(*p, kNameChar)) ++p;
    if (p == start) return false;
    ++names;
    while (is(*p, kBlank)) ++p;
    if (*p == '=') {
      ++p;
      ++valued;
      while (is(*p, kBlank)) ++p;
      if (*p == '"' || *p == '\'') {
        // Quoted values are a dozen bytes or two (`style="text-align:center"`): one block
        // compare finds most closes, where a call to memchr cost more than a byte loop.
        const char q = *p++;
#ifdef __SSE2__
        const __m128i quote = _mm_set1_epi8(q);
        for (; p + 16 <= readable && p < end; p += 16) {
          __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
          if (int mask = _mm_movemask_epi8(_mm_cmpeq_epi8(v, quote))) {
            p += __builtin_ctz(mask);
            break;
          }
        }
        if (p >= end) return false;
#endif
        while (p < end && *p != q) ++p;
        if (p == end) return false;
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

class Scanner {
public:
  /// `links`: the `[[…]]` the preprocess run took whole as text (PlainRuns::links).
  /// `out`: any array, emptied, then filled with the line starts found.
  Scanner(const Tree& tree, const Flat& flat, const std::vector<support::Span>& links, std::vector<Edit>& out)
      : edits(out), tree_(tree), f_(flat.chars), flat_(flat), links_taken_(links) {
    edits.clear();
  }
  // The line starts as page edits, made as each is found: turning flat positions into
  // source offsets in a pass of their own cost as much per break as finding it. In order
  // of `at` and each once, unless `unsorted` (a break made ahead of the scan, then one
  // before it; a flat position and the source offset it maps to order alike).
  std::vector<Edit>& edits;
  bool unsorted = false;
  std::size_t replaced = 0;  // edits with blank_before

  void run() {
    std::size_t n = f_.size();
    std::size_t i = 0;
    while (i < n) {
      // Only placeholders, link brackets and the first byte of a table, heading or list
      // marker can change anything; the bytes between are skipped sixteen at a time. Which
      // of them matter depends on the state: inside `[[…]]` only the brackets (nothing
      // else acts while links_ > 0, and ']' acts only then); in a table the cell and
      // row markers; outside one the heading and list markers.
      // The two last sets are searched case-folded (a byte ORed with 0x20), which takes
      // '[' with '{' and the placeholder with '!' in one compare each; the few other bytes
      // that fold onto a stop ('\\' onto '|', '\n' onto '*', …) act as any text byte.
      const auto from = static_cast<std::uint32_t>(i), to = static_cast<std::uint32_t>(n);
      if (links_ > 0)
        i = support::scan_for<'[', ']'>(f_.data(), from, to);
      else if (depth_ > 0)
        i = scan_folded<'{', '!', '|'>(f_.data(), from, to);
      else
        i = scan_folded<'{', '!', '=', '*', '#'>(f_.data(), from, to);
      if (i >= n) break;
      // f_[n] is the string's '\0': the byte after a stop is read without a bound check.
      const char c = f_[i], d = f_[i + 1];
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
      // Each stop is decided by its own byte first; a placeholder, a '[' and a byte that
      // only folds onto a stop end as text in every case below that does not match.
      if (c == kPlaceholder) {
        // A literal \x01 in the page is text: only flat positions made for a node count.
        if (const Run& run = run_from(run_, i); run.node != kNoNode) on_node(run.node, i);
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
      if (i > 0 && !is_space(f_[i - 1]) && f_[i - 1] != '\n') {
        ++i;
        continue;
      }
      i = at_boundary(i, c, d);
    }
  }

private:
  // A `[[` with nothing open. A link the preprocess run took whole as text holds no other
  // `[[` and ends at its first `]]`, so the scan in link state would only count it open
  // and closed again: it is stepped over (the page's links are a third of its stops).
  std::size_t link(std::size_t i) {
    const auto& links = links_taken_;
    if (next_link_ < links.size()) {
      const Run& run = run_from(run_, i);
      const std::uint32_t source = run.source + static_cast<std::uint32_t>(i - run.flat);
      while (next_link_ < links.size() && links[next_link_].begin < source) ++next_link_;
      // Such a link is text inside one top-level text run, where flat and source
      // offsets advance together.
      if (next_link_ < links.size() && links[next_link_].begin == source) {
        const support::Span& taken = links[next_link_++];
        return i + (taken.end - taken.begin);
      }
    }
    ++links_;
    return i + 2;
  }
  // The run holding flat position k, walked to from `cursor` (the run of the last
  // question of its kind): the scan asks in increasing order, and so do the breaks, a
  // little ahead of it at times. A binary search per question cost more than the walk.
  // The runs are held as a pointer and the last run's index, not read through the vector:
  // the edits pushed between questions may alias it for the compiler, which reloaded both.
  const Run& run_from(std::size_t& cursor, std::size_t k) const {
    const Run* runs = runs_;
    if (k < runs[cursor].flat) cursor = static_cast<std::size_t>(&flat_.run_at(k) - runs);
    while (cursor < last_run_ && runs[cursor + 1].flat <= k) ++cursor;
    return runs[cursor];
  }
  char at(std::size_t k) const { return k < f_.size() ? f_[k] : '\0'; }
  void line_break(std::size_t k) {
    if (k == 0 || f_[k - 1] == '\n') return;
    const Run& run = run_from(run_, k);
    const std::uint32_t at = run.node == kNoNode ? run.source + static_cast<std::uint32_t>(k - run.flat) : run.source;
    if (!edits.empty() && edits.back().at >= at) {
      if (edits.back().at == at) return;  // found twice: one edit
      unsorted = true;
    }
    // The blank before k is the page's byte before `at` when both are in one text run
    // (a placeholder run is one byte: k is then its start), or the last of the text run
    // before and adjacent to it in the page.
    bool blank_before = false;
    if (is_space(f_[k - 1])) {
      if (k > run.flat) {
        blank_before = true;
      } else {
        const Run& before = (&run)[-1];
        blank_before = before.node == kNoNode && before.source + (k - 1 - before.flat) + 1 == at;
      }
    }
    edits.push_back({at, blank_before});
    replaced += blank_before ? 1 : 0;
  }
  void new_cell(std::size_t content, Line kind) {
    line_ = kind;
    cell_start_ = content;
    cell_attributes_seen_ = false;
  }

  void on_node(NodeId id, std::size_t k) {
    const Node& n = tree_.node(id);
    if (depth_ == 0 || links_ > 0 || n.kind != NodeKind::Template) return;
    // A block-style call (`{{Name |…`, as row templates are written) directly in a table
    // expands to rows, which only work from a line start.
    const Node& title = tree_.node(n.first_child);
    std::string_view t = tree_.text(title);
    if (!t.empty() && is_space(t.back()) && title.next_sibling != kNoNode) {
      line_break(k);
      line_ = Line::Row;
    }
  }

  // A stop after a blank (or at the start): c and d are its byte and the one after it.
  std::size_t at_boundary(std::size_t i, char c, char d) {
    if (c == '{' && d == '|') {
      line_break(i);
      ++depth_;
      line_ = Line::TableStart;
      return i + 2;
    }
    if (depth_ > 0) {
      if (c == '|' && d == '}') {
        line_break(i);
        --depth_;
        line_ = Line::TableEnd;
        // What follows `|}` on its line (text, a tag) was on a line of its own.
        std::size_t k = i + 2;
        while (k < f_.size() && is_space(f_[k])) ++k;
        if (k < f_.size() && k > i + 2 && !(f_[k] == '|' || f_[k] == '{' || f_[k] == '!')) line_break(k);
        return i + 2;
      }
      if (c == '|' && d == '-') {
        line_break(i);
        line_ = Line::Row;
        std::size_t k = i + 1;
        while (at(k) == '-') ++k;
        return k;
      }
      if (c == '|' && d == '+') {
        line_break(i);
        new_cell(i + 2, Line::Caption);
        return i + 2;
      }
      if (c == '|' && d == '|') {
        if (line_ == Line::Cell || line_ == Line::Header) {
          new_cell(i + 2, line_);  // inline cell on the same line
        } else {
          line_break(i);
          new_cell(i + 2, Line::Cell);
        }
        return i + 2;
      }
      if (c == '|') {
        bool in_cell = line_ == Line::Cell || line_ == Line::Header || line_ == Line::Caption;
        if (in_cell && !cell_attributes_seen_ &&
            looks_like_attributes(f_.data() + cell_start_, f_.data() + i, f_.data() + f_.size())) {
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

  // `== text ==` with matching runs of 2–6 '=' and a space inside each.
  std::size_t heading(std::size_t i) {
    constexpr std::size_t kMaxHeadingBytes = 300;
    std::size_t run = 0;
    while (at(i + run) == '=') ++run;
    if (run < 2 || run > 6 || !is_space(at(i + run))) return i + run;
    std::string closing(run, '=');
    std::size_t limit = std::min(f_.size(), i + run + kMaxHeadingBytes);
    for (std::size_t k = i + run + 1; k + run <= limit; ++k) {
      char c = f_[k];
      if (c == '\n' || (c == '[' && at(k + 1) == '[') || (c == '{' && at(k + 1) == '|')) break;
      if (is_space(f_[k - 1]) && f_.compare(k, run, closing) == 0 && at(k + run) != '=' &&
          (k + run == f_.size() || is_space(at(k + run)))) {
        line_break(i);
        if (k + run < f_.size()) line_break(k + run + 1);
        return k + run;
      }
    }
    return i + run;
  }

  // A '*' or '#' item marker: not arithmetic (`5 * 3`), so the text before it must end a
  // sentence, a tag or another item.
  bool list_item_context(std::size_t i) const {
    std::size_t k = i;
    while (k > 0 && is_space(f_[k - 1])) --k;
    if (k == 0) return true;
    char p = f_[k - 1];
    return p == '>' || p == '.' || p == ':' || p == kPlaceholder;
  }

  const Tree& tree_;
  const std::string& f_;
  const Flat& flat_;
  const std::vector<support::Span>& links_taken_;
  // (Not empty whenever the scan asks: a stop is a byte of the flat text, so a run.)
  const Run* const runs_ = flat_.runs.data();
  const std::size_t last_run_ = flat_.runs.size() - 1;
  std::size_t next_link_ = 0;  // the first of links_taken_ not yet behind the scan
  // The run of the last placeholder, `[[` or line break: one cursor for both walks over
  // the runs. A break made ahead of the scan (rare) sends the next question back to a
  // binary search.
  std::size_t run_ = 0;
  int depth_ = 0;
  int links_ = 0;
  Line line_ = Line::Text;
  std::size_t cell_start_ = 0;
  bool cell_attributes_seen_ = false;
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
  // The tree and the flat text are scratch: their storage is kept for the thread's next
  // page rather than allocated (a few hundred KB on a long page) and freed every time.
  thread_local Tree spare_tree;
  thread_local Flat spare_flat;
  Tree tree = preprocess(text, quiet, {}, std::move(spare_tree), nullptr, &result.plain_runs);
  Flat flat = std::move(spare_flat);
  flat.chars.clear();
  flat.runs.clear();
  flat.chars.reserve(text.size());
  flatten(tree, tree.root, flat);
  thread_local std::vector<Edit> spare_edits;
  std::vector<Edit> edits = std::move(spare_edits);
  Scanner scanner(tree, flat, result.plain_runs.links, edits);
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
    // seed page's case, offsets stay and nothing is copied; the tree and flat text
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
  spare_flat = std::move(flat);
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
                                     const DiagnosticTarget& diagnostics) {
  thread_local std::vector<std::uint32_t> own_newlines;
  if (mode == RestoreMode::Never || (mode == RestoreMode::Auto && !collapsed(text, &own_newlines))) return {};
  return restore(text, options, diagnostics, &text, mode == RestoreMode::Auto ? &own_newlines : nullptr);
}

}  // namespace wikic::preprocess
