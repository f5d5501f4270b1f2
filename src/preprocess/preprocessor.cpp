// The preprocessor proper: one left-to-right pass with an explicit stack of open pieces,
// following MediaWiki 1.39's Preprocessor_Hash::buildDomTreeArrayFromText decision by
// decision, so the tree equals MediaWiki's for every input (checked against MediaWiki in
// the differential corpus). Accumulators are linked lists in the node arena, so the
// splices MediaWiki does with array_splice cost O(1) here and the pass stays linear.
#include "preprocess/preprocessor.hpp"

#include <algorithm>
#include <array>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "grammar/xmlish.hpp"
#include "support/scan.hpp"

namespace wikic::preprocess {

const char* to_string(NodeKind kind) {
  switch (kind) {
  case NodeKind::Root: return "root";
  case NodeKind::Text: return "text";
  case NodeKind::Template: return "template";
  case NodeKind::Argument: return "tplarg";
  case NodeKind::Title: return "title";
  case NodeKind::Part: return "part";
  case NodeKind::Name: return "name";
  case NodeKind::Equals: return "equals";
  case NodeKind::Value: return "value";
  case NodeKind::Comment: return "comment";
  case NodeKind::Ignore: return "ignore";
  case NodeKind::ExtensionTag: return "ext";
  case NodeKind::Heading: return "h";
  }
  return "?";
}

const std::vector<std::string>& default_extension_tags() {
  static const std::vector<std::string> tags{"nowiki",  "pre",        "translate", "tvar",    "languages",
                                             "ref",     "references", "gallery",   "section", "math",
                                             "syntaxhighlight", "source", "poem"};
  return tags;
}

const std::vector<std::string>& oracle_extension_tags() {
  static const std::vector<std::string> tags{"pre", "nowiki", "gallery", "indicator", "langconvert"};
  return tags;
}

namespace {

using support::Span;

// Linked list of sibling nodes: MediaWiki's accumulator array.
struct Accum {
  NodeId head = kNoNode;
  NodeId tail = kNoNode;
};

// PPDPart_Hash: one `|`-separated part of an open piece.
struct PartState {
  Accum out;
  std::uint32_t begin = 0;       // first byte of the part (after the '|' or the opening)
  NodeId eq_node = kNoNode;      // the Equals node (MediaWiki's eqpos)
  NodeId before_eq = kNoNode;    // last node of the name, kNoNode if the name is empty
  bool has_comment_end = false;  // commentEnd / visualEnd, used to find heading ends
  std::uint32_t comment_end = 0;
  std::uint32_t visual_end = 0;
};

enum class Open : std::uint8_t { Brace, Bracket, LangConversion, Heading };

// PPDStackElement_Hash.
struct Piece {
  Open open;
  std::uint32_t count;  // opening characters still unmatched ("-{" counts as 2)
  std::uint32_t start;  // first of them (the '-' of "-{"); excludes a saved '-' prefix
  bool saved_prefix;    // a '-' before `{{` that was not language conversion after all
  bool line_start;
  std::uint32_t parts_begin;  // index of this piece's first part in Builder::parts_
};

enum Closing : std::uint8_t { kCloseNone, kCloseBrace, kCloseBracket, kCloseLangConversion, kCloseLine };

// Stop characters per (closing, findPipe, findEquals): strcspn's search set. They depend
// on nothing but language_conversion, so they are built once per process rather than by
// every Builder (a page's two runs and each template's made them anew).
struct StopTables {
  std::array<std::array<bool, 256>, 5 * 4> stops{};

