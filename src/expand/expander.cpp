// The expander: a recursive walk of the preprocessor tree in frames, mirroring
// PPFrame_Hash::expand, Parser::braceSubstitution and Parser::argSubstitution, with the
// parser functions of core, ParserFunctions and Translate that WICA pages use.
#include "expand/expander.hpp"

#include <algorithm>
#include <cstring>
#include <deque>

#include <boost/container/small_vector.hpp>

#include "expand/expr.hpp"
#include "expand/functions.hpp"
#include "expand/title.hpp"
#include "ingest/languages.hpp"
#include "preprocess/preprocessor.hpp"
#include "support/html.hpp"

namespace wikic::expand {

using preprocess::kNoNode;
using preprocess::NodeId;
using preprocess::NodeKind;
using preprocess::Tree;

// ---------------------------------------------------------------- TemplateStore

const TemplateStore::Entry* TemplateStore::add(const ingest::Page& page) {
  return add(page, std::string(page.revision.text));
}

const TemplateStore::Entry* TemplateStore::add(ingest::Page&& page) {
  std::string text = std::move(page.revision.text);
  return add(page, std::move(text));
}

const TemplateStore::Entry* TemplateStore::add(const ingest::Page& page, std::string text) {
  auto title = make_title(page.title, 0, site_);
  if (!title) return nullptr;
  Entry e;
  e.title = title->prefixed;
  e.ns = title->ns;
  e.text = std::move(text);
  e.redirect = page.redirect;
  if (e.redirect.empty()) {
    // A .wiki file has no <redirect>: read "#REDIRECT [[Target]]" as MediaWiki does.
    std::string_view t = php_trim(e.text);
    if (t.size() > 9 && to_upper(t.substr(0, 9)) == "#REDIRECT") {
      auto open = t.find("[["), close = t.find("]]");
      if (open != std::string_view::npos && close != std::string_view::npos && close > open)
        e.redirect = std::string(t.substr(open + 2, close - open - 2));
    }
  }
  e.file = page.source.file;
  e.text_at = page.source.text_at;
  std::string key = e.title;
  Entry& slot = entries_[key];
  slot = std::move(e);
  return &slot;
}

TemplateStore::Entry* TemplateStore::find(const std::string& title) {
  auto it = entries_.find(title);
  return it == entries_.end() ? nullptr : &it->second;
}

// ---------------------------------------------------------------- Expansion

namespace {
bool is_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// A semantic node written back as the call it stands for.
std::string call_text(const SemanticNode& node) {
  std::string call = "{{" + node.name;
  for (const auto& p : node.parameters) {
    call += '|';
    if (!is_digits(p.name)) call += p.name + "=";
    call += p.value.text;
  }
  return call + "}}";
}
}  // namespace

const SemanticNode::Parameter* SemanticNode::find(const std::string& param) const {
  const Parameter* found = nullptr;
  for (const auto& p : parameters)
    if (p.name == param) found = &p;  // later duplicates win, as for template arguments
  return found;
}

std::string Expansion::text_with_semantic_calls() const {
  // Nodes nest (a Feature inside a ScoringRow's description), so markers are replaced
  // innermost last: each replacement may bring markers of nodes made earlier.
  std::string out = text;
  for (auto it = semantic.rbegin(); it != semantic.rend(); ++it)
    for (std::size_t at; (at = out.find(it->marker)) != std::string::npos;) out.replace(at, it->marker.size(), call_text(*it));
  return out;
}

std::string Expansion::describe(const Origin& origin) const {
  std::string out;
  const Origin* o = &origin;
  bool first = true;
  for (int guard = 0; guard < kMaxTemplateDepth + 2; ++guard) {
    const SourceText& src = sources.at(o->source);
    // Spans are byte offsets into the page text; the caller maps them to lines.
    std::string where = src.file + "#" + src.title + "@" + std::to_string(o->span.begin);
    if (first) out = where;
    first = false;
    if (o->chain == kNoChain || o->chain >= calls.size()) break;
    const Call& call = calls[o->chain];
    const SourceText& at = sources.at(call.called_at.source);
    out += " (in " + call.template_title + " called at " + at.title + "@" + std::to_string(call.called_at.span.begin) + ")";
    o = &call.called_at;
  }
  return out;
}

Expansion::Location Expansion::locate(const Origin& origin) const {
  Location loc;
  const SourceText& src = sources.at(origin.source);
  loc.file = src.file + "#" + src.title;
  loc.at = source_lines.at(origin.source).position(origin.span.begin);
  // The chain, innermost call first; a deep one shows its first and last calls and
  // counts the ones between.
  std::vector<std::uint32_t> links;
  for (std::uint32_t chain = origin.chain; chain != kNoChain && chain < calls.size() && links.size() <= kMaxTemplateDepth + 1;
       chain = calls[chain].called_at.chain)
    links.push_back(chain);
  constexpr std::size_t head = 3, tail = 1;
  for (std::size_t k = 0; k < links.size(); ++k) {
    if (links.size() > head + tail + 1 && k == head) {
      loc.chain += " (... " + std::to_string(links.size() - head - tail) + " more calls)";
      k = links.size() - tail - 1;
      continue;
    }
    const Call& call = calls[links[k]];
    const SourceText& at = sources.at(call.called_at.source);
    auto pos = source_lines.at(call.called_at.source).position(call.called_at.span.begin);
    loc.chain += " (in " + call.template_title + " called at " + at.file + "#" + at.title + ":" +
                 std::to_string(pos.line) + ":" + std::to_string(pos.column) + ")";
  }
  return loc;
}

Expansion::Location Expansion::locate_offset(std::size_t offset) const {
  if (segments.empty()) return {sources.empty() ? "" : sources[0].file + "#" + sources[0].title, {1, 1}, ""};
  return locate(byte_origin(segments, offset));
}

// ---------------------------------------------------------------- Expander

namespace {

struct Frame;
struct Arg {
  const Frame* owner = nullptr;
  NodeId value = kNoNode;
  bool named = false;
  std::optional<Piece> cache;
};
using ArgMap = std::map<std::string, Arg>;
/// The parts of one call: most have a handful, so they live on the stack.
using Parts = boost::container::small_vector<NodeId, 8>;

struct Frame {
  const Frame* parent = nullptr;  ///< the calling frame; null for the page itself
  const Tree* tree = nullptr;
  std::uint32_t offset = 0;  ///< added to the tree's spans (sub-trees of <translate>)
  std::uint32_t source = 0;
  std::uint32_t chain = kNoChain;
  std::string title;  ///< the template's prefixed title; empty for the page
  int depth = 0;
  std::shared_ptr<ArgMap> args = std::make_shared<ArgMap>();
  /// PPFrame_Hash::childExpansionCache: expansions of argument-less calls made from
  /// this frame, by title. It changes which calls count towards the include size.
  std::shared_ptr<std::map<std::string, Piece>> child_cache = std::make_shared<std::map<std::string, Piece>>();
  bool is_template() const { return parent != nullptr; }
};

bool is_php_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// PHP 8's is_numeric(): optional surrounding whitespace, a sign, digits with at most
/// one '.', and an optional exponent ("1e3", ".5", "5." are numeric; "0x1A" is not).
bool php_numeric(std::string_view s, double& value) {
  std::size_t b = 0, e = s.size();
  while (b < e && is_php_space(s[b])) ++b;
  while (e > b && is_php_space(s[e - 1])) --e;
  std::string_view t = s.substr(b, e - b);
  std::size_t i = 0;
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
  std::size_t digits = 0;
  while (i < t.size() && is_digit(t[i])) ++i, ++digits;
  if (i < t.size() && t[i] == '.') {
    ++i;
    while (i < t.size() && is_digit(t[i])) ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    std::size_t j = i + 1;
    if (j < t.size() && (t[j] == '+' || t[j] == '-')) ++j;
    if (j < t.size() && is_digit(t[j])) {
      while (j < t.size() && is_digit(t[j])) ++j;
      i = j;
    }
  }
  if (i != t.size()) return false;
  value = std::strtod(std::string(t).c_str(), nullptr);
  return true;
}

/// PHP's loose `==` between two strings as ParserFunctions uses it (#ifeq, #switch):
/// numeric strings compare as numbers, anything else byte for byte.
bool php_loose_equal(const std::string& a, const std::string& b) {
  double x, y;
  if (php_numeric(a, x) && php_numeric(b, y)) return x == y;
  return a == b;
}

/// ParserFunctions::iferror's test: an opening strong/span/p/div tag whose class
/// attribute has the word "error" (the extension's regular expression, spelled out).
bool has_error_class(std::string_view s) {
  for (std::size_t lt = s.find('<'); lt != std::string_view::npos; lt = s.find('<', lt + 1)) {
    std::size_t name_end = lt + 1;
    while (name_end < s.size() && std::isalpha(static_cast<unsigned char>(s[name_end]))) ++name_end;
    std::string_view name = s.substr(lt + 1, name_end - lt - 1);
    if (!(name == "strong" || name == "span" || name == "p" || name == "div")) continue;
    if (name_end >= s.size() || !is_php_space(s[name_end])) continue;
    std::size_t gt = s.find('>', name_end);
    std::string_view tag = s.substr(name_end, (gt == std::string_view::npos ? s.size() : gt) - name_end);
    for (std::size_t c = tag.find("class=\""); c != std::string_view::npos; c = tag.find("class=\"", c + 1)) {
      if (c == 0 || !is_php_space(tag[c - 1])) continue;
      std::size_t v = c + 7, close = tag.find('"', v);
      if (close == std::string_view::npos) continue;
      std::string_view value = tag.substr(v, close - v);
      for (std::size_t i = 0; i < value.size();) {
        while (i < value.size() && is_php_space(value[i])) ++i;
        std::size_t j = i;
        while (j < value.size() && !is_php_space(value[j])) ++j;
        if (value.substr(i, j - i) == "error") return true;
        i = j;
      }
    }
  }
  return false;
}

}  // namespace

struct Expander::Impl {
  TemplateStore& store;
  ExpandOptions options;
  support::DiagnosticSink& sink;

