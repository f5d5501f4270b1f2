// The rule database as an ordered JSON document, printed as JSON (nlohmann), YAML
// (yaml-cpp Emitter, every string double-quoted so no value changes type on reading) and
// XML (pugixml: objects are elements, arrays repeat a singular element name).
#include "emit/rules_writer.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <ostream>
#include <nlohmann/json.hpp>
#include <pugixml.hpp>
#include <sstream>
#include <yaml-cpp/yaml.h>

namespace wikic::emit {
namespace {

using Json = nlohmann::ordered_json;

Json variants(const extract::Variants& v) {
  if (v.uniform) return v.text;
  return Json{{"C1", v.c1}, {"C2", v.c2}, {"WE", v.we}};
}

Json points(const extract::Rule& r) {
  if (r.points_unparsed) return "unparsed";
  Json list = Json::array();
  for (const auto& e : r.points) {
    Json p;
    p["op"] = extract::to_string(e.points.op);
    // A named quantity has no value, unless it is subtracted: then value -1 is its factor.
    if (e.points.quantity.empty() || e.points.value < 0) p["value"] = e.points.value;
    if (!e.points.quantity.empty()) p["quantity"] = e.points.quantity;
    if (e.points.op == extract::PointsOp::fraction) p["denominator"] = e.points.denominator;
    if (!e.points.basis.empty()) p["basis"] = e.points.basis;
    if (!e.points.per.empty()) p["per"] = e.points.per;
    if (!e.points.rounding.empty()) p["rounding"] = e.points.rounding;
    p["when"] = e.when;
    if (!e.editions.empty()) p["editions"] = e.editions;
    p["text"] = e.points.text;
    list.push_back(std::move(p));
  }
  return list;
}

Json rule(const extract::Rule& r) {
  Json j;
  j["id"] = r.id;
  if (!r.parent.empty()) j["parent"] = r.parent;
  j["section"] = r.section;
  j["phase"] = r.phase;
  j["round"] = r.round;
  j["step"] = r.step;
  j["block"] = r.block;
  j["kind"] = r.kind;
  j["core"] = r.core;
  j["when"] = r.when;
  j["atoms"] = r.atoms;
  j["triggers"] = r.triggers;
  j["description"] = variants(r.description);
  j["rules"] = variants(r.rules);
  Json notes = Json::array();
  for (const auto& n : r.notes) notes.push_back(Json{{"when", n.when}, {"text", variants(n.text)}});
  j["notes"] = std::move(notes);
  j["references"] = r.references;
  j["points"] = points(r);
  Json s;
  s["page"] = r.source.page;
  s["revision"] = r.source.revision;
  s["file"] = r.source.file;
  s["line"] = r.source.line;
  s["column"] = r.source.column;
  if (r.source.offset >= 0) s["offset"] = r.source.offset;
  s["origin"] = r.source.origin;
  s["chain"] = r.source.chain;
  j["source"] = std::move(s);
  return j;
}

Json header_json(const RulesHeader& h) {
  Json d;
  d["wikic-rules"] = rules_schema_version;
  d["sitename"] = h.sitename;
  d["dump-date"] = h.dump_date;
  d["dump-date-source"] = "latest revision timestamp";
  d["vocabulary-version"] = h.vocabulary_version;
  d["mapping-version"] = h.mapping_version;
  return d;
}

Json page_json(const extract::PageRules& p) {
  Json pj;
  pj["title"] = p.title;
  pj["revision"] = p.revision;
  pj["timestamp"] = p.timestamp;
  Json cells = Json::array();
  for (const auto& [use, n] : p.cells.by_use) cells.push_back(Json{{"use", use}, {"count", n}});
  pj["scoring-cells"] = Json{{"total", p.cells.total}, {"unaccounted", p.cells.unaccounted}, {"uses", cells}};
  Json rules = Json::array();
  for (const auto& r : p.rules) rules.push_back(rule(r));
  pj["rules"] = std::move(rules);
  Json non = Json::array();
  for (const auto& n : p.non_rules)
    non.push_back(Json{{"reason", n.reason}, {"text", n.text}, {"line", n.line}, {"column", n.column},
                       {"scoring-cells", n.scoring_cells}});
  pj["non-rules"] = std::move(non);
  return pj;
}

Json summary_json(const RulesTotals& t) {
  return Json{{"pages", t.pages},         {"rules", t.rules},
              {"sub-rules", t.sub_rules}, {"non-rules", t.non_rules},
              {"unparsed-points", t.unparsed}, {"id-collisions", t.collisions}};
}

// Numbers print the same in every format: integers without a fraction, others with the
// shortest round-trip form nlohmann uses.
std::string number_text(const Json& j) {
  // Integers (every count, line and revision) directly; a serializer per number is
  // costly and prints them the same.
  char buf[24];
  if (j.is_number_unsigned()) {
    auto r = std::to_chars(buf, buf + sizeof buf, j.get<std::uint64_t>());
    return std::string(buf, r.ptr);
  }
  if (j.is_number_integer()) {
    auto r = std::to_chars(buf, buf + sizeof buf, j.get<std::int64_t>());
    return std::string(buf, r.ptr);
  }
  return j.dump();
}

// A scalar whose YAML text is known to be plain already (the schema's own keys, numbers,
// booleans), written through yaml-cpp's WriteStreamable: the one Emitter path that
// skips the plain-scalar regex checks Write(std::string) runs on every Auto scalar
// (a third of the whole compile's instructions when keys went through it).
// WriteStreamable<T> names std::isnan(T) in a branch that only floating-point types
// take; the conversion to double exists to satisfy that call and is never used.
struct PlainScalar {
  std::string_view text;
  operator double() const { return 0; }  // NOLINT: see above
};
std::ostream& operator<<(std::ostream& os, const PlainScalar& p) { return os.write(p.text.data(), p.text.size()); }

void write_yaml(const Json& j, YAML::Emitter& out) {
  if (j.is_object()) {
    out << YAML::BeginMap;
    for (const auto& [k, v] : j.items()) {
      out << YAML::Key;
      out.WriteStreamable(PlainScalar{k});
      out << YAML::Value;
      write_yaml(v, out);
    }
    out << YAML::EndMap;
  } else if (j.is_array()) {
    bool scalars = true;
    for (const auto& v : j) scalars = scalars && !v.is_structured();
    out << (scalars ? YAML::Flow : YAML::Block) << YAML::BeginSeq;
    for (const auto& v : j) write_yaml(v, out);
    out << YAML::EndSeq;
  } else if (j.is_string()) {
    out << YAML::DoubleQuoted << j.get_ref<const std::string&>();
  } else if (j.is_boolean()) {
    out.WriteStreamable(PlainScalar{j.get<bool>() ? "true" : "false"});
  } else {
    std::string number = number_text(j);
    out.WriteStreamable(PlainScalar{number});
  }
}

// JSON text of a page exactly as nlohmann's dump(2) prints it (two spaces per level,
// ", " never, "\": " after keys, \b \f \n \r \t and \u00xx for the other control
// characters, UTF-8 as is), with `base` spaces before every line after the first, so
// a page nests into the document without a second copying pass. Written directly
// because dump() spends most of its time decoding every character of 5x the input.
void escape_json(std::string_view s, std::string& out) {
  out += '"';
  std::size_t run = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.substr(run, i - run));
    run = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: {
        static constexpr char hex[] = "0123456789abcdef";
        out += "\\u00";
        out += hex[c >> 4];
        out += hex[c & 15];
      }
    }
  }
  out.append(s.substr(run));
  out += '"';
}

