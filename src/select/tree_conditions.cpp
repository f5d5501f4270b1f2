// Tree-level selector work on parse::Document, through the parse stage's iterative
// TreeVisitor (deep pages cannot overflow the stack). Conditions accumulate along the
// ancestor path as the site script's CSS does: an element is visible only if it and every
// enclosing element are, so the path condition is the conjunction of the own conditions.
#include "select/tree_conditions.hpp"

#include "parse/attribute_name.hpp"
#include "select/probe_table.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>

namespace wikic::select {

namespace {

// ASCII case folding, what std::tolower does in the "C" locale wikic runs in (it never
// calls setlocale), without a library call per byte: every attribute of every node
// passes through here.
constexpr char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return ascii_lower(x) == ascii_lower(y); });
}

// A loop rather than find_first_not_of, which searches the set of four for every byte:
// every parameter name of every semantic template passes through here.
constexpr bool is_trimmed_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

std::string_view trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && is_trimmed_space(s[b])) ++b;
  while (e > b && is_trimmed_space(s[e - 1])) --e;
  return s.substr(b, e - b);
}

// Where `piece` (a view into one of the document's sources) starts.
Where where_of(const parse::Document& doc, std::uint16_t source, std::string_view piece, const std::string& file,
               const Locate& locate) {
  std::string_view text = doc.source(source);
  if (piece.data() == nullptr || piece.data() < text.data() || piece.data() > text.data() + text.size())
    return Where{file, {0, 0}, {}};
  auto offset = static_cast<std::uint32_t>(piece.data() - text.data());
  if (locate) return locate(source, offset);
  if (source != 0) return Where{file, {0, 0}, {}};  // fragments have no page positions of their own
  return Where{file, doc.position(offset), {}};
}

// Named parameters of an opaque `{{Name|a=b|…}}` (raw input, before the expander exists):
// splits at top-level `|`, skipping nested braces and links.
std::vector<std::pair<std::string_view, std::string_view>> raw_template_params(std::string_view t) {
  std::vector<std::pair<std::string_view, std::string_view>> out;
  if (t.size() < 4 || !t.starts_with("{{") || !t.ends_with("}}")) return out;
  std::string_view body = t.substr(2, t.size() - 4);
  int depth = 0;
  std::size_t start = std::string_view::npos;
  auto flush = [&](std::size_t end) {
    if (start == std::string_view::npos) return;
    std::string_view part = body.substr(start, end - start);
    std::size_t eq = part.find('=');
    if (eq != std::string_view::npos) out.emplace_back(trim(part.substr(0, eq)), trim(part.substr(eq + 1)));
  };
  for (std::size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if ((c == '{' || c == '[') && i + 1 < body.size() && body[i + 1] == c) {
      ++depth;
      ++i;
    } else if ((c == '}' || c == ']') && i + 1 < body.size() && body[i + 1] == c && depth > 0) {
      --depth;
      ++i;
    } else if (c == '|' && depth == 0) {
      flush(i);
      start = i + 1;
    }
  }
  flush(body.size());
  return out;
}

// HTML elements a browser lays out as blocks: their text starts and ends a line.
bool is_block_element(std::string_view name) {
  static constexpr std::string_view kBlocks[] = {"blockquote", "center", "dd", "div", "dl", "dt", "h1", "h2",
                                                 "h3", "h4", "h5", "h6", "hr", "li", "ol", "p", "pre",
                                                 "table", "td", "th", "tr", "ul"};
  return std::find(std::begin(kBlocks), std::end(kBlocks), name) != std::end(kBlocks);
}

bool is_block(const parse::Node& n) {
  using K = parse::NodeKind;
  K k = n.kind;
  if (k == K::Element) return is_block_element(n.name);
  return k == K::Heading || k == K::Paragraph || k == K::ListItem || k == K::TableRow || k == K::TableCaption ||
         k == K::HorizontalRule || k == K::Preformatted || k == K::Table || k == K::List;
}

// Where a memo entry's condition was put in this thread's conditions table (see
// ConditionColumn and ColumnsBuilder): `table` is the number the table got when it was
// last started afresh, so an entry is added once and then named by its index, with no
// lookup by the condition itself, on this page and on the next ones that share it.
struct TableSlot {
  std::uint64_t table = 0;  ///< 0: never; tables are numbered from 1
  std::uint32_t index = 0;
};

// A hash of a memo key's bytes, 8 at a time: class lists are read for every element
// that has one, and std::hash's byte loop cost more than the rest of the lookup. Not
// collision-resistant, nor needed: the memo compares keys and is bounded.
inline std::uint64_t hash_bytes(std::string_view s, std::uint64_t seed) {
  std::uint64_t h = (seed + s.size()) * 0x9E3779B97F4A7C15ull;
  auto step = [&h](std::uint64_t w) {
    h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
    h ^= h >> 31;
  };
  std::size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    step(w);
  }
  if (i < s.size()) {
    std::uint64_t w = 0;
    if (s.size() >= 8) {
      std::memcpy(&w, s.data() + s.size() - 8, 8);  // the last 8 bytes, overlapping the ones read
    } else if (s.size() >= 4) {
      std::uint32_t lo, hi;  // the first and last 4 of 4-7 bytes
      std::memcpy(&lo, s.data(), 4);
      std::memcpy(&hi, s.data() + s.size() - 4, 4);
      w = std::uint64_t{hi} << 32 | lo;
    } else {
      for (std::size_t j = i; j < s.size(); ++j) w = w << 8 | static_cast<unsigned char>(s[j]);
    }
    step(w);
  }
  return h;
}