  explicit StopTables(bool language_conversion) {
    for (int closing = 0; closing < 5; ++closing)
      for (int flags = 0; flags < 4; ++flags) {
        auto& t = stops[closing * 4 + flags];
        for (unsigned char c : std::string_view("[{<\n")) t[c] = true;
        if (language_conversion) t['-'] = true;
        if (closing == kCloseBrace) t['}'] = true;
        if (closing == kCloseBracket) t[']'] = true;
        if (closing == kCloseLangConversion) t['}'] = t['-'] = true;
        if (flags & 1) t['|'] = true;
        if (flags & 2) t['='] = true;
      }
  }
};

const StopTables& stop_tables(bool language_conversion) {
  static const StopTables with(true), without(false);
  return language_conversion ? with : without;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

// The element names the '<' rule looks for (Preprocessor_Hash's xmlishElements and
// ignoredTags) and the tables that settle most '<' without parsing a name. They depend
// on the extension tags and the mode alone, so they are built once for each and shared
// by every run (built by each Builder, they cost a page's two runs ~11 K instructions
// each).
struct TagTables {
  std::vector<std::string> extension_tags;  // Options::extension_tags, as given: the key
  bool for_inclusion;
  std::vector<std::string> xmlish, ignored_tags, ignored_elements;
  // First bytes (either case) of the names in xmlish and ignored_tags: after any other
  // byte, '<' is text or a comment, known without parsing a name (most '<' in pages
  // open HTML tags, which the preprocessor leaves alone).
  std::array<bool, 256> element_first{};
  std::array<bool, 256> element_after_slash{};  // the same for the byte after a leading '/'
  // Bytes that end an element name (xmlish's name_char is every other byte).
  std::array<bool, 256> name_stop{};
  // Lengths (bit n: n bytes, bit 63: 63 or more) of those names by first byte: `<span`
  // and `<td` are rejected without comparing against every extension tag name.
  std::array<std::uint64_t, 256> name_lengths{};
  // The first two bytes (either case) of those names, a bit per pair (first byte low,
  // as they lie in memory): `<span` and `<li` share a first byte with a tag (`<section`,
  // `<languages`) but not a second, and are the most frequent '<' of a page. A one-byte
  // name allows every second byte.
  std::array<std::uint64_t, 65536 / 64> element_pairs{};
  // The same pairs and every pair after '!' (a comment may open): the two bytes after a
  // '<' missing here make it text, settled by the stop scan with one test.
  std::array<std::uint64_t, 65536 / 64> angle_pairs{};

  TagTables(const std::vector<std::string>& tags, bool inclusion) : extension_tags(tags), for_inclusion(inclusion) {
    for (const auto& tag : tags) xmlish.push_back(lower(tag));
    if (inclusion) {
      // Preprocessor_Hash: for inclusion <includeonly> tags vanish and <noinclude> hides.
      ignored_tags = {"includeonly", "/includeonly"};
      ignored_elements = {"noinclude"};
      xmlish.push_back("noinclude");
    } else {
      ignored_tags = {"noinclude", "/noinclude", "onlyinclude", "/onlyinclude"};
      ignored_elements = {"includeonly"};
      xmlish.push_back("includeonly");
    }
    for (const auto* list : {&xmlish, &ignored_tags})
      for (const std::string& name : *list) {
        if (name.empty()) continue;
        bool slash = name[0] == '/' && name.size() > 1;
        auto c = static_cast<unsigned char>(name[slash ? 1 : 0]);
        auto& table = slash ? element_after_slash : element_first;
        table[c] = true;
        if (c >= 'a' && c <= 'z') table[c - 'a' + 'A'] = true;
        auto first = static_cast<unsigned char>(name[0]);
        std::uint64_t length_bit = std::uint64_t{1} << std::min<std::size_t>(name.size(), 63);
        name_lengths[first] |= length_bit;
        if (first >= 'a' && first <= 'z') name_lengths[first - 'a' + 'A'] |= length_bit;
        if (name == "/") element_after_slash.fill(true);
        auto cases = [](unsigned char b) {
          return std::array<unsigned char, 2>{b, b >= 'a' && b <= 'z' ? static_cast<unsigned char>(b - 'a' + 'A') : b};
        };
        for (unsigned char b0 : cases(first)) {
          if (name.size() == 1) {
            for (int b1 = 0; b1 < 256; ++b1) mark_pair(b0, static_cast<unsigned char>(b1));
          } else {
            for (unsigned char b1 : cases(static_cast<unsigned char>(name[1]))) mark_pair(b0, b1);
          }
        }
      }
    for (int c = 0; c < 256; ++c)
      if (element_after_slash[c]) element_first['/'] = true;
    angle_pairs = element_pairs;
    for (unsigned b1 = 0; b1 < 256; ++b1) set_pair(angle_pairs, '!', static_cast<unsigned char>(b1));
    for (unsigned char c : std::string_view(" \t\n\r\f\v/>")) name_stop[c] = true;
  }

  bool may_have_length(char first, std::size_t length) const {
    return (name_lengths[static_cast<unsigned char>(first)] >> std::min<std::size_t>(length, 63)) & 1;
  }
  static unsigned pair_of(const char* first) {
    return static_cast<unsigned char>(first[0]) | static_cast<unsigned>(static_cast<unsigned char>(first[1])) << 8;
  }
  static void set_pair(std::array<std::uint64_t, 65536 / 64>& pairs, unsigned char b0, unsigned char b1) {
    const unsigned pair = b0 | unsigned{b1} << 8;
    pairs[pair / 64] |= std::uint64_t{1} << (pair % 64);
  }
  static bool has_pair(const std::uint64_t* pairs, unsigned pair) { return (pairs[pair / 64] >> (pair % 64)) & 1; }
  void mark_pair(unsigned char b0, unsigned char b1) { set_pair(element_pairs, b0, b1); }
  bool may_be_pair(const char* first) const { return has_pair(element_pairs.data(), pair_of(first)); }
  // False when no element name in xmlish or ignored_tags can start at `first` (just
  // after a '<'): by its first byte (or the byte after a '/'), or by the length of the
  // name xmlish_open would match, counted up to 65. Most '<' in pages open HTML tags, and
  // this settles them without running the tag rule.
  bool may_be_element(const char* first, const char* last) const {
    if (first + 1 < last && !may_be_pair(first)) return false;
    if (first >= last || !element_first[static_cast<unsigned char>(*first)]) return false;
    if (*first == '/' && !(first + 1 < last && element_after_slash[static_cast<unsigned char>(first[1])]))
      return false;
    const char* p = *first == '/' ? first + 1 : first;
    const char* cap = last - p > 64 ? p + 64 : last;
    while (p < cap && !name_stop[static_cast<unsigned char>(*p)]) ++p;
    auto length = static_cast<std::size_t>(p - first);
    return (p < last ? name_stop[static_cast<unsigned char>(*p)] : true) && length <= 64 &&
           may_have_length(*first, length);
  }
};

// The tables for `options`. Each thread keeps its own few (the pipeline preprocesses on
// several threads; a run never waits on a lock), the most recent first. A Builder holds
// its tables, so dropping the oldest past a handful of tag lists never frees one in use.
std::shared_ptr<const TagTables> tag_tables(const Options& options) {
  thread_local std::vector<std::shared_ptr<const TagTables>> cache;
  for (std::size_t k = 0; k < cache.size(); ++k) {
    const TagTables& t = *cache[k];
    if (t.for_inclusion == options.for_inclusion && t.extension_tags == options.extension_tags) {
      if (k > 0) std::swap(cache[k], cache[0]);
      return cache[0];
    }
  }
  constexpr std::size_t kKept = 8;
  if (cache.size() == kKept) cache.pop_back();
  cache.insert(cache.begin(), std::make_shared<const TagTables>(options.extension_tags, options.for_inclusion));
  return cache[0];
}

class Builder {
public:
  Builder(std::string_view text, const Options& options, const DiagnosticTarget& diagnostics, Tree&& recycled,
          const PlainRuns* known, PlainRuns* record)
      : s_(text.data()), n_(static_cast<std::uint32_t>(text.size())), options_(options), diag_(diagnostics),
        tree_(std::move(recycled)), tag_holder_(tag_tables(options)), tags_(*tag_holder_),
        tables_(stop_tables(options.language_conversion)) {
    tree_.nodes.clear();
    tree_.extension_tags.clear();
    tree_.root = kNoNode;
    tree_.source = text;
    tree_.for_inclusion = options.for_inclusion;
    tree_.nodes.reserve(n_ / 64 + 16);  // the seed page has one node per ~80 bytes
    if (options.for_inclusion) {
      enable_onlyinclude_ = text.find("<onlyinclude>") != std::string_view::npos &&
                            text.find("</onlyinclude>") != std::string_view::npos;
      find_onlyinclude_ = enable_onlyinclude_;  // hide everything before the first <onlyinclude>
    }
    if (!options.for_inclusion) {
      if (record) {
        record->spans.clear();
        record->links.clear();
        record->source_size = n_;
        record->extension_tags = options.extension_tags;
        record->language_conversion = options.language_conversion;
        record->recorded = true;
        record->newlines.clear();
        record->newlines_known = false;  // restoration adds them once it has made them
        record->tree = nullptr;           // restoration lends it once the run is over
        record->depth_limited = false;
        record->headings = 0;
        record_ = record;
      }
      if (known && usable(*known)) {
        known_ = known;
        if (known->newlines_known) known_newlines_ = &known->newlines;
        line_equals_ = find_line_equals(0);
        // The tree must be of this very text (restored in place, so its offsets hold),
        // and built without the depth limit cutting anything: a node taken from its top
        // level, with nothing open here either, then never meets the limit inside (this
        // run may still meet it elsewhere, under a heading a restored newline opened).
        // Its arena becomes this tree's: the nodes taken stay where they are, the others
        // are left unlinked.
        Tree* t = known->tree;
        if (t && !known->depth_limited && t->source.data() == text.data() && t->source.size() == n_ &&
            t->root < t->nodes.size() && !t->for_inclusion) {
          known_child_ = t->nodes[t->root].first_child;
          known_headings_ = known->headings;
          tree_.nodes.swap(t->nodes);
          tree_.extension_tags.swap(t->extension_tags);
          t->root = kNoNode;
          taking_nodes_ = known_child_ != kNoNode;
        }
      }
    }
  }

  Tree run();

private:
  // --- arena and accumulators ---
  NodeId make(NodeKind kind, std::uint32_t b, std::uint32_t e) {
    Node node;
    node.kind = kind;
    node.span = {b, e};
    tree_.nodes.push_back(node);
    return static_cast<NodeId>(tree_.nodes.size() - 1);
  }
  Node& at(NodeId id) { return tree_.nodes[id]; }
  void append(Accum& a, NodeId id) {
    if (a.head == kNoNode)
      a.head = id;
    else
      at(a.tail).next_sibling = id;
    a.tail = id;
  }
  // Preprocessor_Hash::addLiteral; we merge only text that is adjacent in the source,
  // which keeps every Text node a single span (MediaWiki's XML cannot tell the difference).
  void add_literal(Accum& a, std::uint32_t b, std::uint32_t e) {
    if (b >= e) return;
    if (a.tail != kNoNode && at(a.tail).kind == NodeKind::Text && at(a.tail).span.end == b) {
      at(a.tail).span.end = e;
      return;
    }
    append(a, make(NodeKind::Text, b, e));
  }
  void splice(Accum& dst, Accum src) {
    if (src.head == kNoNode) return;
    if (dst.tail != kNoNode && at(dst.tail).kind == NodeKind::Text && at(src.head).kind == NodeKind::Text &&
        at(dst.tail).span.end == at(src.head).span.begin) {
      at(dst.tail).span.end = at(src.head).span.end;
      if (src.head == src.tail) return;
      src.head = at(src.head).next_sibling;
    }
    if (dst.head == kNoNode)
      dst.head = src.head;
    else
      at(dst.tail).next_sibling = src.head;
    dst.tail = src.tail;
  }
  void adopt(NodeId parent, Accum list) {
    at(parent).first_child = list.head;
    at(parent).last_child = list.tail;
  }

  // --- stack ---
  Accum& accum() { return stack_.empty() ? root_ : parts_.back().out; }
  PartState* current_part() { return stack_.empty() ? nullptr : &parts_.back(); }
  std::size_t part_count(const Piece& p) const { return parts_.size() - p.parts_begin; }
  void push(Piece piece) {
    piece.parts_begin = static_cast<std::uint32_t>(parts_.size());
    PartState part;
    part.begin = piece.start + piece.count;
    parts_.push_back(part);
    stack_.push_back(piece);
    update_flags();
  }
  Piece pop() {
    Piece p = stack_.back();
    stack_.pop_back();
    parts_.resize(p.parts_begin);
    return p;
  }
  // PPDStackElement_Hash::getFlags.
  void update_flags() {
    if (stack_.empty()) {
      find_pipe_ = find_equals_ = in_heading_ = false;
      closing_ = kCloseNone;
      return;
    }
    const Piece& top = stack_.back();
    find_pipe_ = top.open != Open::Heading && top.open != Open::Bracket;
    find_equals_ = find_pipe_ && part_count(top) > 1 && parts_.back().eq_node == kNoNode;
    in_heading_ = top.open == Open::Heading;
    closing_ = top.open == Open::Brace            ? kCloseBrace
               : top.open == Open::Bracket        ? kCloseBracket
               : top.open == Open::LangConversion ? kCloseLangConversion
                                                  : kCloseLine;
  }
  bool at_depth_limit() {
    if (stack_.size() < kMaxStackDepth) return false;
    if (!depth_reported_) {
      depth_reported_ = true;
      report(support::Severity::warning, position_,
             "nesting deeper than " + std::to_string(kMaxStackDepth) +
                 " open constructs; further openings are kept as text");
    }
    return true;
  }
  // PPDStackElement_Hash::breakSyntax: the piece's opening, its parts joined by '|'.
  Accum break_syntax(const Piece& p, std::uint32_t opening_count, std::size_t parts_end) {
    Accum out;
    if (p.open == Open::Heading) {
      splice(out, parts_[p.parts_begin].out);
      return out;
    }
    std::uint32_t open_end = p.start + p.count;
    std::uint32_t open_begin = open_end - opening_count;
    if (p.saved_prefix) open_begin -= 1;  // the '-' is contiguous with the braces
    add_literal(out, open_begin, open_end);
    for (std::size_t k = p.parts_begin; k < parts_end; ++k) {
      if (k != p.parts_begin) add_literal(out, parts_[k].begin - 1, parts_[k].begin);
      splice(out, parts_[k].out);
    }
    return out;
  }

  void report(support::Severity severity, std::uint32_t offset, std::string message) {
    if (!diag_.sink) return;
    if (!lines_built_) {
      lines_ = support::LineIndex(tree_.source);
      lines_built_ = true;
    }
    diag_.sink->report({severity, diag_.file, lines_.position(offset), std::move(message)});
  }

  // --- scanning helpers ---
  std::uint32_t span_of(char c, std::uint32_t from, std::uint32_t max) const {
    std::uint32_t k = from;
    std::uint32_t limit = std::min<std::uint64_t>(n_, std::uint64_t{from} + max);
    while (k < limit && s_[k] == c) ++k;
    return k - from;
  }
  std::uint32_t back_spaces(std::uint32_t before) const {  // strspn(revText, " \t", len - before)
    std::uint32_t k = before;
    while (k > 0 && (s_[k - 1] == ' ' || s_[k - 1] == '\t')) --k;
    return before - k;
  }
  std::uint32_t back_equals(std::uint32_t before) const {
    std::uint32_t k = before;
    while (k > 0 && s_[k - 1] == '=') --k;
    return before - k;
  }
  std::uint32_t find(std::string_view needle, std::uint32_t from) const {
    if (from >= n_) return n_;
    auto pos = tree_.source.find(needle, from);
    return pos == std::string_view::npos ? n_ : static_cast<std::uint32_t>(pos);
  }
  static bool contains(const std::vector<std::string>& list, std::string_view s) {
    return std::find(list.begin(), list.end(), s) != list.end();
  }
  std::uint32_t find_closing_tag(std::string_view lower_name, std::uint32_t from, std::uint32_t& end);

  // --- plain runs (PlainRuns) ---
  // Spans recorded with other settings, on a text of another length, or with a tag name
  // holding whitespace (then '<' before a blank and before a newline may be told apart)
  // are not taken.
  bool usable(const PlainRuns& known) const {
    if (!known.recorded || known.source_size != n_ || known.language_conversion != options_.language_conversion ||
        known.extension_tags != options_.extension_tags)
      return false;
    for (const std::string& tag : options_.extension_tags)
      if (tag.find_first_of(" \t\n\r\f\v") != std::string::npos) return false;
    if (known.newlines_known && !known.newlines.empty() && known.newlines.back() >= n_) return false;
    return known.spans.empty() || known.spans.back().end <= n_;
  }
  // The first newline at or after `from` that is followed by '=', or n_. Asked with
  // `from` increasing.
  std::uint32_t find_line_equals(std::uint32_t from) {
    if (known_newlines_) {
      const std::vector<std::uint32_t>& newlines = *known_newlines_;
      while (newline_at_ < newlines.size() && newlines[newline_at_] < from) ++newline_at_;
      for (; newline_at_ < newlines.size(); ++newline_at_) {
        std::uint32_t k = newlines[newline_at_];
        if (k + 1 < n_ && s_[k + 1] == '=') return k;
      }
      return n_;
    }
    for (std::uint32_t k = from; (k = support::scan_byte(s_, k, n_, '\n')) < n_; ++k)
      if (k + 1 < n_ && s_[k + 1] == '=') return k;
    return n_;
  }
  void note_plain(std::uint32_t b, std::uint32_t e) {
    auto& spans = record_->spans;
    if (!spans.empty() && spans.back().end == b)
      spans.back().end = e;
    else
      spans.push_back({b, e});
  }
  void take_known_text();
  bool take_known_node();
  void find_headings(NodeId id) {
    for (NodeId c = at(id).first_child; c != kNoNode; c = at(c).next_sibling) {
      if (at(c).kind == NodeKind::Heading) taken_headings_.push_back(c);
      find_headings(c);
    }
  }

  // --- the cases of the main loop ---
  void on_angle();
  void on_comment();
  void on_line_start();
  void on_line_end();
  std::uint32_t next_stop(std::uint32_t from, int table) const;
  template <int Closing, bool Pipe, bool Equals, bool Lang>
  std::uint32_t scan_stops(std::uint32_t from) const;
  template <bool Lang>
  std::uint32_t link_as_text(std::uint32_t at) const;
  using Scan = std::uint32_t (Builder::*)(std::uint32_t) const;
  // scan_stops for each (language conversion, stop table), in next_stop's order.
  template <std::size_t... T>
  static constexpr std::array<Scan, sizeof...(T)> scans_by_table(std::index_sequence<T...>) {
    return {&Builder::scan_stops<static_cast<int>(T % 20 / 4), (T % 4 & 1) != 0, (T % 4 & 2) != 0, (T >= 20)>...};
  }
  void on_open(bool lang_conversion);
  void on_close(bool two_char);
  void finish();

  const char* s_;
  std::uint32_t n_;
  const Options& options_;
  const DiagnosticTarget& diag_;
  Tree tree_;
  // The element names and '<' tables for these options, shared with other runs.
  std::shared_ptr<const TagTables> tag_holder_;
  const TagTables& tags_;
  std::vector<std::string> no_more_closing_tag_;
  bool enable_onlyinclude_ = false;
  bool may_be_element(const char* first, const char* last) const { return tags_.may_be_element(first, last); }
  bool may_have_length(char first, std::size_t length) const { return tags_.may_have_length(first, length); }
  bool may_be_pair(const char* first) const { return tags_.may_be_pair(first); }

  // Stops that the main loop would only add to the literal in the current state, so the
  // scan for the next stop runs on over them (add_literal would merge them into the run
  // anyway): a '-' not opening "-{"; a single '{' or '[' (on_open needs two); a single
  // '}' or ']' (on_close matches two; "}-" closes "-{"); a '\n' outside a heading not
  // followed by '=' (on_line_start opens nothing); a '<' that opens no element and no
  // comment (what on_angle would conclude). They were most of a page's stops.
  bool stop_is_text(std::uint32_t k) const {
    const char c = s_[k];
    const bool last = k + 1 == n_;
    const char next = last ? '\0' : s_[k + 1];
    switch (c) {
    case '-': return last || next != '{';
    case '{':
    case '[': return last || next != c;
    case '}': return last || (next != '}' && next != '-');
    case ']': return last || next != ']';
    case '\n': return !in_heading_ && (last || next != '=');
    case '<':
      if (enable_onlyinclude_ || next == '!') return false;
      return !may_be_element(s_ + k + 1, s_ + n_);
    default: return false;
    }
  }

  std::vector<Piece> stack_;
  std::vector<PartState> parts_;
  // on_comment's run of comments on one line, kept so a page's comments share one buffer.
  struct CommentRange {
    std::uint32_t first, last;
  };
  std::vector<CommentRange> comment_runs_;
  Accum root_;

  std::uint32_t i_ = 0;
  std::uint32_t position_ = 0;  // for the depth diagnostic
  std::uint32_t heading_index_ = 1;
  bool find_equals_ = false, find_pipe_ = false, in_heading_ = false;
  Closing closing_ = kCloseNone;
  bool no_more_gt_ = false;
  std::uint32_t next_gt_ = 0;  // cached position of the next '>' (MediaWiki rescans)
  bool next_gt_valid_ = false;
  bool find_onlyinclude_ = false;
  bool fake_line_start_ = true;
  bool depth_reported_ = false;

  // strcspn's search sets, shared by every Builder with the same language_conversion.
  const StopTables& tables_;

  support::LineIndex lines_;
  bool lines_built_ = false;

  PlainRuns* record_ = nullptr;       // this run's plain runs go here
  const PlainRuns* known_ = nullptr;  // plain runs of this text before restoration
  std::size_t known_at_ = 0;          // the first of them not yet behind i_
  std::uint32_t line_equals_ = 0;     // find_line_equals() at or after i_ (once i_ is past, again)
  const std::vector<std::uint32_t>* known_newlines_ = nullptr;  // the newlines of known_, if it has them
  std::size_t newline_at_ = 0;        // the first of them find_line_equals() has not passed
  // PlainRuns::tree's nodes, in this arena, while one of its top-level nodes is ahead.
  bool taking_nodes_ = false;
  NodeId known_child_ = kNoNode;      // the first of those top-level nodes not behind i_
  std::uint32_t known_headings_ = 0;  // PlainRuns::headings
  std::vector<NodeId> taken_headings_;  // the headings under a node taken, to be numbered
};

// With nothing open at i_ inside a known plain span, the scan over the rest of that span
// would add it as text, as it did before restoration: every byte of it is decided by
// looking ahead only, and a newline that replaced a blank is decided like the blank (the
// xmlish rules and stop_is_text treat all whitespace alike), except before '=', where
// on_line_start may open a heading. So the span is taken up to such a newline, which the
// main loop then handles itself. A `[[…]]` that on_open took whole as text is in the
// spans (from its middle the scan decides its bytes alike), but a newline before '=' in
// it must stop the run at its `[[`. A '<' tag taken whole as text is not in the spans:
// from its middle the scan would decide otherwise.
void Builder::take_known_text() {
  const auto& spans = known_->spans;
  while (known_at_ < spans.size() && spans[known_at_].end <= i_) ++known_at_;
  if (known_at_ == spans.size()) {
    known_ = nullptr;
    return;
  }
  if (spans[known_at_].begin > i_) return;
  if (line_equals_ < i_) line_equals_ = find_line_equals(i_);
  std::uint32_t end = std::min(spans[known_at_].end, line_equals_);
  if (end == line_equals_) {
    // In a `[[…]]` taken whole, the newline stops on_open's scan and the piece is pushed:
    // the run ends before the link, unless i_ is already inside it (then the scan from
    // i_ never saw the `[[`).
    const auto& links = known_->links;
    auto after = std::upper_bound(links.begin(), links.end(), end,
                                  [](std::uint32_t k, const support::Span& link) { return k < link.begin; });
    if (after != links.begin() && std::prev(after)->end > end && std::prev(after)->begin >= i_)
      end = std::prev(after)->begin;
  }
  if (end > i_) {
    add_literal(root_, i_, end);
    i_ = end;
  }
}

// With nothing open, at a `{{` or `{{{` where the known tree has a template or argument
// opened by exactly these braces: the scan from here would push the piece and decide
// every byte up to its close from the node's own bytes, as the run that built the known
// tree did (no blank in it became a newline; the depth limit was never met there), so
// the node is copied instead. Only what looks outside the node is decided here: its
// lineStart (a newline may now precede it) and its headings' numbers (MediaWiki counts
// every heading of the page, and there may be more before it now).
bool Builder::take_known_node() {
  while (known_child_ != kNoNode && at(known_child_).span.begin < i_) known_child_ = at(known_child_).next_sibling;
  if (known_child_ == kNoNode) {
    taking_nodes_ = false;
    return false;
  }
  const NodeId id = known_child_;
  Node& n = at(id);
  if (n.span.begin != i_ || (n.kind != NodeKind::Template && n.kind != NodeKind::Argument) || n.span.end > n_)
    return false;
  // A brace or '-' before it would make the opening run longer or language conversion.
  const std::uint32_t count = n.kind == NodeKind::Template ? 2 : 3;
  if ((i_ > 0 && (s_[i_ - 1] == '{' || s_[i_ - 1] == '-')) || span_of('{', i_, count + 1) != count) return false;
  known_child_ = n.next_sibling;
  n.next_sibling = kNoNode;
  n.line_start = i_ > 0 && s_[i_ - 1] == '\n';
  i_ = n.span.end;
  if (known_headings_ > 0) {
    // Their numbers were given in one unbroken run while the node was open.
    taken_headings_.clear();
    find_headings(id);
    if (!taken_headings_.empty()) {
      std::uint32_t lowest = ~std::uint32_t{0};
      for (NodeId h : taken_headings_) lowest = std::min(lowest, at(h).index);
      for (NodeId h : taken_headings_) at(h).index = at(h).index - lowest + heading_index_;
      heading_index_ += static_cast<std::uint32_t>(taken_headings_.size());
    }
  }
  append(accum(), id);
  return true;
}

// At a `[[` at the top level (nothing open), on_open's first case taken inside the scan:
// a link with nothing inside that the preprocessor acts on is text, and so is joined to
// the text around it, as add_literal and note_plain would join it after on_open, without
// leaving the scan and coming back for each link. The end of the link, or 0 if on_open
// must decide (three or more brackets, or a stop inside). Needs two bytes after `at`. Not
// while known plain runs are ahead: the main loop takes those without a scan, links and
// all, so running on through the text after the link would be the slower way.
template <bool Lang>
std::uint32_t Builder::link_as_text(std::uint32_t at) const {
  if (known_ || s_[at] != '[' || s_[at + 1] != '[' || (at + 2 < n_ && s_[at + 2] == '[')) return 0;
  const std::uint32_t k = scan_stops<kCloseBracket, false, false, Lang>(at + 2);
  if (k >= n_ || s_[k] != ']') return 0;  // a ']' stop is the first of two
  if (record_) record_->links.push_back({at, k + 2});
  return k + 2;
}

// The first byte at or after `from` that the main loop must act on in the state whose
// stop table is `table`: the next strcspn stop that stop_is_text() does not pass over.
inline std::uint32_t Builder::next_stop(std::uint32_t from, int table) const {
  static constexpr auto scans = scans_by_table(std::make_index_sequence<2 * 5 * 4>());
  return (this->*scans[(options_.language_conversion ? 5 * 4 : 0) + table])(from);
}

// next_stop for one state, sixteen bytes a step. The stops of a block are tried in turn
// from its mask: most are text (stop_is_text), and returning to a scan that reloaded its
// set and the block after each of them cost more than the block compare itself.
template <int Closing, bool Pipe, bool Equals, bool Lang>
std::uint32_t Builder::scan_stops(std::uint32_t k) const {
  // A '-' stops only before '{' ("-{"), so the blocks are searched for the '{' and the
  // byte before it is looked at: '-' is frequent in pages (`|-`, `<!--`), "-{" is not.
  constexpr bool dash = Lang || Closing == kCloseLangConversion;
  const std::uint32_t from = k;
  auto opens_conversion = [&](std::uint32_t brace) {
    return dash && brace > from && brace < n_ && s_[brace] == '{' && s_[brace - 1] == '-';
  };
#ifdef __SSE2__
  auto is = [](__m128i block, char c) { return _mm_cmpeq_epi8(block, _mm_set1_epi8(c)); };
  auto stops_in = [&](std::uint32_t at) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s_ + at));
    // '[' and '{' are one compare: they differ in bit 0x20 only, and no other byte ORed
    // with 0x20 gives '{'.
    __m128i hit = _mm_or_si128(is(_mm_or_si128(v, _mm_set1_epi8(0x20)), '{'), _mm_or_si128(is(v, '<'), is(v, '\n')));
    if constexpr (Closing == kCloseBrace || Closing == kCloseLangConversion) hit = _mm_or_si128(hit, is(v, '}'));
    if constexpr (Closing == kCloseBracket) hit = _mm_or_si128(hit, is(v, ']'));
    if constexpr (Pipe) hit = _mm_or_si128(hit, is(v, '|'));
    if constexpr (Equals) hit = _mm_or_si128(hit, is(v, '='));
    return static_cast<unsigned>(_mm_movemask_epi8(hit));
  };
  // Most stops are a '<' opening an HTML tag (`<span`, `</td`), text by the two bytes
  // after it alone (TagTables::angle_pairs): stop_is_text's answer without its dispatch
  // or the "-{" test. The blocks stop two bytes short of the end so that those two bytes
  // are always there; the rest goes to the byte loop below.
  const char* const s = s_;
  const std::uint64_t* const angle_pairs = tags_.angle_pairs.data();
  const bool angle_by_pair = !enable_onlyinclude_;
  while (k + 18 <= n_) {
    // Blocks without a stop, the most frequent case, in a loop of their own.
    unsigned first = stops_in(k);
    while (first == 0 && k + 34 <= n_) {
      k += 16;
      first = stops_in(k);
    }
    for (unsigned mask = first; mask != 0; mask &= mask - 1) {
      const std::uint32_t at = k + static_cast<std::uint32_t>(__builtin_ctz(mask));
      if (s[at] == '<' && angle_by_pair && !TagTables::has_pair(angle_pairs, TagTables::pair_of(s + at + 1)))
        continue;
      if (opens_conversion(at)) return at - 1;
      if (!stop_is_text(at)) {
        if constexpr (Closing == kCloseNone) {
          if (const std::uint32_t end = link_as_text<Lang>(at)) {
            k = end;  // the scan goes on after the link
            goto next_block;
          }
        }
        return at;
      }
    }
    k += 16;
  next_block: __attribute__((unused));
  }
  if (opens_conversion(k)) return k - 1;  // the '-' ended the last block searched
#endif
  const auto& stop = tables_.stops[Closing * 4 + (Pipe ? 1 : 0) + (Equals ? 2 : 0)];
  for (; k < n_; ++k)
    if (stop[static_cast<unsigned char>(s_[k])] && !stop_is_text(k)) return k;
  return n_;
}