  // Per page.
  Expansion* result = nullptr;
  const ingest::Page* page = nullptr;
  std::optional<Title> page_title;
  std::uint64_t node_count = 0;
  int expand_depth = 0;
  std::uint64_t include_size = 0;  ///< Parser::incrementIncludeSize('post-expand')
  std::uint64_t arg_size = 0;      ///< Parser::incrementIncludeSize('arg')
  bool node_limit_reported = false;
  bool depth_limit_reported = false;
  std::deque<Tree> sub_trees;
  /// Parameter values of a recycled Expansion's semantic nodes, emptied and reused as the
  /// storage of the next page's values (a page has a hundred or more).
  std::vector<Piece> spare_pieces;
  Piece spare_piece() {
    if (spare_pieces.empty()) return {};
    Piece p = std::move(spare_pieces.back());
    spare_pieces.pop_back();
    return p;
  }
  std::unordered_map<std::string, std::uint32_t> source_of_title;
  std::uint32_t marker_counter = 0;

  Impl(TemplateStore& s, ExpandOptions o, support::DiagnosticSink& k) : store(s), options(std::move(o)), sink(k) {}

  preprocess::Options pp_options(bool inclusion) const {
    preprocess::Options o;
    o.for_inclusion = inclusion;
    if (!options.extension_tags.empty()) o.extension_tags = options.extension_tags;
    o.report_unclosed = false;
    return o;
  }