// A cheaper hash of a class list for the element memo, which every element with a
// class attribute asks: the length and three 8-byte words, the first, the middle and the
// last (overlapping: all of a list of up to 24 bytes; the seed page's average 20). Lists
// that share all four share a hash and the memo tells them apart by comparing; the seed
// page's 155 distinct lists do not. Like hash_bytes, it ends by folding the product's
// high bits into its low ones, which pick the memo's slot: no further mixing is needed.
inline std::uint64_t hash_class_list(std::string_view s, std::uint64_t seed) {
  if (s.size() < 8) return hash_bytes(s, seed);
  auto word = [&s](std::size_t at) {
    std::uint64_t w;
    std::memcpy(&w, s.data() + at, 8);
    return w;
  };
  std::uint64_t h = (seed + s.size()) * 0x9E3779B97F4A7C15ull;
  h = (h ^ word(0)) * 0xBF58476D1CE4E5B9ull;
  h = (h ^ word((s.size() - 8) / 2)) * 0x94D049BB133111EBull;
  h ^= h >> 29;
  h = (h ^ word(s.size() - 8)) * 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 31);
}

// Memo of own selectors by class list text (see own_selector_ref). Per thread and per
// vocabulary; bounded, since a hostile page could hold millions of distinct lists.
constexpr std::size_t kMemoEntries = 4096;
struct SelectionMemo {
  std::uint64_t vocabulary = 0;  ///< Vocabulary::serial()
  struct Entry {
    std::string key;  ///< the class value, '\0', then '\1' and the dynamic selector if any
    OwnSelector selector;
    TableSlot slot;  ///< where selector.condition is in this thread's table
  };
  ProbeTable<Entry> clean{kMemoEntries};  ///< computed without diagnostics
  /// Templates' selectors by their selectorid and dynamicselector values, likewise
  /// (a key: presence flag, value, '\0', presence flag, value).
  ProbeTable<Entry> templates{kMemoEntries};
  OwnSelector last;  ///< the latest one that had some
  std::string key;   ///< reused to build a new entry's key
};

SelectionMemo& selection_memo(const Vocabulary& v) {
  thread_local SelectionMemo memo;
  if (memo.vocabulary != v.serial()) {
    memo.clean.clear();
    memo.templates.clear();
    memo.vocabulary = v.serial();
  }
  return memo;
}

// The selector of a template node (a semantic ScoringRow's selectorid/dynamicselector
// parameters, or a raw call's), or nullptr when it has neither; `slot` as for
// own_selector_ref. Kept out of line: a page has a few dozen templates among ten
// thousand nodes, and its locals (Wheres, optionals, owner strings) made every node's
// call pay their set-up.
[[gnu::noinline]] const OwnSelector* template_selector(const parse::Document& doc, const parse::Node& n,
                                                       const std::string& file, support::DiagnosticSink& sink,
                                                       const Vocabulary& v, const Locate& locate,
                                                       TableSlot** slot) {
  std::optional<std::string_view> selectorid, dynamicselector;
  std::string selectorid_value, dynamic_value;  // owners for semantic-template values
  // Where each value is, located (and the file name copied) only for a memo miss, the
  // one case that can report: locating follows the expansion's provenance back into the
  // page, which cost more than the rest of a hit.
  struct ValueAt {
    bool located = false;  ///< false: the file alone
    std::uint16_t source = 0;
    std::string_view piece;
  } selectorid_at, dynamic_at;
  if (n.kind == parse::NodeKind::SemanticTemplate) {
    // Parameter values live in their own Fragment sources; a value's position is the
    // start of its Fragment (the plain text may drop markup, so columns inside it are
    // approximate).
    for (parse::NodeId c = n.first_child; c != parse::kNoNode; c = doc.node(c).next_sibling) {
      const parse::Node& p = doc.node(c);
      if (p.kind != parse::NodeKind::TemplateParameter) continue;
      std::string_view name = trim(p.name);
      bool is_id = iequals(name, "selectorid"), is_dynamic = iequals(name, "dynamicselector");
      if (!is_id && !is_dynamic) continue;
      ValueAt at;
      if (p.first_child != parse::kNoNode) {
        const parse::Node& fragment = doc.node(p.first_child);
        at = ValueAt{true, fragment.source, doc.text(fragment)};
      }
      if (is_id) {
        selectorid_value = doc.plain_text(c);
        selectorid = selectorid_value;
        selectorid_at = at;
      } else {
        dynamic_value = doc.plain_text(c);
        dynamicselector = dynamic_value;
        dynamic_at = at;
      }
    }
  } else if (n.kind == parse::NodeKind::Template) {
    for (auto [name, value] : raw_template_params(doc.text(n))) {
      if (iequals(name, "selectorid")) {
        selectorid = value;
        selectorid_at = ValueAt{true, n.source, value};
      } else if (iequals(name, "dynamicselector")) {
        dynamicselector = value;
        dynamic_at = ValueAt{true, n.source, value};
      }
    }
  }
  if (selectorid || dynamicselector) {
    // Pages repeat a template's selector as they repeat class lists, so its meaning is
    // kept too, by the two values, unless computing it reported something.
    SelectionMemo& memo = selection_memo(v);
    std::string& key = memo.key;
    key.clear();
    key += selectorid ? '\1' : '\0';
    key.append(selectorid.value_or(""));
    key += '\0';
    key += dynamicselector ? '\1' : '\0';
    key.append(dynamicselector.value_or(""));
    std::uint64_t hash = mix64(hash_bytes(key, 2));
    if (auto* hit = memo.templates.find(hash, [&](const SelectionMemo::Entry& e) { return e.key == key; })) {
      if (slot) *slot = &hit->slot;
      return &hit->selector;
    }
    std::size_t reported = sink.warnings() + sink.errors();
    OwnSelector fresh;
    fresh.has_selector = true;
    auto where = [&](const ValueAt& at) {
      return at.located ? where_of(doc, at.source, at.piece, file, locate) : Where{file, {0, 0}};
    };
    fresh.condition = template_condition(selectorid, where(selectorid_at), dynamicselector, where(dynamic_at), sink, v);
    fresh.text = std::string(selectorid.value_or(dynamicselector.value_or("")));
    if (sink.warnings() + sink.errors() != reported) {
      memo.last = std::move(fresh);
      return &memo.last;
    }
    SelectionMemo::Entry& kept = memo.templates.insert(hash, SelectionMemo::Entry{key, std::move(fresh), {}});
    if (slot) *slot = &kept.slot;
    return &kept.selector;
  }
  return nullptr;
}