Tree Builder::run() {
  for (;;) {
    if (find_onlyinclude_) {
      // Everything up to and including the next <onlyinclude> is hidden.
      std::uint32_t start = find("<onlyinclude>", i_);
      if (start == n_) {
        append(accum(), make(NodeKind::Ignore, i_, n_));
        i_ = n_;
        break;
      }
      std::uint32_t tag_end = start + 13;
      append(accum(), make(NodeKind::Ignore, i_, tag_end));
      i_ = tag_end;
      find_onlyinclude_ = false;
    }

    if (fake_line_start_) {
      on_line_start();
      continue;
    }

    if (known_ && stack_.empty()) take_known_text();
    const int table = closing_ * 4 + (find_pipe_ ? 1 : 0) + (find_equals_ ? 2 : 0);
    std::uint32_t k = next_stop(i_, table);
    if (k > i_) {
      add_literal(accum(), i_, k);
      if (record_ && stack_.empty()) note_plain(i_, k);
      i_ = k;
    }
    if (i_ >= n_) {
      if (closing_ == kCloseLine) {
        on_line_end();  // a past-the-end run finishes the heading
        continue;
      }
      break;
    }
    char c = s_[i_];
    char c2 = i_ + 1 < n_ ? s_[i_ + 1] : '\0';
    if (c == '|' && find_pipe_) {
      // A new part; the first '=' in it names the part.
      PartState part;
      part.begin = i_ + 1;
      parts_.push_back(part);
      update_flags();
      ++i_;
    } else if (c == '=' && find_equals_) {
      NodeId eq = make(NodeKind::Equals, i_, i_ + 1);
      PartState& part = parts_.back();
      part.before_eq = part.out.tail;
      part.eq_node = eq;
      append(part.out, eq);
      update_flags();
      ++i_;
    } else if (c == '<') {
      on_angle();
    } else if (c == '\n') {
      if (in_heading_)
        on_line_end();
      else
        on_line_start();
    } else if (closing_ == kCloseLangConversion && c == '}' && c2 == '-') {
      on_close(true);
    } else if ((closing_ == kCloseBrace && c == '}') || (closing_ == kCloseBracket && c == ']')) {
      on_close(false);
    } else if (c == '-' && c2 == '{' && options_.language_conversion) {
      on_open(true);
    } else if (c == '{' || c == '[') {
      if (c == '{' && taking_nodes_ && stack_.empty() && take_known_node()) continue;
      on_open(false);
    } else {
      // '-' not before '{', '}' not closing anything: plain text.
      add_literal(accum(), i_, i_ + 1);
      ++i_;
    }
  }
  finish();
  return std::move(tree_);
}

