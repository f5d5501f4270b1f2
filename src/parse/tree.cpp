// Document arena, attribute lookups, entity decoding and the iterative tree walk.
#include "parse/tree.hpp"

#include "support/utf8.hpp"

#include <charconv>
#include <deque>


namespace wikic::parse {

namespace {
bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

struct NamedEntity {
  const char* name;
  std::uint32_t code_point;
};
// The named entities that occur in wiki pages in practice; MediaWiki accepts the full
// HTML list (Sanitizer::$htmlEntities). Unknown names stay literal text, as MW shows them.
constexpr NamedEntity kEntities[] = {
    {"amp", '&'},      {"lt", '<'},       {"gt", '>'},       {"quot", '"'},
    {"apos", '\''},    {"nbsp", 0xA0},    {"shy", 0xAD},     {"ndash", 0x2013},
    {"mdash", 0x2014}, {"hellip", 0x2026}, {"laquo", 0xAB},   {"raquo", 0xBB},
    {"lsquo", 0x2018}, {"rsquo", 0x2019}, {"ldquo", 0x201C}, {"rdquo", 0x201D},
    {"bull", 0x2022},  {"middot", 0xB7},  {"times", 0xD7},   {"divide", 0xF7},
    {"copy", 0xA9},    {"reg", 0xAE},     {"trade", 0x2122}, {"deg", 0xB0},
    {"plusmn", 0xB1},  {"frac12", 0xBD},  {"frac14", 0xBC},  {"frac34", 0xBE},
    {"sup2", 0xB2},    {"sup3", 0xB3},    {"euro", 0x20AC},  {"pound", 0xA3},
    {"larr", 0x2190},  {"rarr", 0x2192},  {"uarr", 0x2191},  {"darr", 0x2193},
    {"harr", 0x2194},  {"rArr", 0x21D2},  {"lArr", 0x21D0},  {"minus", 0x2212},
    {"le", 0x2264},    {"ge", 0x2265},    {"ne", 0x2260},    {"infin", 0x221E},
    {"thinsp", 0x2009}, {"ensp", 0x2002}, {"emsp", 0x2003},  {"zwj", 0x200D},
    {"zwnj", 0x200C},  {"lrm", 0x200E},   {"rlm", 0x200F},   {"sect", 0xA7},
    {"para", 0xB6},    {"dagger", 0x2020}, {"Dagger", 0x2021}, {"prime", 0x2032},
    {"auml", 0xE4},    {"ouml", 0xF6},    {"uuml", 0xFC},    {"Auml", 0xC4},
    {"Ouml", 0xD6},    {"Uuml", 0xDC},    {"szlig", 0xDF},   {"eacute", 0xE9},
    {"egrave", 0xE8},  {"agrave", 0xE0},  {"aacute", 0xE1},  {"ccedil", 0xE7},
    {"ntilde", 0xF1},  {"iexcl", 0xA1},   {"iquest", 0xBF},  {"check", 0x2713},
    {"star", 0x2606},  {"hearts", 0x2665}, {"spades", 0x2660}, {"clubs", 0x2663},
    {"diams", 0x2666},
};
}  // namespace

const char* to_string(NodeKind kind) {
  switch (kind) {
    case NodeKind::Document: return "document";
    case NodeKind::Fragment: return "fragment";
    case NodeKind::Heading: return "heading";
    case NodeKind::Paragraph: return "paragraph";
    case NodeKind::List: return "list";
    case NodeKind::ListItem: return "item";
    case NodeKind::HorizontalRule: return "hr";
    case NodeKind::Preformatted: return "pre";
    case NodeKind::Table: return "table";
    case NodeKind::TableCaption: return "caption";
    case NodeKind::TableRow: return "row";
    case NodeKind::TableCell: return "cell";
    case NodeKind::Element: return "element";
    case NodeKind::Text: return "text";
    case NodeKind::Entity: return "entity";
    case NodeKind::Comment: return "comment";
    case NodeKind::Wikilink: return "link";
    case NodeKind::FileLink: return "file";
    case NodeKind::ExternalLink: return "extlink";
    case NodeKind::Bold: return "b";
    case NodeKind::Italic: return "i";
    case NodeKind::Template: return "template";
    case NodeKind::SemanticTemplate: return "semantic";
    case NodeKind::TemplateParameter: return "param";
    case NodeKind::Nowiki: return "nowiki";
    case NodeKind::ExtensionTag: return "ext";
  }
  return "?";
}

Document::Document() = default;

// Doubling, as push_back would; out of line so add_attribute stays a copy and a compare.
__attribute__((noinline)) void Document::grow_attributes() {
  attributes_.reserve(attributes_.capacity() * 2 + 16);
}

__attribute__((noinline)) void Document::grow_nodes() {
  nodes_.reserve(nodes_.capacity() * 2 + 16);
}

std::uint16_t Document::add_source(std::string text) {
  return add_source_view(keep(std::move(text)));
}

std::uint16_t Document::add_source_view(std::string_view text) {
  sources_.push_back(text);
  return static_cast<std::uint16_t>(sources_.size() - 1);
}

std::string_view Document::keep(std::string s) {
  kept_.push_back(std::make_unique<std::string>(std::move(s)));
  return *kept_.back();
}

const Attribute* Document::attribute(const Node& n, std::string_view name) const {
  const Attribute* found = nullptr;
  for (const Attribute& a : attributes(n))
    if (iequals(a.name, name)) found = &a;
  return found;
}

std::vector<std::string_view> Document::classes(const Node& n) const {
  std::vector<std::string_view> out;
  const Attribute* a = attribute(n, "class");
  if (!a) return out;
  std::string_view v = a->value;
  std::size_t i = 0;
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; };
  while (i < v.size()) {
    while (i < v.size() && space(v[i])) ++i;
    std::size_t b = i;
    while (i < v.size() && !space(v[i])) ++i;
    if (i > b) out.push_back(v.substr(b, i - b));
  }
  return out;
}

