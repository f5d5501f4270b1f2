// Printers for the preprocessor tree. The wikitext printer rebuilds delimiters ({{, |,
// }}, tag brackets) from the node kinds instead of copying the root span, so the round
// trip really checks that the tree accounts for every byte.
#include "preprocess/printers.hpp"

#include <cstdio>

#include "support/html.hpp"
#include "support/utf8.hpp"

namespace wikic::preprocess {

namespace {

void children_wikitext(const Tree& tree, NodeId id, std::string& out) {
  for (NodeId c : tree.children(id)) append_wikitext(tree, c, out);
}

// htmlspecialchars($s, ENT_COMPAT): & < > " escaped; invalid UTF-8 gives "" in PHP 8.
void escape_xml(std::string_view s, std::string& out) {
  if (support::find_invalid_utf8(s) != std::string_view::npos) return;
  support::append_html_escaped(out, s, false);
}

class XmlPrinter {
public:
  explicit XmlPrinter(const Tree& tree) : tree_(tree) {}
  std::string out;

  void node(NodeId id) {
    const Node& n = tree_.node(id);
    switch (n.kind) {
    case NodeKind::Text: escape_xml(tree_.text(n), out); return;
    case NodeKind::Comment:
    case NodeKind::Ignore:
    case NodeKind::Equals: leaf(to_string(n.kind), tree_.text(n)); return;
    case NodeKind::Name:
      if (n.index > 0) {
        out += "<name index=\"" + std::to_string(n.index) + "\"/>";
        return;
      }
      break;
    case NodeKind::ExtensionTag: {
      const ExtensionTagParts& p = tree_.extension_tag(n);
      out += "<ext>";
      leaf("name", tree_.text(p.name));
      leaf("attr", tree_.text(p.attributes));
      if (p.has_inner) leaf("inner", tree_.text(p.inner));
      if (p.has_close) leaf("close", tree_.text(p.close));
      out += "</ext>";
      return;
    }
    default: break;
    }
    // PPNode_Hash_Tree::__toString: attributes first, then children, <x/> when empty.
    std::string name = n.kind == NodeKind::Heading && n.possible ? "possible-h" : to_string(n.kind);
    out += '<';
    out += name;
    if ((n.kind == NodeKind::Template || n.kind == NodeKind::Argument) && n.line_start) out += " lineStart=\"1\"";
    if (n.kind == NodeKind::Heading)
      out += " level=\"" + std::to_string(n.level) + "\" i=\"" + std::to_string(n.index) + "\"";
    out += '>';
    std::size_t body = out.size();
    for (NodeId c : tree_.children(id)) node(c);
    if (out.size() == body) {
      out.pop_back();
      out += "/>";
    } else {
      out += "</" + name + ">";
    }
  }

private:
  void leaf(const char* name, std::string_view text) {
    out += '<';
    out += name;
    std::size_t body = out.size() + 1;
    out += '>';
    escape_xml(text, out);
    if (out.size() == body) {
      out.pop_back();
      out += "/>";
    } else {
      out += "</";
      out += name;
      out += '>';
    }
  }
  const Tree& tree_;
};

void escape_string(std::string_view raw, std::string& out) {
  std::string fixed;
  if (support::find_invalid_utf8(raw) != std::string_view::npos) {
    fixed = support::replace_invalid_utf8(raw);
    raw = fixed;
  }
  out += '"';
  for (char c : raw) {
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\t': out += "\\t"; break;
    case '\r': out += "\\r"; break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
        out += buf;
      } else {
        out += c;
      }
    }
  }
  out += '"';
}

class SexprPrinter {
public:
  explicit SexprPrinter(const Tree& tree) : tree_(tree) {}
  std::string out;

  void node(NodeId id, int depth) {
    const Node& n = tree_.node(id);
    out.append(static_cast<std::size_t>(depth) * 2, ' ');
    out += '(';
    out += n.kind == NodeKind::Heading && n.possible ? "possible-h" : to_string(n.kind);
    out += " [" + std::to_string(n.span.begin) + ',' + std::to_string(n.span.end) + ')';
    if (n.line_start) out += " :line-start";
    if (n.kind == NodeKind::Heading)
      out += " :level " + std::to_string(n.level) + " :i " + std::to_string(n.index);
    if (n.kind == NodeKind::Name && n.index > 0) out += " :index " + std::to_string(n.index);
    switch (n.kind) {
    case NodeKind::Text:
    case NodeKind::Comment:
    case NodeKind::Ignore:
    case NodeKind::Equals:
      out += ' ';
      escape_string(tree_.text(n), out);
      out += ")\n";
      return;
    case NodeKind::ExtensionTag: {
      const ExtensionTagParts& p = tree_.extension_tag(n);
      out += " :name ";
      escape_string(tree_.text(p.name), out);
      out += " :attr ";
      escape_string(tree_.text(p.attributes), out);
      if (p.has_inner) {
        out += " :inner ";
        escape_string(tree_.text(p.inner), out);
      }
      if (p.has_close) {
        out += " :close ";
        escape_string(tree_.text(p.close), out);
      }
      out += ")\n";
      return;
    }
    default: break;
    }
    if (n.first_child == kNoNode) {
      out += ")\n";
      return;
    }
    out += '\n';
    for (NodeId c : tree_.children(id)) node(c, depth + 1);
    out.back() = ')';  // close on the last child's line, Lisp style
    out += '\n';
  }

private:
  const Tree& tree_;
};