void Builder::on_open(bool lang_conversion) {
  position_ = i_;
  std::uint32_t count;
  Open open;
  if (lang_conversion) {
    count = span_of('{', i_ + 1, n_) + 1;  // "allow the final character to repeat"
    open = Open::LangConversion;
  } else {
    open = s_[i_] == '{' ? Open::Brace : Open::Bracket;
    count = span_of(s_[i_], i_, n_);
  }
  if (open == Open::Bracket && count == 2 && stack_.size() < kMaxStackDepth) {
    // `[[…]]` with nothing inside that the preprocessor acts on (no tag, comment, brace,
    // inner bracket pair or line start) ends as text: its piece is pushed, its closing
    // `]]` breaks its syntax (brackets never make a node) and the whole span is added
    // as a literal. Most links are such, so the scan the main loop would make in the
    // piece's state is made here, and the span goes in as text without the piece. The
    // scan runs in the current state's stop_is_text; it differs from the piece's only
    // inside a heading, where every '\n' stops it, and then the piece is pushed.
    std::uint32_t k = next_stop(i_ + 2, kCloseBracket * 4);
    if (k < n_ && s_[k] == ']') {  // a ']' stop is the first of two
      add_literal(accum(), i_, k + 2);
      if (record_ && stack_.empty()) {
        note_plain(i_, k + 2);
        record_->links.push_back({i_, k + 2});
      }
      i_ = k + 2;
      return;
    }
  }
  bool line_start = i_ > 0 && s_[i_ - 1] == '\n';
  bool saved_prefix = false;
  if (open == Open::LangConversion && count > 2) {
    // "-{{" is a template after a literal '-': the rightmost construct wins.
    saved_prefix = true;
    ++i_;
    open = Open::Brace;
    --count;
  }
  if (count >= 2 && !at_depth_limit()) {
    push(Piece{open, count, i_, saved_prefix, line_start, 0});
  } else {
    add_literal(accum(), saved_prefix ? i_ - 1 : i_, i_ + count);
  }
  i_ += count;
}