// An element's selector on a memo miss: computed, then kept unless computing it
// reported something. Out of line for the same reason as template_selector.
[[gnu::noinline]] const OwnSelector& computed_selector(const parse::Document& doc, const parse::Node& n,
                                                       const parse::Attribute* class_attr,
                                                       const parse::Attribute* dynamic_attr, std::uint64_t hash,
                                                       const std::string& file, support::DiagnosticSink& sink,
                                                       const Vocabulary& v, const Locate& locate, TableSlot** slot) {
  SelectionMemo& memo = selection_memo(v);
  std::string& key = memo.key;
  key.clear();
  if (class_attr) key.append(class_attr->value);
  key += '\0';
  if (dynamic_attr) key.append("\1").append(dynamic_attr->value);
  ElementSelectors element;
  if (class_attr) {
    element.class_values.assign(1, class_attr->value);
    element.class_where.assign(1, where_of(doc, n.source, class_attr->value, file, locate));
  }
  if (dynamic_attr) {
    element.dynamic_selector = dynamic_attr->value;
    element.dynamic_where = where_of(doc, n.source, dynamic_attr->value, file, locate);
  }
  std::size_t reported = sink.warnings() + sink.errors();
  ElementSelection sel = element_selection(element, sink, v);
  OwnSelector fresh;
  fresh.condition = std::move(sel.condition);
  fresh.projection = sel.projection;
  fresh.projection_condition = std::move(sel.projection_condition);
  fresh.has_selector = sel.has_selector;
  if (class_attr) fresh.text = std::string(trim(class_attr->value));
  if (dynamic_attr) fresh.text += (fresh.text.empty() ? "" : " ") + std::string(dynamic_attr->value);
  if (sink.warnings() + sink.errors() != reported) {
    memo.last = std::move(fresh);
    return memo.last;
  }
  SelectionMemo::Entry& kept = memo.clean.insert(hash, SelectionMemo::Entry{key, std::move(fresh), {}});
  if (slot) *slot = &kept.slot;
  return kept.selector;
}

// What a node without a selector says: nothing.
const OwnSelector& no_selector() {
  static const OwnSelector none;
  return none;
}

// The effective class and data-dynamic-selector attributes of an element. The parse
// stage already reports a repeated `class` attribute (and which value MediaWiki keeps),
// so only the last one is passed on.
struct SelectorAttributes {
  const parse::Attribute* class_attr = nullptr;
  const parse::Attribute* dynamic_attr = nullptr;
  bool any() const { return class_attr || dynamic_attr; }
};

inline SelectorAttributes selector_attributes(const parse::Document& doc, const parse::Node& n) {
  SelectorAttributes found;
  for (const parse::Attribute& a : doc.attributes(n)) {
    if (parse::is_attribute_name<"class">(a.name)) found.class_attr = &a;
    else if (parse::is_attribute_name<"data-dynamic-selector">(a.name)) found.dynamic_attr = &a;
  }
  return found;
}