bool Document::has_class(const Node& n, std::string_view cls) const {
  for (std::string_view c : classes(n))
    if (c == cls) return true;
  return false;
}

std::vector<NodeId> Document::children(NodeId id) const {
  std::vector<NodeId> out;
  for (NodeId c = nodes_[id].first_child; c != kNoNode; c = nodes_[c].next_sibling)
    out.push_back(c);
  return out;
}

std::string Document::plain_text(NodeId id) const {
  std::string out;
  struct Collect : TreeVisitor {
    std::string* out;
    bool enter(const Document& d, NodeId n, std::span<const NodeId>) override {
      const Node& x = d.node(n);
      if (x.kind == NodeKind::Text) *out += d.text(x);
      else if (x.kind == NodeKind::Entity) *out += decode_entity(d.text(x));
      else if (x.kind == NodeKind::Comment || x.kind == NodeKind::Template) return false;
      return true;
    }
  } collect;
  collect.out = &out;
  walk(*this, collect, id);
  return out;
}

support::Position Document::position(std::uint32_t offset) const {
  if (!lines_) lines_ = std::make_unique<support::LineIndex>(source(0));
  return lines_->position(offset);
}

std::string decode_entity(std::string_view e) {
  if (e.size() < 3 || e.front() != '&' || e.back() != ';') return std::string(e);
  std::string_view body = e.substr(1, e.size() - 2);
  std::string out;
  if (body[0] == '#') {
    std::uint32_t cp = 0;
    const char* b = body.data() + 1;
    int base = 10;
    if (body.size() > 1 && (body[1] == 'x' || body[1] == 'X')) {
      ++b;
      base = 16;
    }
    auto [ptr, ec] = std::from_chars(b, body.data() + body.size(), cp, base);
    if (ec != std::errc() || ptr != body.data() + body.size() || cp == 0 || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF))
      return std::string(e);
    support::append_utf8(out, cp);
    return out;
  }
  for (const NamedEntity& n : kEntities)
    if (body == n.name) {
      support::append_utf8(out, n.code_point);
      return out;
    }
  return std::string(e);
}

namespace {
// Ancestor paths for walk(), one per level of walks running inside a visitor, kept for
// the thread's life: the selector and extraction walk many subtrees of every page, and
// a fresh vector each time was a few allocations per walk.
struct PathPool {
  std::deque<std::vector<NodeId>> paths;  // a deque: growing it keeps outer walks' paths in place
  std::size_t in_use = 0;
};
thread_local PathPool path_pool;

class BorrowedPath {
public:
  BorrowedPath() {
    if (path_pool.paths.size() <= path_pool.in_use) path_pool.paths.emplace_back();
    path_ = &path_pool.paths[path_pool.in_use++];
    path_->clear();
  }
  ~BorrowedPath() { --path_pool.in_use; }
  BorrowedPath(const BorrowedPath&) = delete;
  BorrowedPath& operator=(const BorrowedPath&) = delete;
  std::vector<NodeId>& get() { return *path_; }

private:
  std::vector<NodeId>* path_;
};
}  // namespace

void walk(const Document& doc, TreeVisitor& visitor, NodeId from) {
  if (from >= doc.size()) return;
  BorrowedPath borrowed;
  std::vector<NodeId>& path = borrowed.get();  // ancestors of the node being visited
  // next_in_subtree climbs by parent links: a node left after its children is the last
  // on the path (the node left first, whose children were not entered, is not on it).
  auto leave = [&](NodeId node) {
    if (!path.empty() && path.back() == node) path.pop_back();
    visitor.exit(doc, node, path);
  };
  for (NodeId n = from; n != kNoNode;) {
    bool descend = visitor.enter(doc, n, path);
    const NodeId next = next_in_subtree(doc, from, n, descend, leave);
    if (next != kNoNode && next == doc.node(n).first_child) path.push_back(n);  // entered
    n = next;
  }
}

}  // namespace wikic::parse