  // -------------------------------------------------------------- diagnostics
  void warn(const Origin& origin, const std::string& message) {
    auto where = result->locate(origin);
    sink.warning(where.file, where.at, message + where.chain);
  }

  // -------------------------------------------------------------- sources
  std::uint32_t add_source(const std::string& title, const std::string& file, support::Position text_at,
                           std::string_view text) {
    auto [it, fresh] = source_of_title.try_emplace(title, static_cast<std::uint32_t>(result->sources.size()));
    if (fresh) {
      result->sources.push_back({title, file, text_at});
      result->source_lines.emplace_back(text);
    }
    return it->second;
  }

  Origin origin_of(const Frame& f, support::Span span) const {
    return {f.source, {span.begin + f.offset, span.end + f.offset}, f.chain};
  }

  // -------------------------------------------------------------- walking
  void expand_children(NodeId id, const Frame& f, Piece& out) {
    for (NodeId c : f.tree->children(id)) expand(c, f, out);
  }

  /// PPFrame_Hash::expand(): a new expansion with its own depth and node-count
  /// accounting. Nodes below it are walked by expand() without being counted, as
  /// MediaWiki iterates them in the same call.
  /// `storage`: a Piece whose buffers the result may reuse (its contents are dropped).
  Piece expanded(NodeId id, const Frame& f, std::size_t reserve_text = 0, Piece&& storage = {}) {
    Piece p = std::move(storage);
    p.text.clear();
    p.segments.clear();
    if (++node_count > kMaxNodeCount) {
      if (!node_limit_reported) {
        warn(origin_of(f, f.tree->node(id).span),
             "preprocessor node-count limit (" + std::to_string(kMaxNodeCount) + ") exceeded; the rest is not expanded");
        node_limit_reported = true;
      }
      p.append("<span class=\"error\">Node-count limit exceeded</span>", origin_of(f, f.tree->node(id).span));
      return p;
    }
    if (expand_depth > kMaxExpandDepth) {
      if (!depth_limit_reported) {
        warn(origin_of(f, f.tree->node(id).span),
             "expansion depth limit (" + std::to_string(kMaxExpandDepth) + ") exceeded");
        depth_limit_reported = true;
      }
      p.append("<span class=\"error\">Expansion depth limit exceeded</span>", origin_of(f, f.tree->node(id).span));
      return p;
    }
    p.text.reserve(reserve_text);
    ++expand_depth;
    expand(id, f, p);
    --expand_depth;
    return p;
  }

  void expand(NodeId id, const Frame& f, Piece& out) {
    const preprocess::Node& n = f.tree->node(id);
    switch (n.kind) {
    case NodeKind::Text:
    case NodeKind::Equals: out.append(f.tree->text(n), origin_of(f, n.span)); break;
    case NodeKind::Root:
    case NodeKind::Title:
    case NodeKind::Value:
    case NodeKind::Name:
    case NodeKind::Heading: expand_children(id, f, out); break;
    case NodeKind::Part: expand_part(id, f, out); break;
    case NodeKind::Template: brace_substitution(id, f, out); break;
    case NodeKind::Argument: arg_substitution(id, f, out); break;
    case NodeKind::Comment:
      if (!options.remove_comments) out.append(f.tree->text(n), origin_of(f, n.span));
      break;
    case NodeKind::Ignore: break;  // <noinclude>/<includeonly> hidden in this mode
    case NodeKind::ExtensionTag: extension_tag(id, f, out); break;
    }
  }

  /// A part expanded as a whole ("name=value", or the value of a positional part).
  void expand_part(NodeId id, const Frame& f, Piece& out) {
    for (NodeId c : f.tree->children(id)) {
      const auto& cn = f.tree->node(c);
      if (cn.kind == NodeKind::Name && cn.index > 0) continue;
      expand(c, f, out);
    }
  }