// The own selector of an element with `found.any()`, from the memo; `slot` as for
// own_selector_ref. Inlined into the walk's visit_candidate: out of line, its call with
// nine arguments and its frame cost a third as much again as the memo hit itself.
[[gnu::always_inline]] inline const OwnSelector& element_selector(const parse::Document& doc, const parse::Node& n,
                                                      SelectorAttributes found, const std::string& file,
                                                      support::DiagnosticSink& sink, const Vocabulary& v,
                                                      const Locate& locate, SelectionMemo& memo, TableSlot** slot) {
  const parse::Attribute* class_attr = found.class_attr;
  const parse::Attribute* dynamic_attr = found.dynamic_attr;
  // Pages repeat a few hundred class lists thousands of times ("scoringTile showInns"),
  // so each distinct list's meaning is computed once, unless computing it reported
  // something: then it is computed (and reported, at that element) every time.
  // The key (see Entry::key) is compared in its pieces, so a hit builds no string.
  std::string_view class_value = class_attr ? std::string_view(class_attr->value) : std::string_view();
  std::string_view dynamic_value = dynamic_attr ? std::string_view(dynamic_attr->value) : std::string_view();
  std::uint64_t hash = hash_class_list(class_value, dynamic_attr ? 1 : 0);
  if (dynamic_attr) hash = hash_bytes(dynamic_value, hash);
  auto same_key = [&](const SelectionMemo::Entry& e) {
    std::string_view k = e.key;
    std::size_t size = class_value.size() + 1 + (dynamic_attr ? 1 + dynamic_value.size() : 0);
    return k.size() == size && same_bytes(k.substr(0, class_value.size()), class_value) &&
           (!dynamic_attr || k.substr(class_value.size() + 2) == dynamic_value) &&
           k[class_value.size()] == '\0' && (!dynamic_attr || k[class_value.size() + 1] == '\1');
  };
  if (auto* hit = memo.clean.find(hash, same_key)) {
    if (slot) *slot = &hit->slot;
    return hit->selector;
  }
  return computed_selector(doc, n, class_attr, dynamic_attr, hash, file, sink, v, locate, slot);
}

bool is_template(const parse::Node& n) {
  return n.kind == parse::NodeKind::SemanticTemplate || n.kind == parse::NodeKind::Template;
}

// Whether `n` has no condition of its own: neither a template nor an element with a
// class or data-dynamic-selector attribute (else `found` holds those). Most nodes: text.
[[gnu::always_inline]] inline bool without_own_condition(const parse::Document& doc, const parse::Node& n,
                                                         SelectorAttributes& found) {
  return !is_template(n) && (n.attr_count == 0 || !(found = selector_attributes(doc, n)).any());
}

// own_selector() without copying: the result lives in the memo and stays valid until
// the next call on this thread. When it is a kept memo entry, `*slot` (if asked for) is
// set to that entry's TableSlot; otherwise it is left alone. nullptr when the node says
// nothing (most nodes). `found` is selector_attributes() of the node, which the walks
// look for before they call; `memo` is selection_memo(v), which they look up once.
inline const OwnSelector* own_selector_of(const parse::Document& doc, const parse::Node& n, SelectorAttributes found,
                                          const std::string& file, support::DiagnosticSink& sink, const Vocabulary& v,
                                          const Locate& locate, SelectionMemo& memo, TableSlot** slot) {
  if (is_template(n))
    if (const OwnSelector* selector = template_selector(doc, n, file, sink, v, locate, slot)) return selector;
  if (!found.any()) return nullptr;
  return &element_selector(doc, n, found, file, sink, v, locate, memo, slot);
}

const OwnSelector& own_selector_ref(const parse::Document& doc, parse::NodeId id, const std::string& file,
                                    support::DiagnosticSink& sink, const Vocabulary& v, const Locate& locate,
                                    SelectionMemo& memo) {
  const parse::Node& n = doc.node(id);
  const OwnSelector* own = own_selector_of(doc, n, selector_attributes(doc, n), file, sink, v, locate, memo, nullptr);
  return own ? *own : no_selector();
}

// Full conditions by (ancestors' condition, own condition): pages repeat the same few
// hundred pairs across thousands of nodes, and since every full condition comes out of
// this memo, the pairs of the next page are the same objects again. Only pairs whose
// lint reported nothing are kept (a reported one is linted, and reported, again at each
// node). An entry holds both conditions, so their identities cannot be reused while it
// lives. Per thread, vocabulary and lint setting; bounded like the memo above.
struct PairEntry {
  Condition ancestors, own, full;
  TableSlot slot;  ///< of `full`
};
struct PairMemo {
  std::uint64_t vocabulary = 0;
  bool redundant = false;
  ProbeTable<PairEntry> pairs{4 * kMemoEntries};
  static std::uint64_t hash(const void* ancestors, const void* own) {
    auto a = reinterpret_cast<std::uintptr_t>(ancestors), b = reinterpret_cast<std::uintptr_t>(own);
    return mix64(a * 0x9E3779B97F4A7C15ull ^ b);
  }
};

PairMemo& pair_memo(const Vocabulary& v, bool redundant) {
  thread_local PairMemo memo;
  if (memo.vocabulary != v.serial() || memo.redundant != redundant) {
    memo.pairs.clear();
    memo.vocabulary = v.serial();
    memo.redundant = redundant;
  }
  return memo;
}

}  // namespace

OwnSelector own_selector(const parse::Document& doc, parse::NodeId id, const std::string& file,
                         support::DiagnosticSink& sink, const Vocabulary& v, const Locate& locate) {
  return own_selector_ref(doc, id, file, sink, v, locate, selection_memo(v));
}

const Condition& own_condition(const parse::Document& doc, parse::NodeId node, const std::string& file,
                               support::DiagnosticSink& sink, const Vocabulary& v) {
  return own_selector_ref(doc, node, file, sink, v, {}, selection_memo(v)).condition;
}