void Builder::on_close(bool two_char) {
  Piece piece = stack_.back();
  std::uint32_t max_count = piece.count;
  std::uint32_t count = two_char ? 2 : span_of(s_[i_], i_, max_count);
  // Rules: '{' builds template (2) or tplarg (3); '[' and "-{" only match 2 and stay text.
  std::uint32_t matching;
  if (piece.open == Open::Brace) {
    matching = count > 3 ? 3 : (count >= 2 ? count : 0);
  } else {
    matching = count >= 2 ? 2 : 0;
  }
  if (matching == 0) {
    add_literal(accum(), i_, i_ + count);
    i_ += count;
    return;
  }

  std::size_t parts_end = parts_.size();
  std::uint32_t close_begin = i_;
  std::uint32_t close_end = i_ + matching;
  Accum element;
  if (piece.open != Open::Brace) {
    element = break_syntax(piece, matching, parts_end);
    add_literal(element, close_begin, close_end);
  } else {
    std::uint32_t open_begin = piece.start + piece.count - matching;
    NodeId el = make(matching == 2 ? NodeKind::Template : NodeKind::Argument, open_begin, close_end);
    at(el).line_start = max_count == matching && piece.line_start && !piece.saved_prefix;
    Accum children;
    std::uint32_t arg_index = 1;
    for (std::size_t k = piece.parts_begin; k < parts_end; ++k) {
      PartState& part = parts_[k];
      std::uint32_t end = k + 1 < parts_end ? parts_[k + 1].begin - 1 : close_begin;
      if (k == piece.parts_begin) {
        NodeId title = make(NodeKind::Title, part.begin, end);
        adopt(title, part.out);
        append(children, title);
        continue;
      }
      NodeId pn = make(NodeKind::Part, part.begin, end);
      Accum pc;
      if (part.eq_node != kNoNode) {
        std::uint32_t eq_pos = at(part.eq_node).span.begin;
        NodeId name = make(NodeKind::Name, part.begin, eq_pos);
        NodeId value = make(NodeKind::Value, eq_pos + 1, end);
        Accum value_list{at(part.eq_node).next_sibling, part.out.tail == part.eq_node ? kNoNode : part.out.tail};
        if (value_list.head == kNoNode) value_list.tail = kNoNode;
        Accum name_list{part.before_eq == kNoNode ? kNoNode : part.out.head, part.before_eq};
        if (part.before_eq != kNoNode) at(part.before_eq).next_sibling = kNoNode;
        at(part.eq_node).next_sibling = kNoNode;
        adopt(name, name_list);
        adopt(value, value_list);
        append(pc, name);
        append(pc, part.eq_node);
        append(pc, value);
      } else {
        NodeId name = make(NodeKind::Name, part.begin, part.begin);
        at(name).index = arg_index++;
        NodeId value = make(NodeKind::Value, part.begin, end);
        adopt(value, part.out);
        append(pc, name);
        append(pc, value);
      }
      adopt(pn, pc);
      append(children, pn);
    }
    adopt(el, children);
    element = {el, el};
  }

  i_ += matching;
  pop();
  if (matching < piece.count) {
    // Re-add the piece with its unmatched opening characters.
    piece.count -= matching;
    if (piece.count >= 2) {
      push(piece);
    } else if (piece.count == 1 && piece.open == Open::Brace && piece.saved_prefix) {
      // "-{{{…}}}" leaves "-{": language conversion after all.
      piece.saved_prefix = false;
      piece.open = Open::LangConversion;
      piece.start -= 1;
      piece.count = 2;
      push(piece);
    } else {
      add_literal(accum(), piece.saved_prefix ? piece.start - 1 : piece.start, piece.start + piece.count);
    }
  } else if (piece.saved_prefix) {
    add_literal(accum(), piece.start - 1, piece.start);
  }
  update_flags();
  splice(accum(), element);
}