  struct Split {
    NodeId name = kNoNode;
    NodeId value = kNoNode;
    std::uint32_t index = 0;  ///< positional index, 0 for a named part
  };
  Split split_part(const Frame& f, NodeId part) const {
    Split s;
    for (NodeId c : f.tree->children(part)) {
      const auto& cn = f.tree->node(c);
      if (cn.kind == NodeKind::Name) {
        s.name = c;
        s.index = cn.index;
      } else if (cn.kind == NodeKind::Value) {
        s.value = c;
      }
    }
    return s;
  }

  Parts parts_of(const Frame& f, NodeId tpl, NodeId& title) const {
    Parts parts;
    title = kNoNode;
    for (NodeId c : f.tree->children(tpl)) {
      const auto& cn = f.tree->node(c);
      if (cn.kind == NodeKind::Title) title = c;
      else if (cn.kind == NodeKind::Part) parts.push_back(c);
    }
    return parts;
  }

  /// virtualBracketedImplode: the call written back, with its pieces expanded.
  void literal_call(const Frame& f, const char* open, const char* close, const Piece& title,
                    const Parts& parts, const Origin& at, Piece& out) {
    out.append(open, {at.source, {at.span.begin, at.span.begin}, at.chain});
    out.append(title);
    for (NodeId p : parts) {
      out.append("|", {at.source, {at.span.begin, at.span.begin}, at.chain});
      expand(p, f, out);
    }
    out.append(close, {at.source, {at.span.end, at.span.end}, at.chain});
  }

  // -------------------------------------------------------------- {{{arg}}}
  void arg_substitution(NodeId id, const Frame& f, Piece& out) {
    NodeId title_node;
    auto parts = parts_of(f, id, title_node);
    Piece name_with_spaces = title_node == kNoNode ? Piece{} : expanded(title_node, f);
    std::string name(php_trim(name_with_spaces.text));
    if (const Piece* value = argument(f, name)) {
      if (arg_size + value->text.size() > kMaxIncludeSize) {
        warn(origin_of(f, f.tree->node(id).span), "template argument size limit (" + std::to_string(kMaxIncludeSize) +
                                                      " bytes) exceeded; argument omitted");
        out.append("<!-- WARNING: argument omitted, expansion size too large -->", origin_of(f, f.tree->node(id).span));
        return;
      }
      arg_size += value->text.size();
      out.append(*value);
      return;
    }
    if (!parts.empty()) {
      // No such argument: the first default, expanded in this frame.
      Split s = split_part(f, parts[0]);
      for (NodeId c : f.tree->children(parts[0])) {
        const auto& cn = f.tree->node(c);
        if (cn.kind == NodeKind::Name && cn.index > 0) continue;
        expand(c, f, out);
      }
      (void)s;
      return;
    }
    literal_call(f, "{{{", "}}}", name_with_spaces, parts, origin_of(f, f.tree->node(id).span), out);
  }

  /// The argument's value, expanded once and cached in the frame (null if absent).
  const Piece* argument(const Frame& f, const std::string& name) {
    if (!f.is_template()) return nullptr;
    auto it = f.args->find(name);
    if (it == f.args->end()) return nullptr;
    Arg& a = it->second;
    if (!a.cache) {
      Piece v = a.value == kNoNode ? Piece{} : expanded(a.value, *a.owner);
      a.cache = a.named ? std::move(v).trimmed() : std::move(v);
    }
    return &*a.cache;
  }