TreeConditions tree_conditions(const parse::Document& doc, const std::string& file, support::DiagnosticSink& sink,
                               const Vocabulary& v, const TreeOptions& options) {
  return tree_conditions(doc, file, sink, v, options, TreeConditions());
}

// Bound on the conditions a kept table collects over pages before it starts afresh (it
// keeps them alive after the memos dropped them): as many as the pair memo holds.
constexpr std::size_t kMaxTableEntries = 4 * kMemoEntries;

// Fills the two ConditionColumns of one document: a table of distinct conditions
// (index 0: `true`) and one index per node. The table the previous page's columns
// recycle is kept as it is, not refilled: pages share most of their conditions (the
// memos hand out the same objects again), and adding them back one by one, a
// shared_ptr copy each, cost some 5 % of the stage. Its entries from earlier pages are
// simply not named by this page's columns.
struct ColumnsBuilder {
  TreeConditions& out;
  std::vector<Condition>* table;
  std::uint64_t page;    ///< this walk's number, for FullCache
  std::uint64_t number;  ///< the table's, for TableSlots

  // This thread's walks are numbered, and so are its tables (from the same count): a
  // TableSlot of another table never matches.
  static std::uint64_t next_page() {
    thread_local std::uint64_t walks = 0;
    return ++walks;
  }
  // The table this thread's TableSlots name, and its number. The weak_ptr keeps the
  // control block, so a table is recognised by its owner even after others were made.
  struct KeptTable {
    std::weak_ptr<std::vector<Condition>> table;
    std::uint64_t number = 0;
  };
  static KeptTable& kept_table() {
    thread_local KeptTable kept;
    return kept;
  }

  ColumnsBuilder(TreeConditions& o, std::size_t nodes) : out(o) {
    page = next_page();
    // The recycled table is reused only when these two columns are its only holders;
    // a copy of the columns elsewhere keeps reading it unchanged.
    std::shared_ptr<std::vector<Condition>> shared = out.full.table_;
    const bool sole = shared && shared == out.own.table_ && shared.use_count() == 3;
    KeptTable& kept = kept_table();
    if (sole && !kept.table.owner_before(shared) && !shared.owner_before(kept.table) &&
        shared->size() < kMaxTableEntries) {
      table = shared.get();
      number = kept.number;
    } else {
      if (sole) {
        shared->clear();
      } else {
        shared = std::make_shared<std::vector<Condition>>();
        out.full.table_ = shared;
        out.own.table_ = shared;
      }
      table = shared.get();
      table->emplace_back();
      number = page;
      kept = KeptTable{shared, number};
    }
    // Not cleared: the walk writes every node it visits, and finish() zeroes the rest.
    out.full.index_.resize(nodes);
    out.own.index_.resize(nodes);
    out.hidden.resize(nodes);
  }
  // After a walk that visited `visited` nodes: a document whose nodes are not all under
  // its root (none that the parser builds today) gets `true` and not hidden for the
  // others, what filling every entry first gave. The zeroing is left out of the common
  // case because it was most of the cost of setting up the arrays.
  void finish(const parse::Document& doc, std::size_t visited) {
    if (visited == doc.size()) return;
    std::vector<std::uint8_t> seen(doc.size(), 0);
    for (parse::NodeId node = doc.size() ? doc.root() : parse::kNoNode; node != parse::kNoNode;
         node = parse::next_in_subtree(doc, doc.root(), node, true))
      seen[node] = 1;
    for (std::size_t node = 0; node < doc.size(); ++node)
      if (!seen[node]) out.full.index_[node] = out.own.index_[node] = out.hidden[node] = 0;
  }
  // Forgets an abandoned walk: its table entries and the memo slots that name them
  // (and with them the entries of earlier pages).
  void restart() {
    page = next_page();
    table->resize(1);
    number = page;
    kept_table().number = number;
    out.projection_only.clear();
  }
  // The index of `c` in the table, adding it unless `slot` says the table has it already.
  // The answer from the slot, the common one, is inlined in the walk; adding is not.
  std::uint32_t index_of(const Condition& c, TableSlot* slot) {
    if (c.identity() == nullptr && !c.overflowed()) return 0;  // `true`
    if (slot && slot->table == number) return slot->index;
    return add_to_table(c, slot);
  }
  [[gnu::noinline]] std::uint32_t add_to_table(const Condition& c, TableSlot* slot) {
    auto index = static_cast<std::uint32_t>(table->size());
    table->push_back(c);
    if (slot) *slot = TableSlot{number, index};
    return index;
  }
  const Condition& operator[](std::uint32_t index) const { return (*table)[index]; }
  std::uint32_t* full_index() { return out.full.index_.data(); }
  std::uint32_t* own_index() { return out.own.index_.data(); }
};