class JsonPrinter {
public:
  explicit JsonPrinter(const Tree& tree) : tree_(tree) {}
  std::string out;

  void node(NodeId id) {
    const Node& n = tree_.node(id);
    out += "{\"type\":\"";
    out += n.kind == NodeKind::Heading && n.possible ? "possible-h" : to_string(n.kind);
    out += "\",\"span\":[" + std::to_string(n.span.begin) + ',' + std::to_string(n.span.end) + ']';
    if (n.kind == NodeKind::Template || n.kind == NodeKind::Argument)
      out += n.line_start ? ",\"lineStart\":true" : ",\"lineStart\":false";
    if (n.kind == NodeKind::Heading)
      out += ",\"level\":" + std::to_string(n.level) + ",\"index\":" + std::to_string(n.index);
    if (n.kind == NodeKind::Name && n.index > 0) out += ",\"index\":" + std::to_string(n.index);
    switch (n.kind) {
    case NodeKind::Text:
    case NodeKind::Comment:
    case NodeKind::Ignore:
    case NodeKind::Equals:
      out += ",\"text\":";
      escape_string(tree_.text(n), out);
      out += '}';
      return;
    case NodeKind::ExtensionTag: {
      const ExtensionTagParts& p = tree_.extension_tag(n);
      field("name", p.name, true);
      field("attr", p.attributes, true);
      field("inner", p.inner, p.has_inner);
      field("close", p.close, p.has_close);
      out += '}';
      return;
    }
    default: break;
    }
    out += ",\"children\":[";
    bool first = true;
    for (NodeId c : tree_.children(id)) {
      if (!first) out += ',';
      first = false;
      node(c);
    }
    out += "]}";
  }

private:
  void field(const char* name, support::Span s, bool present) {
    out += ",\"";
    out += name;
    out += "\":";
    if (!present) {
      out += "null";
      return;
    }
    out += "{\"span\":[" + std::to_string(s.begin) + ',' + std::to_string(s.end) + "],\"text\":";
    escape_string(tree_.text(s), out);
    out += '}';
  }
  const Tree& tree_;
};

}  // namespace

void append_wikitext(const Tree& tree, NodeId id, std::string& out) {
  const Node& n = tree.node(id);
  switch (n.kind) {
  case NodeKind::Text:
  case NodeKind::Comment:
  case NodeKind::Ignore:
  case NodeKind::Equals: out += tree.text(n); return;
  case NodeKind::Template:
  case NodeKind::Argument: {
    const char* open = n.kind == NodeKind::Template ? "{{" : "{{{";
    out += open;
    bool first = true;
    for (NodeId c : tree.children(id)) {
      if (!first) out += '|';
      first = false;
      append_wikitext(tree, c, out);
    }
    out += n.kind == NodeKind::Template ? "}}" : "}}}";
    return;
  }
  case NodeKind::ExtensionTag: {
    const ExtensionTagParts& p = tree.extension_tag(n);
    out += '<';
    out += tree.text(p.name);
    out += tree.text(p.attributes);
    if (p.has_inner) {
      out += '>';
      out += tree.text(p.inner);
    } else {
      out += "/>";
    }
    if (p.has_close) out += tree.text(p.close);
    return;
  }
  default: children_wikitext(tree, id, out); return;
  }
}

std::string to_wikitext(const Tree& tree) {
  std::string out;
  out.reserve(tree.source.size());
  append_wikitext(tree, tree.root, out);
  return out;
}

std::string to_xml(const Tree& tree) {
  XmlPrinter p(tree);
  p.out.reserve(tree.source.size() * 2);
  p.node(tree.root);
  return std::move(p.out);
}

std::string to_sexpr(const Tree& tree) {
  SexprPrinter p(tree);
  p.node(tree.root, 0);
  return std::move(p.out);
}

std::string to_json(const Tree& tree) {
  JsonPrinter p(tree);
  p.node(tree.root);
  p.out += '\n';
  return std::move(p.out);
}

}  // namespace wikic::preprocess