  // -------------------------------------------------------------- {{…}}
  void brace_substitution(NodeId id, const Frame& f, Piece& out) {
    const preprocess::Node& node = f.tree->node(id);
    Origin call = origin_of(f, node.span);
    NodeId title_node;
    auto parts = parts_of(f, id, title_node);
    // Most titles are plain text: their Piece (text plus segments) is built only if the
    // call is written back literally.
    std::string title_text;
    std::optional<Piece> title_piece;
    if (title_node == kNoNode) title_piece.emplace();
    else if (!expanded_plain(title_node, f, title_text)) title_piece = expanded(title_node, f);
    auto title_with_spaces = [&]() -> const Piece& {
      if (!title_piece) title_piece = plain_piece(title_node, f);
      return *title_piece;
    };
    std::string part1(php_trim(title_piece ? title_piece->text : title_text));

    // subst: stays literal on view; safesubst: is dropped (Parser::braceSubstitution).
    std::string lower_head = to_lower(part1.substr(0, 10));
    if (lower_head.rfind("subst:", 0) == 0) {
      literal_call(f, "{{", "}}", title_with_spaces(), parts, call, out);
      return;
    }
    if (lower_head.rfind("safesubst:", 0) == 0) part1 = std::string(php_trim(part1.substr(10)));

    Piece text;
    bool found = false;
    std::string resolved_title;  ///< the template's title once it is known (for error links)
    if (parts.empty()) {
      if (auto v = magic_variable(part1)) {
        text.append(*v, call);
        found = true;
      }
    }
    if (!found) {
      if (auto colon = part1.find(':'); colon != std::string::npos) {
        std::string func = part1.substr(0, colon);
        std::string first(php_trim(std::string_view(part1).substr(colon + 1)));
        if (auto r = parser_function(func, first, parts, f, call)) {
          text = std::move(*r);
          found = true;
        }
      }
    }
    if (!found) {
      auto title = make_title(part1, 10, store.site());
      if (!title) {
        if (!part1.empty() && part1[0] == '#')
          warn(call, "unsupported parser function '" + part1.substr(0, part1.find(':')) + "' kept as text");
        literal_call(f, "{{", "}}", title_with_spaces(), parts, call, out);
        return;
      }
      if (title->ns == 10 && !options.expand_all && options.schema) {
        if (const TemplateSpec* spec = options.schema->find(title->text)) {
          semantic_node(*spec, parts, f, call, node.line_start, out);
          return;
        }
      }
      resolved_title = title->prefixed;
      if (f.depth >= kMaxTemplateDepth) {
        warn(call, "template recursion depth limit (" + std::to_string(kMaxTemplateDepth) + ") exceeded at " +
                       title->prefixed);
        text.append("<span class=\"error\">Template recursion depth limit exceeded (" +
                        std::to_string(kMaxTemplateDepth) + ")</span>",
                    call);
        found = true;
      } else {
        TemplateStore::Entry* entry = fetch(*title);
        std::string resolved = entry ? entry->title : title->prefixed;
        if (in_loop(f, resolved)) {
          warn(call, "template loop detected: " + resolved);
          text.append("<span class=\"error\">Template loop detected: [[" + resolved + "]]</span>", call);
          found = true;
        } else if (!entry) {
          warn(call, "template '" + title->prefixed + "' is not in the input; rendered as a link, as MediaWiki does");
          text.append("[[:" + title->prefixed + "]]", call);
          found = true;
        } else {
          text = transclude(*entry, parts, f, call);
          found = true;
        }
        resolved_title = resolved;
      }
    }
    // T2529: a template whose output starts a block gets a line of its own.
    if (!node.line_start && !text.text.empty()) {
      char c = text.text[0];
      if ((c == '{' && text.text.size() > 1 && text.text[1] == '|') || c == ':' || c == ';' || c == '#' || c == '*') {
        Piece nl;
        nl.append("\n", {call.source, {call.span.begin, call.span.begin}, call.chain});
        nl.append(text);
        text = std::move(nl);
      }
    }
    if (include_size + text.text.size() > kMaxIncludeSize) {
      warn(call, "post-expand include size limit (" + std::to_string(kMaxIncludeSize) + " bytes) exceeded; " +
                     (resolved_title.empty() ? part1 : resolved_title) + " omitted");
      std::string link = resolved_title.empty() ? (part1.size() && part1[0] == ':' ? part1.substr(1) : part1) : resolved_title;
      out.append("[[:" + link + "]]<!-- WARNING: template omitted, post-expand include size too large -->", call);
      return;
    }
    include_size += text.text.size();
    out.append(text);
  }

  TemplateStore::Entry* fetch(const Title& title) {
    TemplateStore::Entry* e = store.find(title.prefixed);
    // Template redirects are followed (Parser::statelessFetchTemplate, at most 2 hops).
    for (int hop = 0; e && !e->redirect.empty() && hop < 2; ++hop) {
      auto target = make_title(e->redirect, 0, store.site());
      if (!target) break;
      TemplateStore::Entry* next = store.find(target->prefixed);
      if (!next) break;
      e = next;
    }
    return e;
  }

  static bool in_loop(const Frame& f, const std::string& title) {
    for (const Frame* p = &f; p && p->is_template(); p = p->parent)
      if (p->title == title) return true;
    return false;
  }

  Piece transclude(TemplateStore::Entry& entry, const Parts& parts, const Frame& f, const Origin& call) {
    if (parts.empty()) {
      if (auto hit = f.child_cache->find(entry.title); hit != f.child_cache->end()) return hit->second;
    }
    if (!entry.inclusion_tree)
      entry.inclusion_tree = std::make_unique<Tree>(preprocess::preprocess(entry.text, pp_options(true)));
    Frame child;
    child.parent = &f;
    child.tree = entry.inclusion_tree.get();
    child.source = add_source(entry.title, entry.file, entry.text_at, entry.text);
    result->calls.push_back({entry.title, call});
    child.chain = static_cast<std::uint32_t>(result->calls.size() - 1);
    child.title = entry.title;
    child.depth = f.depth + 1;
    // PPTemplateFrame_Hash: positional values as written, named ones trimmed; a later
    // duplicate replaces an earlier one, whether numbered or named.
    for (NodeId p : parts) {
      Split s = split_part(f, p);
      if (s.index > 0) {
        (*child.args)[std::to_string(s.index)] = Arg{&f, s.value, false, std::nullopt};
      } else {
        std::string name(php_trim(expanded_without_comments(s.name, f)));
        (*child.args)[name] = Arg{&f, s.value, true, std::nullopt};
      }
    }
    Piece body = expanded(child.tree->root, child);
    if (parts.empty()) (*f.child_cache)[entry.title] = body;
    return body;
  }