namespace {

// A pair of table indices (the parent's path condition, a node's own) and the index of
// their conjunction, for the walk of page `page` (see with_selector).
struct FullCache {
  std::uint64_t page = 0;  ///< 0: never; walks are numbered from 1
  std::uint32_t inherited = 0, own = 0, full = 0;
};
constexpr unsigned kFullCacheBits = 10;
FullCache* full_cache_of_thread() {
  thread_local std::vector<FullCache> cache(std::size_t{1} << kFullCacheBits);
  return cache.data();
}

// One walk's work at each node: its own condition, its path condition from its
// parent's, and whether a structural class hides it. The walks below differ only in the
// order they visit the nodes in (always parents first).
struct NodeConditions {
  const parse::Document& doc;
  const std::string& file;
  support::DiagnosticSink& sink;
  const Vocabulary& v;
  const TreeOptions& options;
  TreeConditions& out;
  ColumnsBuilder& columns;
  ProbeTable<PairEntry>& pairs;
  SelectionMemo& memo;
  std::uint32_t* full;
  std::uint32_t* own_index;
  // Byte stores may alias anything, so `out.hidden[i]` reloaded the vector at every use.
  std::uint8_t* hidden_of;
  // Set by arena_walk, which leaves the hidden flags of a hidden node's descendants to
  // one pass at the end: the nodes whose own structural class hides them, in arena order.
  std::vector<parse::NodeId>* hiding = nullptr;
  FullCache* full_cache = full_cache_of_thread();

  NodeConditions(const parse::Document& d, const std::string& f, support::DiagnosticSink& s, const Vocabulary& voc,
                 const TreeOptions& o, TreeConditions& tc, ColumnsBuilder& c)
      : doc(d), file(f), sink(s), v(voc), options(o), out(tc), columns(c),
        pairs(pair_memo(voc, o.lint_redundant).pairs), memo(selection_memo(voc)), full(c.full_index()),
        own_index(c.own_index()), hidden_of(tc.hidden.data()) {}

  // `inherited` and `hidden` are the parent's path condition (its table index) and
  // hidden flag; the root's are `true` and 0.
  void visit(parse::NodeId node, std::uint32_t inherited, std::uint8_t hidden) {
    const parse::Node& n = doc.node(node);
    SelectorAttributes found;
    if (without_own_condition(doc, n, found)) [[likely]]
      return inherit(full, own_index, hidden_of, node, inherited, hidden);
    visit_candidate(node, inherited, hidden, found);
  }

  // A node without a condition of its own: its parent's path condition and hidden flag.
  // Static, on the columns' pointers: arena_walk keeps them in locals (see there).
  [[gnu::always_inline]] static void inherit(std::uint32_t* full, std::uint32_t* own_index, std::uint8_t* hidden_of,
                                             parse::NodeId node, std::uint32_t inherited, std::uint8_t hidden) {
    own_index[node] = 0;
    full[node] = inherited;
    hidden_of[node] = hidden;
  }

  // visit() for a template or an element with selector attributes `found`. Out of line,
  // so that the walks' loops keep their few values in registers for the other nodes.
  [[gnu::noinline]] void visit_candidate(parse::NodeId node, std::uint32_t inherited, std::uint8_t hidden,
                                         SelectorAttributes found) {
    TableSlot* own_slot = nullptr;
    const OwnSelector* own = own_selector_of(doc, doc.node(node), found, file, sink, v, options.locate, memo, &own_slot);
    if (!own) return inherit(full, own_index, hidden_of, node, inherited, hidden);
    with_selector(node, inherited, hidden, *own, own_slot);
  }

  // For a node whose own selector is `own` (`own_slot` as own_selector_ref sets it).
  void with_selector(parse::NodeId node, std::uint32_t inherited_index, std::uint8_t hidden, const OwnSelector& own,
                     TableSlot* own_slot) {
    const std::uint32_t own_at = columns.index_of(own.condition, own_slot);
    own_index[node] = own_at;
    if (own.has_selector) {
      // Within one page a table index names one condition, so the pair of indices names
      // the pair of conditions: a pair met before on this page (siblings, rows of one
      // table) takes its path condition from a small direct-mapped cache, without the
      // pair memo's hash and probe. Only pairs kept in that memo go in (the lint of the
      // others reported, and must report again at each node).
      FullCache& cached =
          full_cache[((inherited_index * 0x9E3779B1u) ^ (own_at * 0x85EBCA77u)) >> (32 - kFullCacheBits)];
      if (cached.page == columns.page && cached.inherited == inherited_index && cached.own == own_at) {
        full[node] = cached.full;
      } else {
        full[node] = path_index(node, inherited_index, own, own_at, cached);
      }
    } else {
      full[node] = inherited_index;
    }
    bool hides = own.projection == Projection::hide;
    hidden_of[node] = hidden || hides;
    if (hides && hiding) hiding->push_back(node);
    if (!own.projection_condition.is_true()) out.projection_only.emplace(node, own.projection_condition);
  }