void write_json(const Json& j, std::string& out, std::size_t indent) {
  auto newline = [&](std::size_t n) {
    out += '\n';
    out.append(n, ' ');
  };
  if (j.is_object()) {
    if (j.empty()) {
      out += "{}";
      return;
    }
    out += '{';
    bool first = true;
    for (const auto& [k, v] : j.items()) {
      if (!first) out += ',';
      first = false;
      newline(indent + 2);
      escape_json(k, out);
      out += ": ";
      write_json(v, out, indent + 2);
    }
    newline(indent);
    out += '}';
  } else if (j.is_array()) {
    if (j.empty()) {
      out += "[]";
      return;
    }
    out += '[';
    bool first = true;
    for (const auto& v : j) {
      if (!first) out += ',';
      first = false;
      newline(indent + 2);
      write_json(v, out, indent + 2);
    }
    newline(indent);
    out += ']';
  } else if (j.is_string()) {
    escape_json(j.get_ref<const std::string&>(), out);
  } else if (j.is_boolean()) {
    out += j.get<bool>() ? "true" : "false";
  } else if (j.is_number()) {
    out += number_text(j);
  } else {
    out += j.dump();
  }
}

const std::map<std::string, std::string>& singular() {
  static const std::map<std::string, std::string> m = {
      {"pages", "page"},         {"rules", "rule"},   {"non-rules", "non-rule"}, {"notes", "note"},
      {"points", "entry"},       {"atoms", "atom"},   {"triggers", "trigger"},   {"references", "reference"},
      {"chain", "template"},     {"editions", "edition"}, {"uses", "cell-use"}};
  return m;
}