  /// expanded(id, f).text for a node made only of text (comments and ignored parts
  /// dropped as expand() drops them), with expanded()'s node and depth accounting but
  /// no Piece. False, with nothing counted, when the node needs the full expansion.
  bool expanded_plain(NodeId id, const Frame& f, std::string& text) {
    if (node_count + 1 > kMaxNodeCount || expand_depth > kMaxExpandDepth) return false;
    NodeKind kind = f.tree->node(id).kind;
    if (kind != NodeKind::Title && kind != NodeKind::Name && kind != NodeKind::Value) return false;
    for (NodeId c : f.tree->children(id)) {
      NodeKind k = f.tree->node(c).kind;
      bool plain = k == NodeKind::Text || k == NodeKind::Equals || k == NodeKind::Ignore ||
                   (k == NodeKind::Comment && options.remove_comments);
      if (!plain) return false;
    }
    ++node_count;
    text.clear();
    for (NodeId c : f.tree->children(id)) {
      const preprocess::Node& cn = f.tree->node(c);
      if (cn.kind == NodeKind::Text || cn.kind == NodeKind::Equals) text.append(f.tree->text(cn));
    }
    return true;
  }
  /// The Piece expanded() makes of a node expanded_plain() accepted, without counting
  /// it again.
  Piece plain_piece(NodeId id, const Frame& f) const {
    Piece p;
    for (NodeId c : f.tree->children(id)) {
      const preprocess::Node& cn = f.tree->node(c);
      if (cn.kind == NodeKind::Text || cn.kind == NodeKind::Equals) p.append(f.tree->text(cn), origin_of(f, cn.span));
    }
    return p;
  }

  std::string expanded_without_comments(NodeId id, const Frame& f) {
    if (id == kNoNode) return {};
    bool saved = options.remove_comments;
    options.remove_comments = true;  // PPFrame::STRIP_COMMENTS for argument names
    // Names are nearly always plain text: no Piece is built for them then.
    std::string s;
    if (!expanded_plain(id, f, s)) s = expanded(id, f).text;
    options.remove_comments = saved;
    return s;
  }

  void semantic_node(const TemplateSpec& spec, const Parts& parts, const Frame& f, const Origin& call,
                     bool line_start, Piece& out) {
    SemanticNode node;
    node.name = spec.name;
    node.spec = &spec;
    node.origin = call;
    node.line_start = line_start;
    node.parameters.reserve(parts.size());
    for (NodeId p : parts) {
      Split s = split_part(f, p);
      SemanticNode::Parameter param;
      if (s.index > 0) {
        param.name = std::to_string(s.index);
        param.value = s.value == kNoNode ? Piece{} : expanded(s.value, f, 0, spare_piece());
      } else {
        param.name = std::string(php_trim(expanded_without_comments(s.name, f)));
        param.value = s.value == kNoNode ? Piece{} : expanded(s.value, f, 0, spare_piece()).trimmed();
      }
      if (!spec.parameters.empty() || spec.kind == SemanticKind::block_close) {
        auto ps = spec.parameters.find(param.name);
        if (ps == spec.parameters.end())
          warn(call, "unknown parameter '" + param.name + "' of semantic template " + spec.name);
        else if (!ps->second.values.empty() &&
                 std::find(ps->second.values.begin(), ps->second.values.end(), param.value.text) ==
                     ps->second.values.end())
          warn(call, "parameter '" + param.name + "' of " + spec.name + " has value '" + param.value.text +
                         "', not one of the documented values");
      }
      node.parameters.push_back(std::move(param));
    }
    for (const auto& [name, ps] : spec.parameters)
      if (ps.required && !node.find(name))
        warn(call, "semantic template " + spec.name + " is missing its required parameter '" + name + "'");
    char id[16];
    std::snprintf(id, sizeof id, "%08X", marker_counter++);
    node.marker.reserve(kMarkerPrefix.size() + 8 + kMarkerSuffix.size());
    node.marker.append(kMarkerPrefix).append(id).append(kMarkerSuffix);
    out.append(node.marker, call);
    result->semantic.push_back(std::move(node));
  }

  // -------------------------------------------------------------- extension tags
  void extension_tag(NodeId id, const Frame& f, Piece& out) {
    const preprocess::Node& n = f.tree->node(id);
    const auto& parts = f.tree->extension_tag(n);
    std::string name = to_lower(f.tree->text(parts.name));
    if (options.translate && (name == "translate" || name == "tvar") && parts.has_inner) {
      // Translate removes its own markup before parsing: the inner text is wikitext of
      // the page, expanded in place; unit boundaries are kept as metadata.
      std::string_view inner = f.tree->text(parts.inner);
      Tree& sub = sub_trees.emplace_back(preprocess::preprocess(inner, pp_options(f.tree->for_inclusion)));
      Frame view = f;
      view.tree = &sub;
      view.offset = f.offset + parts.inner.begin;
      auto begin = static_cast<std::uint32_t>(out.text.size());
      expand(sub.root, view, out);
      if (name == "translate")
        result->translate_regions.push_back({begin, static_cast<std::uint32_t>(out.text.size()), origin_of(f, n.span)});
      return;
    }
    // Parser::extensionSubstitution outside HTML output: the tag as written.
    out.append(f.tree->text(n), origin_of(f, n.span));
  }

  // -------------------------------------------------------------- magic words
  std::optional<std::string> magic_variable(const std::string& name) {
    if (name == "!") return "|";
    if (name == "=") return "=";  // MediaWiki 1.39 registers {{=}} as a magic word
    return page_magic(name, *page_title);
  }