  // The table index of the path condition of `node`, whose own selector `own` (at
  // `own_at` in the table) has a condition, under its parent's at `inherited_index`;
  // kept in `cached` when it comes from the pair memo.
  std::uint32_t path_index(parse::NodeId node, std::uint32_t inherited_index, const OwnSelector& own,
                           std::uint32_t own_at, FullCache& cached) {
    // (A reference into the table: nothing is added to it until `inherited` has been used.)
    const Condition& inherited = columns[inherited_index];
    // Overflowed conditions share `true`'s identity, so they are never kept.
    bool cacheable = !inherited.overflowed() && !own.condition.overflowed();
    const void* a = inherited.identity();
    const void* o = own.condition.identity();
    std::uint64_t hash = PairMemo::hash(a, o);
    PairEntry* kept =
        cacheable ? pairs.find(hash, [&](const PairEntry& e) { return e.ancestors.identity() == a && e.own.identity() == o; })
                  : nullptr;
    if (!kept) {
      const parse::Node& n = doc.node(node);
      Where at = where_of(doc, n.source, doc.text(n), file, options.locate);
      std::size_t reported = sink.warnings() + sink.errors();
      Condition result = lint_nested(inherited, own.condition, own.text, at, sink, v, options.lint_redundant);
      if (!cacheable || sink.warnings() + sink.errors() != reported) return columns.index_of(result, nullptr);
      kept = &pairs.insert(hash, PairEntry{inherited, own.condition, std::move(result), {}});
    }
    std::uint32_t index = columns.index_of(kept->full, &kept->slot);
    cached = FullCache{columns.page, inherited_index, own_at, index};
    return index;
  }
};

// Whether `a` comes before `b` (a < b) in document order, for a document whose parents
// precede their children and whose nodes are all under the root: b's ancestors are
// climbed to the first one, x, at or before a; then a is before b when it is x or under
// x, since x's children follow one another as their ids do. Any other answer is taken as
// "no", which only sends the caller to the walk in document order.
bool in_document_order(const parse::Document& doc, parse::NodeId a, parse::NodeId b) {
  parse::NodeId y = b;
  while (doc.node(y).parent > a) y = doc.node(y).parent;
  const parse::NodeId x = doc.node(y).parent;
  parse::NodeId z = a;
  while (z > x) z = doc.node(z).parent;
  return z == x;
}

// Visits the nodes in arena order: front to back, the walk neither follows child and
// sibling links nor climbs back up at the end of each subtree. A node's conditions need
// only its parent's, which the arena has before it; the order shows only in the
// diagnostics, so they wait in a sink of their own until the nodes that reported are
// known to be in document order (the parser makes nodes in that order: always under the
// open node or one of its ancestors). Returns false, having reported nothing, when they
// are not, or when a node is under no parent (the walk in document order never reaches
// it) or under one made after it: then the caller walks in document order.
bool arena_walk(const parse::Document& doc, const std::string& file, support::DiagnosticSink& sink,
                const Vocabulary& v, const TreeOptions& options, TreeConditions& out, ColumnsBuilder& columns) {
  const std::size_t size = doc.size();
  if (size == 0) return true;
  support::DiagnosticSink held;
  NodeConditions walk(doc, file, held, v, options, out, columns);
  thread_local std::vector<parse::NodeId> reporters, hiding;
  reporters.clear();
  // A hidden node's descendants are marked at the end, from `hiding`: a page hides a
  // handful of small subtrees, and reading every node's parent's flag on the way cost
  // more. Until then every node is walked as if its parent were shown.
  hiding.clear();
  walk.hiding = &hiding;
  // The root: `true`, and a condition of its own only if it has a selector.
  const parse::NodeId root = doc.root();
  {
    SelectorAttributes found;
    if (without_own_condition(doc, doc.node(root), found))
      NodeConditions::inherit(walk.full, walk.own_index, walk.hidden_of, root, 0, 0);
    else
      walk.visit_candidate(root, 0, 0, found);
    if (!held.all().empty()) reporters.push_back(root);
  }
  // The other nodes in runs: most have no selector (text, links, plain cells), and the
  // run over them makes no call, so the columns' pointers stay in registers; across the
  // call for each candidate they would be kept on the stack and reloaded at every node.
  for (parse::NodeId node = root + 1; node < size; ++node) {
    std::uint32_t inherited;
    SelectorAttributes found;
    {
      // In locals: the byte stores of the hidden flags may alias anything, and the
      // members behind `walk` and `doc` would be loaded again after each.
      const parse::Node* nodes = &doc.node(0);
      std::uint32_t* full = walk.full;
      std::uint32_t* own_index = walk.own_index;
      std::uint8_t* hidden_of = walk.hidden_of;
      for (;; ++node) {
        if (node == size) goto walked;
        const parse::Node& n = nodes[node];
        parse::NodeId parent = n.parent;
        if (parent >= node) [[unlikely]] return false;  // kNoNode, or a parent after its child
        inherited = full[parent];
        if (!without_own_condition(doc, n, found)) break;
        NodeConditions::inherit(full, own_index, hidden_of, node, inherited, 0);
      }
    }
    std::size_t reported = held.all().size();
    walk.visit_candidate(node, inherited, 0, found);
    if (held.all().size() != reported) reporters.push_back(node);
  }
walked:
  // Parents come before their children in `hiding`, so a node under one already marked
  // is skipped: its subtree is marked too.
  for (parse::NodeId hidden_root : hiding) {
    const parse::NodeId parent = doc.node(hidden_root).parent;
    if (hidden_root != root && walk.hidden_of[parent]) continue;
    for (parse::NodeId x = hidden_root; x != parse::kNoNode; x = parse::next_in_subtree(doc, hidden_root, x, true))
      walk.hidden_of[x] = 1;
  }
  for (std::size_t i = 1; i < reporters.size(); ++i)
    if (!in_document_order(doc, reporters[i - 1], reporters[i])) return false;
  for (const support::Diagnostic& d : held.all()) sink.report(d);
  return true;
}

}  // namespace