void Builder::on_line_start() {
  // The line break belongs before a heading element in any case.
  if (fake_line_start_) {
    fake_line_start_ = false;
  } else {
    add_literal(accum(), i_, i_ + 1);
    ++i_;
  }
  std::uint32_t count = span_of('=', i_, 6);
  if (count == 1 && find_equals_) {
    // Preprocessor_Hash's DWIM: a lone '=' at line start in a part is its name/value split.
    return;
  }
  if (count > 0) {
    position_ = i_;
    if (at_depth_limit()) {
      add_literal(accum(), i_, i_ + count);
    } else {
      push(Piece{Open::Heading, count, i_, false, false, 0});
      // The opening '=' signs are the start of the heading's text.
      PartState& part = parts_.back();
      part.begin = i_;
      add_literal(part.out, i_, i_ + count);
    }
    i_ += count;
  }
}

void Builder::on_line_end() {
  Piece piece = stack_.back();
  PartState& part = parts_.back();
  std::uint32_t search_start = i_ - back_spaces(i_);
  if (part.has_comment_end && search_start >= 1 && search_start - 1 == part.comment_end) {
    // A comment at the line end: look for the equals signs before it.
    search_start = part.visual_end;
    search_start -= back_spaces(search_start);
  }
  std::uint32_t count = piece.count;
  std::uint32_t equals_length = back_equals(search_start);
  bool heading = false;
  if (equals_length > 0) {
    if (search_start - equals_length == piece.start) {
      // A line of nothing but '=': doHeadings' /={count}(.+)={count}/ splits it in two.
      count = equals_length < 3 ? 0 : std::min<std::uint32_t>(6, (equals_length - 1) / 2);
    } else {
      count = std::min(equals_length, count);
    }
    heading = count > 0;
  }
  Accum element;
  if (heading) {
    NodeId h = make(NodeKind::Heading, piece.start, i_);
    at(h).level = static_cast<std::uint8_t>(count);
    at(h).index = heading_index_++;
    at(h).possible = true;  // promoted to <h> at the end if it sits at the root
    adopt(h, part.out);
    element = {h, h};
  } else {
    element = part.out;
  }
  pop();
  update_flags();
  splice(accum(), element);
  // The input pointer stays on the '\n': it may open the next heading.
}

