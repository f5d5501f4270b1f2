// S-expression and JSON printers for the document tree. The S-expression walk is
// iterative (TreeVisitor); JSON recursion is bounded by kMaxNestingDepth per fragment.
#include "parse/printer.hpp"

#include <nlohmann/json.hpp>

namespace wikic::parse {

namespace {

bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

void quote(std::string& out, std::string_view s) {
  out += '"';
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default: out += c;
    }
  }
  out += '"';
}

std::string collapse(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (is_ws(c)) {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

// Text as printed, or nullopt-like empty flag when the node is left out.
bool printable_text(const Document& doc, const Node& n, const SexprOptions& o, std::string& out) {
  std::string_view t = doc.text(n);
  if (o.exact_whitespace) {
    out.assign(t);
    return !t.empty();
  }
  out = collapse(t);
  return !out.empty();
}

void head(std::string& out, const Document& doc, const Node& n, const SexprOptions& o) {
  out += '(';
  switch (n.kind) {
    case NodeKind::Element:
      out += '<';
      out += n.name;
      out += '>';
      break;
    case NodeKind::TableCell:
      out += n.header() ? "hcell" : "cell";
      break;
    default:
      out += to_string(n.kind);
  }
  if (o.spans) {
    out += " @";
    out += std::to_string(n.span.begin);
    out += '-';
    out += std::to_string(n.span.end);
  }
  switch (n.kind) {
    case NodeKind::Heading:
      out += ' ';
      out += std::to_string(n.level());
      break;
    case NodeKind::List:
    case NodeKind::ListItem:
      out += " \"";
      out += n.marker();
      out += '"';
      break;
    case NodeKind::Wikilink:
    case NodeKind::FileLink:
    case NodeKind::ExternalLink:
    case NodeKind::SemanticTemplate:
    case NodeKind::TemplateParameter:
    case NodeKind::ExtensionTag:
      out += ' ';
      quote(out, n.name);
      break;
    case NodeKind::Entity:
    case NodeKind::Template:
      out += ' ';
      quote(out, doc.text(n));
      break;
    default:
      break;
  }
  for (const Attribute& a : doc.attributes(n)) {
    out += ' ';
    out += a.name;
    if (a.has_value) {
      out += '=';
      quote(out, a.value);
    }
  }
  if (n.implicitly_closed && n.kind == NodeKind::Element) out += " !unclosed";
}

class SexprPrinter : public TreeVisitor {
public:
  SexprPrinter(std::string& out, const SexprOptions& o) : out_(out), o_(o) {}

  bool enter(const Document& doc, NodeId id, std::span<const NodeId> ancestors) override {
    const Node& n = doc.node(id);
    std::string text;
    if (n.kind == NodeKind::Text) {
      if (!printable_text(doc, n, o_, text)) return false;
      newline(ancestors.size());
      quote(out_, text);
      return false;
    }
    newline(ancestors.size());
    head(out_, doc, n, o_);
    // A node whose only child is text prints on one line.
    if (n.first_child != kNoNode && n.first_child == n.last_child &&
        doc.node(n.first_child).kind == NodeKind::Text) {
      if (printable_text(doc, doc.node(n.first_child), o_, text)) {
        out_ += ' ';
        quote(out_, text);
      }
      out_ += ')';
      return false;
    }
    return true;
  }

  void exit(const Document& doc, NodeId id, std::span<const NodeId>) override {
    const Node& n = doc.node(id);
    if (n.kind == NodeKind::Text) return;
    if (n.first_child != kNoNode && n.first_child == n.last_child &&
        doc.node(n.first_child).kind == NodeKind::Text)
      return;  // closed in enter()
    out_ += ')';
  }

private:
  void newline(std::size_t depth) {
    if (!out_.empty()) out_ += '\n';
    out_.append(depth * 2, ' ');
  }
  std::string& out_;
  const SexprOptions& o_;
};

nlohmann::json node_json(const Document& doc, NodeId id) {
  const Node& n = doc.node(id);
  nlohmann::json j;
  j["kind"] = to_string(n.kind);
  j["span"] = {n.span.begin, n.span.end};
  if (n.source != 0) j["source"] = n.source;
  if (!n.name.empty()) j["name"] = std::string(n.name);
  switch (n.kind) {
    case NodeKind::Heading: j["level"] = n.level(); break;
    case NodeKind::List:
    case NodeKind::ListItem: j["marker"] = std::string(1, n.marker()); break;
    case NodeKind::TableCell: j["header"] = n.header(); break;
    case NodeKind::Text:
    case NodeKind::Comment:
    case NodeKind::Template: j["text"] = std::string(doc.text(n)); break;
    case NodeKind::Entity:
      j["text"] = std::string(doc.text(n));
      j["decoded"] = decode_entity(doc.text(n));
      break;
    default: break;
  }
  if (n.attr_count > 0) {
    auto& attrs = j["attributes"] = nlohmann::json::array();
    for (const Attribute& a : doc.attributes(n)) {
      nlohmann::json x;
      x["name"] = std::string(a.name);
      if (a.has_value) x["value"] = std::string(a.value);
      x["span"] = {a.span.begin, a.span.end};
      attrs.push_back(std::move(x));
    }
    auto cls = doc.classes(n);
    if (!cls.empty()) {
      auto& c = j["classes"] = nlohmann::json::array();
      for (std::string_view s : cls) c.push_back(std::string(s));
    }
  }
  if (n.implicitly_closed) j["implicitly_closed"] = true;
  if (n.first_child != kNoNode) {
    auto& children = j["children"] = nlohmann::json::array();
    for (NodeId c = n.first_child; c != kNoNode; c = doc.node(c).next_sibling)
      children.push_back(node_json(doc, c));
  }
  return j;
}

}  // namespace

std::string to_sexpr(const Document& doc, NodeId from, const SexprOptions& options) {
  std::string out;
  if (from >= doc.size()) return out;
  SexprPrinter printer(out, options);
  walk(doc, printer, from);
  out += '\n';
  return out;
}

std::string to_json(const Document& doc, NodeId from, int indent) {
  if (from >= doc.size()) return "null";
  // Invalid UTF-8 in the page must not make the printer throw.
  return node_json(doc, from).dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace wikic::parse