TreeConditions tree_conditions(const parse::Document& doc, const std::string& file, support::DiagnosticSink& sink,
                               const Vocabulary& v, const TreeOptions& options, TreeConditions&& recycled) {
  TreeConditions out = std::move(recycled);
  out.projection_only.clear();
  ColumnsBuilder columns(out, doc.size());
  if (doc.root() == 0 && arena_walk(doc, file, sink, v, options, out, columns)) {
    columns.finish(doc, doc.size());
    return out;
  }
  columns.restart();
  NodeConditions walk(doc, file, sink, v, options, out, columns);
  // The document order walk of parse::walk, written out: the visitor's virtual calls and
  // ancestor span cost more than the work.
  const parse::NodeId root = doc.root();
  std::size_t visited = 0;
  for (parse::NodeId node = doc.size() ? root : parse::kNoNode; node != parse::kNoNode;
       node = parse::next_in_subtree(doc, root, node, true)) {
    ++visited;
    parse::NodeId parent = node == root ? parse::kNoNode : doc.node(node).parent;
    if (parent == parse::kNoNode) walk.visit(node, 0, 0);
    else walk.visit(node, walk.full[parent], walk.hidden_of[parent]);
  }
  columns.finish(doc, visited);
  return out;
}

std::string project_text(const parse::Document& doc, const TreeConditions& conditions, const Selection& selection,
                         const Vocabulary& v) {
  struct Visitor : parse::TreeVisitor {
    const TreeConditions& c;
    Evaluator eval;
    std::string out;
    Visitor(const TreeConditions& tc, const Vocabulary& voc, const Selection& s) : c(tc), eval(voc, s) {}
    void newline() {
      while (!out.empty() && out.back() == ' ') out.pop_back();
      if (!out.empty() && out.back() != '\n') out += '\n';
    }
    bool enter(const parse::Document& d, parse::NodeId node, std::span<const parse::NodeId>) override {
      if (node >= c.full.size() || c.hidden[node] || !eval(c.full[node])) return false;
      if (auto it = c.projection_only.find(node); it != c.projection_only.end() && !eval(it->second)) return false;
      const parse::Node& n = d.node(node);
      using K = parse::NodeKind;
      switch (n.kind) {
      case K::Text: out += d.text(n); return false;
      case K::Entity: out += parse::decode_entity(d.text(n)); return false;
      case K::Nowiki: out += d.plain_text(node); return false;
      case K::Comment:
      case K::Template:
      case K::FileLink:
      case K::ExtensionTag: return false;
      case K::SemanticTemplate:
        // A scoring row reads as its own line; references read as their text.
        if (has_parameter(d, node, "rules")) newline();
        return true;
      case K::TemplateParameter: return shown_parameter(d, node);
      case K::Wikilink:
        if (n.first_child == parse::kNoNode) out += n.name;
        return true;
      case K::Element:
        if (n.name == "br" || is_block_element(n.name)) newline();
        return true;
      default: return true;
      }
    }
    static bool has_parameter(const parse::Document& d, parse::NodeId tpl, std::string_view name) {
      for (parse::NodeId p = d.node(tpl).first_child; p != parse::kNoNode; p = d.node(p).next_sibling)
        if (d.node(p).kind == parse::NodeKind::TemplateParameter && d.node(p).name == name) return true;
      return false;
    }
    /// What a reader sees of a semantic template: a row's description and rules, a
    /// reference's text (or its name when it has none), a colour template's text.
    bool shown_parameter(const parse::Document& d, parse::NodeId param) {
      const parse::Node& p = d.node(param);
      parse::NodeId tpl = p.parent;
      if (p.name == "description") return true;
      if (p.name == "rules") {
        out += ' ';
        return true;
      }
      if (p.name == "text" || p.name == "1") return true;
      if (p.name == "name")
        return !has_parameter(d, tpl, "text") && !has_parameter(d, tpl, "rules") &&
               !has_parameter(d, tpl, "variant");
      return false;
    }
    void exit(const parse::Document& d, parse::NodeId node, std::span<const parse::NodeId>) override {
      const parse::Node& n = d.node(node);
      parse::NodeKind k = n.kind;
      if (k == parse::NodeKind::SemanticTemplate && has_parameter(d, node, "rules")) newline();
      if (is_block(n)) newline();
      else if (k == parse::NodeKind::TableCell && !out.empty() && out.back() != '\n' && out.back() != ' ') out += ' ';
    }
  } visitor(conditions, v, selection);
  parse::walk(doc, visitor);
  // One space between words and no blank lines: the projection is for reading and diffing.
  std::string clean;
  for (char ch : visitor.out) {
    if (ch == '\t' || ch == '\r') ch = ' ';
    if (ch == ' ' && (clean.empty() || clean.back() == ' ' || clean.back() == '\n')) continue;
    if (ch == '\n') {
      while (!clean.empty() && clean.back() == ' ') clean.pop_back();
      if (clean.empty() || clean.back() == '\n') continue;
    }
    clean += ch;
  }
  if (!clean.empty() && clean.back() != '\n') clean += '\n';
  return clean;
}

}  // namespace wikic::select