void Builder::on_angle() {
  if (enable_onlyinclude_ && tree_.source.substr(i_).starts_with("</onlyinclude>")) {
    find_onlyinclude_ = true;
    return;
  }
  // Element name: Preprocessor_Hash's anchored `(names)(?:\s|\/>|>)|(!--)`, case-insensitive.
  grammar::NameRange range;
  const char* first = s_ + i_ + 1;
  const char* last = s_ + n_;
  std::string name_lower;
  bool is_element = false;
  if (may_be_element(first, last) && boost::spirit::x3::parse(first, last, grammar::xmlish_open(), range)) {
    if (range.size() <= 64 && may_have_length(*range.begin(), range.size())) {
      name_lower = lower(std::string_view(range.begin(), range.size()));
      is_element = contains(tags_.xmlish, name_lower) || contains(tags_.ignored_tags, name_lower);
    }
  }
  if (!is_element) {
    if (tree_.source.substr(i_ + 1).starts_with("!--")) {
      on_comment();
      return;
    }
    add_literal(accum(), i_, i_ + 1);
    if (record_ && stack_.empty()) note_plain(i_, i_ + 1);
    ++i_;
    return;
  }
  auto name_len = static_cast<std::uint32_t>(range.size());
  std::string_view name(range.begin(), range.size());
  std::uint32_t attr_start = i_ + name_len + 1;

  // Find the end of the tag. MediaWiki rescans for '>' each time; a cached position gives
  // the same answer without its quadratic worst case.
  std::uint32_t tag_end = n_;
  if (!no_more_gt_) {
    if (!next_gt_valid_ || next_gt_ < attr_start) {
      next_gt_ = find(">", attr_start);
      next_gt_valid_ = true;
    }
    tag_end = next_gt_;
  }
  if (tag_end >= n_) {
    no_more_gt_ = true;
    add_literal(accum(), i_, i_ + 1);
    if (record_ && stack_.empty()) note_plain(i_, i_ + 1);
    ++i_;
    return;
  }

  if (contains(tags_.ignored_tags, name_lower)) {
    append(accum(), make(NodeKind::Ignore, i_, tag_end + 1));
    i_ = tag_end + 1;
    return;
  }

  std::uint32_t tag_start = i_;
  std::uint32_t attr_end;
  bool has_inner = false, has_close = false;
  Span inner{}, close{};
  if (s_[tag_end - 1] == '/') {
    attr_end = tag_end - 1;  // <tag/>: no inner, no close
    i_ = tag_end + 1;
  } else {
    attr_end = tag_end;
    std::uint32_t close_end = 0;
    std::uint32_t close_begin =
        contains(no_more_closing_tag_, name_lower) ? n_ : find_closing_tag(name_lower, tag_end + 1, close_end);
    if (close_begin < n_) {
      inner = {tag_end + 1, close_begin};
      close = {close_begin, close_end};
      has_inner = has_close = true;
      i_ = close_end;
    } else if (name == "includeonly" || name == "noinclude" || name == "onlyinclude") {
      // Include-control tags may run to the end (matched case-sensitively, as MediaWiki does).
      inner = {tag_end + 1, n_};
      has_inner = true;
      i_ = n_;
    } else {
      // No end tag: the opening tag is text, and this name is not searched for again.
      i_ = tag_end + 1;
      add_literal(accum(), tag_start, tag_end + 1);
      no_more_closing_tag_.push_back(name_lower);
      return;
    }
  }
  if (contains(tags_.ignored_elements, name_lower)) {
    append(accum(), make(NodeKind::Ignore, tag_start, i_));
    return;
  }
  NodeId ext = make(NodeKind::ExtensionTag, tag_start, i_);
  ExtensionTagParts parts;
  parts.name = {tag_start + 1, tag_start + 1 + name_len};
  parts.attributes = attr_end <= attr_start ? Span{attr_start, attr_start} : Span{attr_start, attr_end};
  parts.inner = inner;
  parts.close = close;
  parts.has_inner = has_inner;
  parts.has_close = has_close;
  at(ext).index = static_cast<std::uint32_t>(tree_.extension_tags.size());
  tree_.extension_tags.push_back(parts);
  append(accum(), ext);
}