  std::optional<std::string> page_magic(const std::string& name, const Title& t) {
    bool subpages = t.ns != 0 || options.subpages_in_main;
    auto slash = subpages ? t.text.rfind('/') : std::string::npos;
    if (name == "PAGENAME") return escape_wikitext(t.text);
    if (name == "FULLPAGENAME") return escape_wikitext(t.prefixed);
    if (name == "BASEPAGENAME") return escape_wikitext(slash == std::string::npos ? t.text : t.text.substr(0, slash));
    if (name == "SUBPAGENAME") return escape_wikitext(slash == std::string::npos ? t.text : t.text.substr(slash + 1));
    if (name == "NAMESPACE") return escape_wikitext(t.namespace_name);
    if (name == "PAGELANGUAGE") return page->language.empty() ? store.site().language : page->language;
    return std::nullopt;
  }

  // -------------------------------------------------------------- parser functions
  std::optional<Piece> parser_function(const std::string& func, const std::string& first, const Parts& parts,
                                       const Frame& f, const Origin& call) {
    auto text_of = [&](std::string s) {
      Piece p;
      p.append(s, call);
      return p;
    };
    // Case-sensitive magic-word functions: {{PAGENAME:Other page}}.
    static const char* title_functions[] = {"PAGENAME", "FULLPAGENAME", "BASEPAGENAME", "SUBPAGENAME", "NAMESPACE"};
    for (const char* tf : title_functions)
      if (func == tf) {
        auto t = make_title(first, 0, store.site());
        if (!t) return text_of("");
        return text_of(*page_magic(func, *t));
      }
    std::string name = to_lower(func);
    auto arg_node = [&](std::size_t i) -> NodeId { return i < parts.size() ? parts[i] : kNoNode; };
    auto expand_trim = [&](NodeId p) { return p == kNoNode ? Piece{} : expanded(p, f).trimmed(); };
    auto plain_args = [&] {
      // Functions without SFH_OBJECT_ARGS get every argument expanded and trimmed.
      std::vector<std::string> a{first};
      for (NodeId p : parts) a.emplace_back(expand_trim(p).text);
      return a;
    };
    auto first_piece = [&] { return text_of(first); };
    (void)first_piece;
    if (name == "#if") {
      return expand_trim(!first.empty() ? arg_node(0) : arg_node(1));
    }
    if (name == "#ifeq") {
      std::string left = decode_char_references(first);
      std::string right(php_trim(decode_char_references(expanded_text(arg_node(0), f))));
      left = std::string(php_trim(left));
      return expand_trim(php_loose_equal(left, right) ? arg_node(1) : arg_node(2));
    }
    if (name == "#iferror") {
      bool is_error = has_error_class(first);
      if (is_error) return expand_trim(arg_node(0));
      if (parts.size() < 2) return text_of(first);
      return expand_trim(arg_node(1));
    }
    if (name == "#ifexpr") {
      std::string error;
      bool truth = ifexpr_test(first, error);
      if (!error.empty()) return text_of(error);
      return expand_trim(truth ? arg_node(0) : arg_node(1));
    }
    if (name == "#switch") return switch_function(first, parts, f, call);
    if (name == "#expr") return text_of(expr_function(first));
    if (name == "#tag") return tag_function(first, parts, f, call);
    if (name == "lc") return text_of(to_lower(first));
    if (name == "uc") return text_of(to_upper(first));
    if (name == "lcfirst") return text_of(lc_first(first));
    if (name == "ucfirst") return text_of(uc_first(first));
    if (name == "padleft" || name == "padright") {
      auto a = plain_args();
      return text_of(pad_string(a[0], a.size() > 1 ? a[1] : "0", a.size() > 2 ? a[2] : "0", name == "padleft"));
    }
    if (name == "urlencode") {
      auto a = plain_args();
      return text_of(url_encode(a[0], a.size() > 1 ? a[1] : ""));
    }
    if (name == "anchorencode") return text_of(anchor_encode(first));
    if (name == "#titleparts") {
      auto a = plain_args();
      return text_of(title_parts(a[0], a.size() > 1 ? a[1] : "0", a.size() > 2 ? a[2] : "0", store.site()));
    }
    if (name == "#translation" && options.translate) {
      // Translate's {{#translation:}}: "/xx" on a translation page, "" on its source.
      const std::string& title = page->title;
      auto slash = title.rfind('/');
      if (slash != std::string::npos && ingest::is_language_code(title.substr(slash + 1)) &&
          store.find(title.substr(0, slash)) != nullptr)
        return text_of(title.substr(slash));
      if (slash != std::string::npos && ingest::is_language_code(title.substr(slash + 1)) &&
          title.substr(slash + 1) != store.site().language)
        return text_of(title.substr(slash));
      return text_of("");
    }
    return std::nullopt;
  }

  std::string expanded_text(NodeId id, const Frame& f) { return id == kNoNode ? std::string{} : expanded(id, f).text; }