void write_xml(const Json& j, pugi::xml_node node, const std::string& key) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) write_xml(v, node.append_child(k.c_str()), k);
  } else if (j.is_array()) {
    auto it = singular().find(key);
    std::string item = it != singular().end() ? it->second : "item";
    for (const auto& v : j) write_xml(v, node.append_child(item.c_str()), item);
  } else if (j.is_string()) {
    // XML 1.0 cannot carry most control characters; they never belong in rule text.
    auto unwanted = [](char c) { return (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') || c == 0x7f; };
    const std::string& text = j.get_ref<const std::string&>();
    if (std::none_of(text.begin(), text.end(), unwanted)) {
      node.text().set(text.c_str(), text.size());
    } else {
      std::string t = text;
      std::erase_if(t, unwanted);
      node.text().set(t.c_str(), t.size());
    }
  } else if (j.is_boolean()) {
    node.text().set(j.get<bool>() ? "true" : "false");
  } else {
    node.text().set(number_text(j).c_str());
  }
}


// Continuation lines of a block indented by `n` spaces (the first line is placed by
// the caller), so a page rendered on its own nests into the document.
std::string indented(std::string_view text, std::size_t n, std::string_view first) {
  std::string out;
  out.reserve(first.size() + text.size() + text.size() / 8);
  out += first;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t nl = text.find('\n', at);
    if (nl == std::string_view::npos || nl + 1 == text.size()) {
      out.append(text.substr(at));
      break;
    }
    out.append(text.substr(at, nl + 1 - at)).append(n, ' ');
    at = nl + 1;
  }
  return out;
}

std::string yaml_block(const Json& j) {
  YAML::Emitter out;
  write_yaml(j, out);
  return out.c_str();
}

void print_xml(std::ostream& os, const Json& value, const std::string& key, unsigned depth) {
  pugi::xml_document doc;
  write_xml(value, doc.append_child(key.c_str()), key);
  doc.first_child().print(os, "  ", pugi::format_indent, pugi::encoding_utf8, depth);
}

}  // namespace

// The layout of all three files: header fields, then pages one by one, then the summary,
// so a page can be written (and forgotten) as soon as it is extracted.
RulesWriter::RulesWriter(std::ostream& yaml, std::ostream& xml, std::ostream& json, const RulesHeader& header)
    : yaml_(yaml), xml_(xml), json_(json) {
  Json h = header_json(header);
  yaml_ << yaml_block(h) << "\npages:";
  xml_ << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<wikic-rules version=\"" << rules_schema_version << "\">\n";
  h.erase("wikic-rules");
  for (const auto& [k, v] : h.items()) print_xml(xml_, v, k, 1);
  xml_ << "  <pages>\n";
  json_ << "{\n  \"wikic-rules\": \"" << rules_schema_version << "\"";
  for (const auto& [k, v] : h.items()) json_ << ",\n  " << Json(k).dump() << ": " << v.dump();
  json_ << ",\n  \"pages\": [";
}

void RulesWriter::page(const extract::PageRules& p) {
  totals_.add(p);
  Json j = page_json(p);
  yaml_ << "\n" << indented(yaml_block(j), 4, "  - ");
  print_xml(xml_, j, "page", 2);
  std::string json = totals_.pages == 1 ? "\n    " : ",\n    ";
  write_json(j, json, 4);
  json_ << json;
}

void RulesWriter::finish() {
  Json s = summary_json(totals_);
  if (totals_.pages == 0) yaml_ << " []";
  yaml_ << "\nsummary:\n" << indented(yaml_block(s), 2, "  ") << "\n";
  xml_ << "  </pages>\n";
  print_xml(xml_, s, "summary", 1);
  xml_ << "</wikic-rules>\n";
  json_ << (totals_.pages == 0 ? "],\n" : "\n  ],\n") << "  \"summary\": " << indented(s.dump(2), 2, "") << "\n}\n";
}

void RulesTotals::add(const extract::PageRules& p) {
  ++pages;
  rules += p.rules.size();
  sub_rules += p.sub_rules;
  non_rules += p.non_rules.size();
  unparsed += p.unparsed_points;
  collisions += p.id_collisions;
}

std::string RulesTotals::text() const {
  return std::to_string(pages) + (pages == 1 ? " page, " : " pages, ") + std::to_string(rules) + " rules (" +
         std::to_string(sub_rules) + " sub-rules), " + std::to_string(non_rules) + " non-rules, " +
         std::to_string(unparsed) + " unparsed points, " + std::to_string(collisions) + " id collisions";
}

RulesDatabase::Files RulesDatabase::render() const {
  std::ostringstream y, x, j;
  RulesWriter w(y, x, j, header);
  for (const auto& p : pages_) w.page(p);
  w.finish();
  return {y.str(), x.str(), j.str()};
}

std::string RulesDatabase::to_json() const { return render().json; }
std::string RulesDatabase::to_yaml() const { return render().yaml; }
std::string RulesDatabase::to_xml() const { return render().xml; }

std::string RulesDatabase::summary() const {
  RulesTotals t;
  for (const auto& p : pages_) t.add(p);
  return t.text();
}

}  // namespace wikic::emit