std::uint32_t Builder::find_closing_tag(std::string_view lower_name, std::uint32_t from, std::uint32_t& end) {
  // The first `</name\s*>` (case-insensitive) at or after `from`.
  for (std::uint32_t pos = find("</", from); pos < n_; pos = find("</", pos + 1)) {
    grammar::NameRange range;
    const char* first = s_ + pos;
    const char* last = s_ + n_;
    if (boost::spirit::x3::parse(first, last, grammar::xmlish_close(), range) && range.size() == lower_name.size() &&
        lower(std::string_view(range.begin(), range.size())) == lower_name) {
      end = static_cast<std::uint32_t>(first - s_);
      return pos;
    }
  }
  return n_;
}

void Builder::on_comment() {
  // Preprocessor_Hash: a run of comments alone on a line (only spaces/tabs around) takes
  // its leading whitespace and the trailing newline with it, so no blank line is left.
  std::uint32_t end_pos = find("-->", i_ + 4);
  if (end_pos >= n_) {
    if (options_.report_unclosed) report(support::Severity::warning, i_, "comment opened here is never closed");
    append(accum(), make(NodeKind::Comment, i_, n_));
    i_ = n_;
    return;
  }
  std::uint32_t ws_start = i_ ? i_ - back_spaces(i_) : 0;
  auto forward_spaces = [&](std::uint32_t from) {
    std::uint32_t k = from;
    while (k < n_ && (s_[k] == ' ' || s_[k] == '\t')) ++k;
    return k - from;
  };
  std::uint32_t ws_end = end_pos + 2 + forward_spaces(end_pos + 3);  // last space, or the '>'
  std::vector<CommentRange>& comments = comment_runs_;
  comments.assign(1, {ws_start, ws_end});
  while (tree_.source.substr(ws_end + 1).starts_with("<!--")) {
    std::uint32_t c = find("-->", ws_end + 4);
    if (c >= n_) break;
    c = c + 2 + forward_spaces(c + 3);
    comments.push_back({ws_end + 1, c});
    ws_end = c;
  }

  Accum& a = accum();
  std::uint32_t start_pos, last_pos;  // the (last) comment node is [start_pos, last_pos]
  if (ws_start > 0 && s_[ws_start - 1] == '\n' && ws_end + 1 < n_ && s_[ws_end + 1] == '\n') {
    // Eat the line: the leading whitespace moves from the text into the first comment.
    std::uint32_t ws_length = i_ - ws_start;
    NodeId reuse = kNoNode;
    if (ws_length > 0 && a.tail != kNoNode && at(a.tail).kind == NodeKind::Text &&
        at(a.tail).span.end == i_ && at(a.tail).span.size() >= ws_length) {
      at(a.tail).span.end -= ws_length;
      if (at(a.tail).span.size() == 0) reuse = a.tail;
    }
    for (std::size_t j = 0; j + 1 < comments.size(); ++j) {
      std::uint32_t b = comments[j].first, e = comments[j].last + 1;
      if (reuse != kNoNode) {
        at(reuse).kind = NodeKind::Comment;
        at(reuse).span = {b, e};
        reuse = kNoNode;
      } else {
        append(a, make(NodeKind::Comment, b, e));
      }
    }
    start_pos = comments.back().first;
    last_pos = comments.back().last + 1;
    if (reuse != kNoNode) {
      at(reuse).kind = NodeKind::Comment;
      at(reuse).span = {start_pos, last_pos + 1};
    } else {
      append(a, make(NodeKind::Comment, start_pos, last_pos + 1));
    }
    fake_line_start_ = true;  // a heading may follow on the next line
  } else {
    start_pos = i_;
    last_pos = end_pos + 2;
    append(a, make(NodeKind::Comment, start_pos, last_pos + 1));
  }
  if (PartState* part = current_part()) {
    if (!(part->has_comment_end && ws_start >= 1 && part->comment_end == ws_start - 1))
      part->visual_end = ws_start;  // else comments abut: the visual end stays
    part->has_comment_end = true;
    part->comment_end = last_pos;
  }
  i_ = last_pos + 1;
}

void Builder::finish() {
  // Unclosed pieces, bottom to top, become their text (Preprocessor_Hash's final loop).
  for (std::size_t k = 0; k < stack_.size(); ++k) {
    const Piece& p = stack_[k];
    std::size_t parts_end = k + 1 < stack_.size() ? stack_[k + 1].parts_begin : parts_.size();
    if (options_.report_unclosed && p.open == Open::Brace && p.count >= 2)
      report(support::Severity::warning, p.start,
             std::string(p.count >= 3 ? "'{{{'" : "'{{'") + " opened here is never closed; kept as text");
    splice(root_, break_syntax(p, p.count, parts_end));
  }
  // Headings at the top level are headings; deeper ones stay <possible-h>.
  for (NodeId c = root_.head; c != kNoNode; c = at(c).next_sibling)
    if (at(c).kind == NodeKind::Heading) at(c).possible = false;
  NodeId root = make(NodeKind::Root, 0, n_);
  adopt(root, root_);
  tree_.root = root;
  if (record_) {
    record_->depth_limited = depth_reported_;
    record_->headings = heading_index_ - 1;
  }
}

}  // namespace

Tree preprocess(std::string_view text, const Options& options, const DiagnosticTarget& diagnostics) {
  return preprocess(text, options, diagnostics, Tree{});
}

Tree preprocess(std::string_view text, const Options& options, const DiagnosticTarget& diagnostics, Tree&& recycled) {
  return preprocess(text, options, diagnostics, std::move(recycled), nullptr, nullptr);
}

Tree preprocess(std::string_view text, const Options& options, const DiagnosticTarget& diagnostics, Tree&& recycled,
                const PlainRuns* known, PlainRuns* record) {
  if (text.size() > kMaxSourceBytes) {
    if (diagnostics.sink)
      diagnostics.sink->error(diagnostics.file, {0, 0},
                              "page longer than " + std::to_string(kMaxSourceBytes) + " bytes; preprocessed only up to there");
    text = text.substr(0, kMaxSourceBytes);
  }
  try {
    Builder builder(text, options, diagnostics, std::move(recycled), known, record);
    return builder.run();
  } catch (const boost::spirit::x3::expectation_failure<grammar::Iterator>& e) {
    // The tag rules have no expectation points today; should one be added and fail, the
    // page still gets a (flat) tree and the failure becomes a diagnostic, never a crash.
    if (record) record->recorded = false;  // its spans stop somewhere in the page
    if (diagnostics.sink) {
      auto offset = static_cast<std::size_t>(e.where() - text.data());
      diagnostics.sink->error(diagnostics.file, support::LineIndex(text).position(offset),
                              "internal: grammar rule '" + e.which() + "' failed; page kept as text");
    }
    Tree flat;
    flat.source = text;
    flat.for_inclusion = options.for_inclusion;
    Node body;
    body.span = {0, static_cast<std::uint32_t>(text.size())};
    Node root;
    root.kind = NodeKind::Root;
    root.span = body.span;
    if (!text.empty()) root.first_child = root.last_child = 1;
    flat.nodes = {root, body};
    flat.root = 0;
    return flat;
  }
}

}  // namespace wikic::preprocess