  Piece switch_function(const std::string& first, const Parts& parts, const Frame& f, const Origin& call) {
    std::string primary(php_trim(decode_char_references(first)));
    bool found = false, default_found = false, last_item_had_no_equals = false;
    NodeId default_value = kNoNode;
    bool have_default = false;
    Piece last_item;
    for (NodeId p : parts) {
      Split s = split_part(f, p);
      if (s.index == 0) {
        last_item_had_no_equals = false;
        if (found) return expanded(s.value, f).trimmed();
        std::string test(php_trim(decode_char_references(expanded_text(s.name, f))));
        if (php_loose_equal(test, primary)) return expanded(s.value, f).trimmed();
        if (default_found || to_lower(test) == "#default") {
          default_value = s.value;
          have_default = true;
          default_found = false;
        }
      } else {
        last_item_had_no_equals = true;
        Piece value = s.value == kNoNode ? Piece{} : expanded(s.value, f);
        last_item = value.trimmed();
        std::string decoded(php_trim(decode_char_references(value.text)));
        if (php_loose_equal(decoded, primary)) found = true;
        else if (to_lower(decoded) == "#default") default_found = true;
      }
    }
    if (last_item_had_no_equals) return last_item;
    if (have_default) return default_value == kNoNode ? Piece{} : expanded(default_value, f).trimmed();
    (void)call;
    return {};
  }

  Piece tag_function(const std::string& first, const Parts& parts, const Frame& f, const Origin& call) {
    std::string tag = to_lower(std::string(php_trim(first)));
    Piece out;
    if (tag.empty() && parts.empty()) return out;
    std::optional<Piece> inner;
    if (!parts.empty()) inner = expanded(parts[0], f);
    std::string attrs;
    for (std::size_t i = 1; i < parts.size(); ++i) {
      Split s = split_part(f, parts[i]);
      if (s.index > 0) continue;
      std::string name(php_trim(expanded_without_comments(s.name, f)));
      std::string value(php_trim(expanded_text(s.value, f)));
      if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
          (value.back() == '"' || value.back() == '\''))
        value = value.substr(1, value.size() - 2);
      attrs += " " + support::html_escape(name, true) + "=\"" + support::html_escape(value, false) + "\"";
    }
    out.append("<" + tag + attrs + (inner ? ">" : "/>"), call);
    if (inner) {
      out.append(*inner);
      out.append("</" + tag + ">", call);
    }
    return out;
  }
};

Expander::Expander(TemplateStore& store, ExpandOptions options, support::DiagnosticSink& sink)
    : impl_(std::make_unique<Impl>(store, std::move(options), sink)) {}

Expander::~Expander() = default;

Expansion Expander::expand_page(const ingest::Page& page) { return expand_page(page, Expansion{}); }

Expansion Expander::expand_page(const ingest::Page& page, Expansion&& recycled) {
  return expand_page(page, std::move(recycled), nullptr);
}

Expansion Expander::expand_page(const ingest::Page& page, Expansion&& recycled,
                                const preprocess::PlainRuns* plain_runs) {
  Impl& im = *impl_;
  Expansion result;
  // The recycled buffers are taken over emptied: the result starts as empty as a new one.
  Piece storage;
  storage.text = std::move(recycled.text);
  storage.segments = std::move(recycled.segments);
  for (auto& node : recycled.semantic)
    for (auto& param : node.parameters) im.spare_pieces.push_back(std::move(param.value));
  result.semantic = std::move(recycled.semantic);
  result.semantic.clear();
  result.calls = std::move(recycled.calls);
  result.calls.clear();
  result.sources = std::move(recycled.sources);
  result.sources.clear();
  result.source_lines = std::move(recycled.source_lines);
  result.source_lines.clear();
  result.translate_regions = std::move(recycled.translate_regions);
  result.translate_regions.clear();
  result.calls.push_back({"", {}});  // chain 0: no call
  im.result = &result;
  im.page = &page;
  im.page_title = make_title(page.title, 0, im.store.site());
  if (!im.page_title) im.page_title = Title{page.ns, page.title, page.title, ""};
  im.source_of_title.clear();
  im.node_count = 0;
  im.expand_depth = 0;
  im.include_size = 0;
  im.arg_size = 0;
  im.node_limit_reported = im.depth_limit_reported = false;
  im.sub_trees.clear();
  im.marker_counter = 0;

  // The last page's preprocessor tree, its nodes reused by the next. Per thread, as an
  // Expander may live for one page only (`wikic compile` makes one per page).
  thread_local Tree page_tree_storage;
  Tree tree = preprocess::preprocess(page.revision.text, im.pp_options(false), {}, std::move(page_tree_storage),
                                     plain_runs, nullptr);
  Frame root;
  root.tree = &tree;
  root.source = im.add_source(page.title, page.source.file, page.source.text_at, page.revision.text);
  if (plain_runs && plain_runs->newlines_known && plain_runs->source_size == page.revision.text.size())
    result.source_lines[root.source] = support::LineIndex(page.revision.text, plain_runs->newlines);
  root.title = page.title;
  // The expanded page is about as long as the page (semantic calls become markers):
  // reserving that, with some room, saves regrowing and copying it as it is built.
  const std::size_t page_size = page.revision.text.size();
  Piece out = im.expanded(tree.root, root, page_size + page_size / 8, std::move(storage));
  result.text = std::move(out.text);
  result.segments = std::move(out.segments);
  im.result = nullptr;
  im.sub_trees.clear();
  page_tree_storage = std::move(tree);
  return result;
}

}  // namespace wikic::expand
