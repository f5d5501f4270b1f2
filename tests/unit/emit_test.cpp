// The rule database's direct printers against the libraries they mirror: records full
// of hostile strings are printed by RulesWriter and by a reference built on nlohmann
// (ordered_json, dump(2)), yaml-cpp's Emitter and pugixml's print, which must agree byte
// for byte (a page's rules and non-rules are one line each in JSON and XML: dump() and
// print(format_raw) of the record); the direct output must also read back to the same
// values in each library.
// The page manifest's pages.yaml likewise against yaml-cpp's Emitter.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <optional>
#include <random>
#include <sstream>

#include "cli/pipeline.hpp"
#include "emit/manifest.hpp"
#include "emit/rules_writer.hpp"
#include "support/output.hpp"
#include "expand/expander.hpp"
#include "ingest/input.hpp"
#include "util/run.hpp"
#include <nlohmann/json.hpp>
#include <pugixml.hpp>
#include <yaml-cpp/yaml.h>

using namespace wikic;

namespace {

// ---- the reference: one ordered_json document, printed by the libraries -------------
// (the writer's design before the direct printers, kept here as the yardstick)

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

Json rule_json(const extract::Rule& r) {
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
  // Parts are written only when a text has them.
  auto parts = [&](const std::vector<extract::TextPart>& list) {
    Json a = Json::array();
    for (const auto& x : list) a.push_back(Json{{"when", x.when}, {"text", variants(x.text)}});
    return a;
  };
  j["description"] = variants(r.description);
  if (!r.description_parts.empty()) j["description-parts"] = parts(r.description_parts);
  j["rules"] = variants(r.rules);
  if (!r.rules_parts.empty()) j["rules-parts"] = parts(r.rules_parts);
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

Json header_json(const emit::RulesHeader& h) {
  Json d;
  d["wikic-rules"] = emit::rules_schema_version;
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
  for (const auto& r : p.rules) rules.push_back(rule_json(r));
  pj["rules"] = std::move(rules);
  Json non = Json::array();
  for (const auto& n : p.non_rules)
    non.push_back(Json{{"reason", n.reason}, {"text", n.text}, {"line", n.line}, {"column", n.column},
                       {"scoring-cells", n.scoring_cells}});
  pj["non-rules"] = std::move(non);
  return pj;
}

Json summary_json(const emit::RulesTotals& t) {
  return Json{{"pages", t.pages},         {"rules", t.rules},
              {"sub-rules", t.sub_rules}, {"non-rules", t.non_rules},
              {"unparsed-points", t.unparsed}, {"id-collisions", t.collisions}};
}

Json document(const emit::RulesDatabase& db) {
  Json d = header_json(db.header);
  Json pages = Json::array();
  emit::RulesTotals totals;
  for (const auto& p : db.pages()) {
    pages.push_back(page_json(p));
    totals.add(p);
  }
  d["pages"] = std::move(pages);
  d["summary"] = summary_json(totals);
  return d;
}

std::string scalar_text(const Json& j) {
  if (j.is_boolean()) return j.get<bool>() ? "true" : "false";
  return j.dump();  // numbers: nlohmann's own text
}

// Keys, numbers and booleans went through WriteStreamable, which writes them as they
// are (a non-finite number's "null" included); conversion to double exists only to
// satisfy the std::isnan call in a branch that floating-point types take.
struct PlainScalar {
  std::string_view text;
  operator double() const { return 0; }  // NOLINT: see above
};
std::ostream& operator<<(std::ostream& os, const PlainScalar& p) {
  return os.write(p.text.data(), p.text.size());
}

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
    bool scalars = std::none_of(j.begin(), j.end(), [](const Json& v) { return v.is_structured(); });
    out << (scalars ? YAML::Flow : YAML::Block) << YAML::BeginSeq;
    for (const auto& v : j) write_yaml(v, out);
    out << YAML::EndSeq;
  } else if (j.is_string()) {
    out << YAML::DoubleQuoted << j.get_ref<const std::string&>();
  } else {
    std::string text = scalar_text(j);
    out.WriteStreamable(PlainScalar{text});
  }
}

// An empty page list was written by hand as "pages: []" before any page was known.
std::string reference_yaml(const Json& doc) {
  YAML::Emitter out;
  write_yaml(doc, out);
  return std::string(out.c_str()) + "\n";
}

const char* singular(const std::string& key) {
  static const std::map<std::string, std::string> m = {
      {"pages", "page"},     {"rules", "rule"},       {"non-rules", "non-rule"}, {"notes", "note"},
      {"points", "entry"},   {"atoms", "atom"},       {"triggers", "trigger"},   {"references", "reference"},
      {"chain", "template"}, {"editions", "edition"}, {"uses", "cell-use"},
      {"description-parts", "part"}, {"rules-parts", "part"}};
  return m.at(key).c_str();
}

// XML 1.0 cannot carry most control characters; the writer has always dropped them.
// Nor U+FFFE and U+FFFF, which it writes as U+FFFD.
std::string without_controls(std::string t) {
  for (std::size_t at = 0; (at = t.find("\xef\xbf", at)) != std::string::npos; ++at)
    if (at + 2 < t.size() && (t[at + 2] == '\xbe' || t[at + 2] == '\xbf')) t[at + 2] = '\xbd';
  std::erase_if(t, [](char c) {
    return (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') || c == 0x7f;
  });
  return t;
}

void write_xml(const Json& j, pugi::xml_node node, const std::string& key) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) write_xml(v, node.append_child(k.c_str()), k);
  } else if (j.is_array()) {
    for (const auto& v : j) write_xml(v, node.append_child(singular(key)), singular(key));
  } else if (j.is_string()) {
    std::string t = without_controls(j.get<std::string>());
    node.text().set(t.c_str(), t.size());
  } else {
    node.text().set(scalar_text(j).c_str());
  }
}

// Replaces, from `from` on, the first `indented` with `line`; returns where it ends.
std::size_t replace_next(std::string& text, std::size_t from, const std::string& indented, const std::string& line) {
  auto at = text.find(indented, from);
  REQUIRE_MESSAGE(at != std::string::npos, indented);
  text.replace(at, indented.size(), line);
  return at + line.size();
}

// The lists whose records are printed one line each: a page's rules and non-rules.
constexpr const char* line_lists[] = {"rules", "non-rules"};
constexpr int record_depth = 4;  // wikic-rules > pages > page > rules > rule

// The root's version is an attribute; an empty page list still has a start and end tag,
// since the file was written as pages arrived.
std::string reference_xml(const Json& doc) {
  pugi::xml_document x;
  auto decl = x.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  decl.append_attribute("encoding") = "UTF-8";
  auto root = x.append_child("wikic-rules");
  root.append_attribute("version") = doc["wikic-rules"].get<std::string>().c_str();
  for (const auto& [k, v] : doc.items())
    if (k != "wikic-rules") write_xml(v, root.append_child(k.c_str()), k);
  std::ostringstream os;
  x.save(os, "  ", pugi::format_indent, pugi::encoding_utf8);
  std::string text = os.str();
  // Each record as pugixml prints the element alone, indented and raw.
  std::size_t from = 0;
  for (auto page : root.child("pages").children("page"))
    for (const char* list : line_lists)
      for (auto record : page.child(list).children()) {
        std::ostringstream indented, raw;
        record.print(indented, "  ", pugi::format_indent, pugi::encoding_utf8, record_depth);
        record.print(raw, "", pugi::format_raw, pugi::encoding_utf8);
        from = replace_next(text, from, indented.str(), std::string(2 * record_depth, ' ') + raw.str() + "\n");
      }
  if (doc["pages"].empty()) {
    auto at = text.find("  <pages />\n");
    if (at != std::string::npos) text.replace(at, 12, "  <pages>\n  </pages>\n");
  }
  return text;
}

// nlohmann's error_handler_t::ignore leaves out the bytes of ill-formed UTF-8 (a byte
// that breaks a sequence starts again); this does the same to the direct output, which
// passes such bytes through, so the two can be compared.
std::string drop_ill_formed(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    auto b = [&](std::size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0x100u; };
    unsigned c = b(0);
    std::size_t n = c < 0x80 ? 1 : (c >= 0xC2 && c <= 0xDF) ? 2 : (c >= 0xE0 && c <= 0xEF) ? 3 : 0;
    if (c >= 0xF0 && c <= 0xF4) n = 4;
    unsigned lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
    unsigned hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
    std::size_t ok = n == 0 ? 0 : 1;
    for (std::size_t k = 1; k < n; ++k) {
      unsigned t = b(k);
      if (t < (k == 1 ? lo : 0x80) || t > (k == 1 ? hi : 0xBF)) break;
      ++ok;
    }
    if (n != 0 && ok == n) out.append(s.substr(i, n));
    i += std::max<std::size_t>(ok == n ? n : ok, 1);
  }
  return out;
}

struct Printed {
  std::string yaml, xml, json;
};

// dump(2) of the whole document, with each record of a page's rules and non-rules as
// dump() prints it alone, on its line.
std::string reference_json(const Json& doc, Json::error_handler_t handler) {
  std::string text = doc.dump(2, ' ', false, handler) + "\n";
  const std::string indent(2 * record_depth, ' ');
  std::size_t from = 0;
  for (const auto& page : doc["pages"])
    for (const char* list : line_lists)
      for (const auto& record : page[list]) {
        std::string indented = indent;
        for (char c : record.dump(2, ' ', false, handler)) {
          indented += c;
          if (c == '\n') indented += indent;
        }
        from = replace_next(text, from, indented, indent + record.dump(-1, ' ', false, handler));
      }
  return text;
}

Printed reference(const emit::RulesDatabase& db, bool valid_utf8) {
  Json doc = document(db);
  auto handler = valid_utf8 ? Json::error_handler_t::strict : Json::error_handler_t::ignore;
  return {reference_yaml(doc), reference_xml(doc), reference_json(doc, handler)};
}

void check_same(const emit::RulesDatabase& db, bool valid_utf8) {
  auto direct = db.render();
  auto ref = reference(db, valid_utf8);
  CHECK(direct.yaml == ref.yaml);
  CHECK(direct.xml == ref.xml);
  CHECK((valid_utf8 ? direct.json : drop_ill_formed(direct.json)) == ref.json);
}

// ---- hostile records -----------------------------------------------------------------

std::vector<std::string> hostile_strings() {
  std::vector<std::string> s = {
      "", " ", "  leading", "trailing  ", "a: b", "# not a comment", "key: value # x", "\"double\" 'single'",
      "back\\slash \\n", "true", "false", "null", "~", "yes", "No", "on", "1", "-1", "1.5", "0x1F", "1e3",
      ".inf", ".nan", "- item", "[a, b]", "{a: b}", "&amp; <tag attr=\"x\"> > ]]>", "*alias", "&anchor",
      "!tag", "%YAML",
      "@at", "`tick`", "| literal", "> folded", "?", "-", "---", "...", "tab\there", "line\nbreak\n", "\n",
      "caf\xc3\xa9 \xc3\xbc \xe2\x9c\x93 \xf0\x9f\x98\x80", "\xc2\xa0nbsp\xc2\xa0", "\xc2\x85nel",
      "\xc2\x80\xc2\x9f",
      "\xef\xbb\xbf" "bom", "\xe2\x80\xa8ls", "del\x7f"};
  std::string controls;
  for (int c = 0; c < 0x20; ++c) controls += static_cast<char>(c);
  s.push_back(controls);
  for (int c = 0; c < 0x20; ++c) s.push_back(std::string("x") + static_cast<char>(c) + "y");
  std::string long_text;
  for (int i = 0; i < 20000; ++i) long_text += "Score \"all\" <tiles> & 2\\3 points; ";
  s.push_back(long_text);
  return s;
}

// Bytes that are not UTF-8 or that yaml-cpp's decoder replaces (noncharacters,
// surrogates, overlong forms, truncated sequences).
std::vector<std::string> ill_formed_strings() {
  return {"\xff", "\x80lone", "\xe2\x82", "\xe2\x82" "A", "\xc0\x80", "\xc1\xbf", "\xf8\x88\x80\x80",
          "\xfc\x80", "\xed\xa0\x80", "\xef\xbf\xbe", "\xef\xbf\xbf", "\xf4\x90\x80\x80", "\xef\xb7\x90",
          "ab\xc3", "\xf0\x9f\x98", "x\xe0\x80\xafy", "\xc3\x28", "\xa0\xa1"};
}

extract::Variants uniform(std::string text) {
  extract::Variants v;
  v.text = v.c1 = v.c2 = v.we = std::move(text);
  return v;
}

extract::Variants differing(std::string a, std::string b, std::string c) {
  extract::Variants v;
  v.text = b;
  v.c1 = std::move(a);
  v.c2 = std::move(b);
  v.we = std::move(c);
  v.uniform = false;
  return v;
}

// A page using string `k`, `k+1`, … of `pool` in every field, with every optional field
// both present and absent, uniform and differing variants, and a sub-rule.
extract::PageRules page_from(const std::vector<std::string>& pool, std::size_t k) {
  auto str = [&](std::size_t i) { return pool[(k + i) % pool.size()]; };
  extract::PageRules p;
  p.title = str(0);
  p.revision = 325554 + k;
  p.timestamp = str(1);
  p.cells.total = 12;
  p.cells.unaccounted = k % 3;
  p.cells.by_use = {{str(2), 3}, {str(3) + "-use", 9}};

  using extract::PointsOp;
  extract::Rule r;
  r.id = str(4);
  r.section = str(5);
  r.phase = str(6);
  r.round = str(7);
  r.step = str(8);
  r.block = str(9);
  r.kind = "feature";
  r.core = true;
  r.when = str(10);
  r.atoms = {str(11), str(12)};
  r.triggers = {str(13)};
  r.description = uniform(str(14));
  r.rules = differing(str(15), str(16), str(17));
  r.notes = {{uniform(str(18)), "true"}, {differing(str(19), str(20), str(21)), str(22)}};
  r.description_parts = {{str(40), uniform(str(41))}, {"true", uniform(str(42))}};
  r.rules_parts = {{"SquareTiles", uniform(str(43))}, {str(44), differing(str(45), str(46), str(47))}};
  r.references = {str(23), str(24), str(25)};
  extract::PointsEntry fixed{{PointsOp::fixed, 2, 1, "", "", "", "", str(26), 0}, "true", {}};
  extract::PointsEntry fraction{{PointsOp::fraction, 1, 2, "", "primary", "tile", "up", str(27), 4}, str(28),
                                {"C2", str(29)}};
  extract::PointsEntry quantity{{extract::PointsOp::add, 0, 1, str(30), "", "", "", str(31), 0}, "true", {}};
  extract::PointsEntry subtracted{{PointsOp::add, -1, 1, str(32), "", "", "down", str(33), 0}, "true", {}};
  extract::PointsEntry fractional{{PointsOp::multiply, 0.1, 1, "", "", "", "", "x0.1", 0}, "true", {}};
  r.points = {fixed, fraction, quantity, subtracted, fractional};
  r.source = {str(34), 99, str(35), 12, 7, 4096, {str(36), str(37)}, "row"};
  p.rules.push_back(r);

  extract::Rule sub;
  sub.id = r.id + "/sub";
  sub.parent = r.id;
  sub.section = str(38);
  sub.kind = str(39);
  sub.description = differing(str(40), "", str(41));
  sub.rules = uniform("");
  sub.points_unparsed = true;
  sub.source = {str(42), 0, "", 0, 0, -1, {}, str(43)};
  p.rules.push_back(sub);
  p.sub_rules = 1;
  p.unparsed_points = 1;

  p.non_rules = {{str(44), str(45), 3, 1, 2}, {"legend", str(46), 4, 9, 0}};
  return p;
}

emit::RulesDatabase database(const std::vector<std::string>& pool, std::size_t pages) {
  emit::RulesDatabase db;
  db.header.sitename = pool[1 % pool.size()];
  db.header.dump_date = "2024-01-21T22:36:00Z";
  db.header.vocabulary_version = 3;
  db.header.mapping_version = -2;
  for (std::size_t k = 0; k < pages; ++k) db.add(page_from(pool, k * 7));
  return db;
}

// ---- reading the direct output back ---------------------------------------------------

// What yaml-cpp reads back from a double-quoted string: its decoder's view of the bytes.
void same_as_yaml(const Json& j, const YAML::Node& y) {
  if (j.is_object()) {
    REQUIRE(y.IsMap());
    CHECK(y.size() == j.size());
    for (const auto& [k, v] : j.items()) same_as_yaml(v, y[k]);
  } else if (j.is_array()) {
    REQUIRE(y.IsSequence());
    REQUIRE(y.size() == j.size());
    for (std::size_t i = 0; i < j.size(); ++i) same_as_yaml(j[i], y[i]);
  } else if (j.is_string()) {
    CHECK(y.Tag() == "!");  // double-quoted: never read as a number, boolean or null
    CHECK(y.as<std::string>() == j.get<std::string>());
  } else {
    CHECK(y.Scalar() == scalar_text(j));
  }
}

void same_as_xml(const Json& j, pugi::xml_node x, const std::string& key) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) {
      if (k == "wikic-rules") continue;
      REQUIRE(x.child(k.c_str()));
      same_as_xml(v, x.child(k.c_str()), k);
    }
  } else if (j.is_array()) {
    auto child = x.child(singular(key));
    for (const auto& v : j) {
      REQUIRE(child);
      same_as_xml(v, child, singular(key));
      child = child.next_sibling(singular(key));
    }
    CHECK(!child);
  } else if (j.is_string()) {
    CHECK(std::string(x.text().get()) == without_controls(j.get<std::string>()));
  } else {
    CHECK(std::string(x.text().get()) == scalar_text(j));
  }
}

}  // namespace

TEST_CASE("hostile strings print as nlohmann, yaml-cpp and pugixml print them") {
  auto pool = hostile_strings();
  check_same(database(pool, 0), true);
  check_same(database(pool, 1), true);
  check_same(database(pool, 9), true);
}

TEST_CASE("numbers print as nlohmann prints them, a non-finite one as null") {
  auto db = database(hostile_strings(), 0);
  auto page = page_from(hostile_strings(), 2);
  page.rules[0].points[0].points.value = std::numeric_limits<double>::quiet_NaN();
  page.rules[0].points[1].points.denominator = std::numeric_limits<double>::infinity();
  page.rules[0].points[4].points.value = 1e21;
  page.rules[0].points[3].points.value = -2.5e-7;
  db.add(page);
  check_same(db, true);
  CHECK(db.render().yaml.find("value: null\n") != std::string::npos);
}

TEST_CASE("integral numbers print as nlohmann's shortest form, up to where it takes an exponent") {
  // The writer prints a whole number below 10^15 as an integer and ".0" itself (those
  // from -9 to 9 from a table); the values around those bounds, zero of either sign and
  // fractions go to nlohmann's form.
  const std::vector<double> values = {0.0, -0.0, 1, -1, 2, -2, 9, -9, 9.5, -9.5, 9.999999999999998, -10,
                                      10, 100, 1000, 999999, 1000000, 123456789,
                                      -987654321, 1e14, 999999999999999.0, -999999999999999.0, 1e15, -1e15,
                                      1e15 + 1, 1e16, 9007199254740992.0, 0.5, -0.5, 2.5, 1e-5,
                                      4503599627370495.5};
  auto db = database(hostile_strings(), 0);
  auto page = page_from(hostile_strings(), 3);
  extract::PointsEntry entry = page.rules[0].points[0];
  page.rules[0].points.clear();
  for (double v : values) {
    entry.points.value = v;
    page.rules[0].points.push_back(entry);
  }
  page.rules[1].points_unparsed = false;  // and a rule without points: an empty list
  db.add(page);
  check_same(db, true);
  auto json = db.render().json;
  CHECK(json.find("\"value\":999999999999999.0,") != std::string::npos);
  CHECK(json.find("\"value\":-0.0,") != std::string::npos);
  CHECK(json.find("\"value\":-9.0,") != std::string::npos);
  CHECK(json.find("\"value\":-10.0,") != std::string::npos);
  CHECK(json.find("\"value\":1e+15,") != std::string::npos);
  CHECK(json.find("\"points\":[]") != std::string::npos);
}

TEST_CASE("lines, columns and offsets print as nlohmann prints them at every digit count") {
  // The writer puts numbers below a million together itself, a pair of digits a step:
  // each side of every digit count, and the first that goes to to_chars.
  const std::vector<std::uint64_t> values = {0,     9,      10,     11,     99,     100,     101,
                                             999,   1000,   1001,   9999,   10000,  99999,   100000,
                                             100001, 999999, 1000000, 1000001, 4294967296, 18446744073709551615u};
  auto db = database(hostile_strings(), 0);
  auto page = page_from(hostile_strings(), 4);
  extract::Rule rule = page.rules[0];
  extract::NonRule non_rule = page.non_rules[0];
  page.rules.clear();
  page.non_rules.clear();
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::uint64_t v = values[i];
    // line and column are 32-bit: the largest values wrap, which prints as well.
    rule.source.line = static_cast<std::uint32_t>(v);
    rule.source.column = static_cast<std::uint32_t>(values[values.size() - 1 - i]);
    rule.source.offset = v > 9000000000000000000u ? -1 : static_cast<std::int64_t>(v);
    rule.source.revision = v;
    page.rules.push_back(rule);
    non_rule.line = static_cast<std::uint32_t>(v);
    non_rule.scoring_cells = v;
    page.non_rules.push_back(non_rule);
  }
  page.revision = 1000000;
  page.cells.total = 99999;
  db.add(page);
  check_same(db, true);
  auto json = db.render().json;
  CHECK(json.find("\"line\":999999,") != std::string::npos);
  CHECK(json.find("\"offset\":1000000,") != std::string::npos);
  CHECK(json.find("\"line\":10,") != std::string::npos);
}

TEST_CASE("ill-formed UTF-8 prints as the libraries print it") {
  auto pool = ill_formed_strings();
  auto more = hostile_strings();
  pool.insert(pool.end(), more.begin(), more.begin() + 12);
  check_same(database(pool, 5), false);
  // Every byte value in every position, mixed with the multi-byte pieces above.
  std::mt19937 random(20261122);
  std::vector<std::string> pieces = ill_formed_strings();
  for (int c = 0; c < 256; ++c) pieces.emplace_back(1, static_cast<char>(c));
  for (auto& h : hostile_strings()) pieces.push_back(h.substr(0, 12));
  std::vector<std::string> random_pool;
  for (int i = 0; i < 400; ++i) {
    std::string s;
    for (int n = random() % 12; n > 0; --n) s += pieces[random() % pieces.size()];
    random_pool.push_back(s);
  }
  check_same(database(random_pool, 40), false);
}

TEST_CASE("a byte to escape anywhere in a string of any length prints as the libraries print it") {
  // The writer decides once per string whether any format escapes a byte, in steps of
  // several bytes (overlapping for lengths that are no multiple of a step): a byte it
  // missed would be copied as it is.
  std::vector<std::string> pool;
  // "^", "|" and "~" no format changes, but the copy's test marks them too: they take
  // the exact path, which must write them as they are.
  const std::vector<std::string> specials = {"\"", "\\", "&", "<", ">", "\x7f", "\x01", "\x1f", "\n", "\xc3\xa9",
                                             "\xe2\x80\xa8", "^", "|", "~"};
  for (std::size_t n : {1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 23, 31, 32, 33, 47, 48, 49, 64, 65}) {
    pool.emplace_back(n, 'a');
    for (std::size_t at = 0; at < n; ++at)
      for (const auto& c : specials) pool.push_back(std::string(at, 'x') + c + std::string(n - at - 1, 'y'));
  }
  // XML's escaping of a short string visits its bytes to change by a mask of the whole
  // string: two of them, and one after a U+FFFE that stands for its three bytes.
  for (std::size_t n : {2, 3, 5, 9, 16, 17, 33, 63, 64, 65})
    for (std::size_t at = 0; at + 1 < n; ++at) {
      pool.push_back(std::string(at, 'x') + "&" + std::string(n - at - 2, 'y') + "<");
      if (at + 4 <= n) pool.push_back(std::string(at, 'x') + "\xef\xbf\xbe>" + std::string(n - at - 4, 'y'));
    }
  // XML's escaping of a string also tells whether YAML and JSON change any of its
  // bytes: a byte only XML changes and one they change too (or, DEL, one they keep),
  // in either order, at every place, below and above the one-pass length.
  for (std::size_t n : {1, 4, 14, 15, 30, 61, 62, 63, 64})
    for (std::size_t at = 0; at < n; ++at)
      for (const char* c : {"\"", "\\", "\t", "\n", "\x01", "\xc3\xa9", "\xef\xbf\xbe", "\x7f"}) {
        pool.push_back(std::string(at, 'x') + c + std::string(n - at - 1, 'y') + "&");
        pool.push_back("<" + std::string(at, 'x') + c + std::string(n - at - 1, 'y'));
      }
  // Near misses of the vector test's bit tricks: to copy as they are.
  pool.push_back("!#$%'()*+,-./0123456789:;=?@[]^_`{|}~ ");
  auto db = database(hostile_strings(), 0);
  auto page = page_from(hostile_strings(), 1);
  page.rules[0].references = pool;
  page.rules[0].atoms = {pool.rbegin(), pool.rend()};
  db.add(page);
  check_same(db, true);
}

TEST_CASE("the direct output reads back to the same values") {
  auto db = database(hostile_strings(), 3);
  auto files = db.render();
  Json doc = document(db);

  Json json = Json::parse(files.json);
  CHECK(json == doc);

  YAML::Node yaml = YAML::Load(files.yaml);
  same_as_yaml(doc, yaml);

  pugi::xml_document xml;
  auto parsed = xml.load_string(files.xml.c_str(), pugi::parse_default | pugi::parse_ws_pcdata_single);
  REQUIRE(parsed);
  auto root = xml.child("wikic-rules");
  CHECK(std::string(root.attribute("version").value()) == emit::rules_schema_version);
  same_as_xml(doc, root, "");
}

TEST_CASE("an empty database and the seed page print as the libraries print them") {
  check_same(database(hostile_strings(), 0), true);
  support::DiagnosticSink sink;
  emit::RulesDatabase db;
  ingest::read_inputs({test::source_path("corpus/wica/scoring-during-turn-sequence.xml")}, {}, sink,
                      [&](const ingest::SiteInfo& site, ingest::Page&& page) {
                        expand::TemplateStore store(site);
                        db.header.sitename = site.sitename;
                        db.add(cli::Pipeline(store, sink).compile(page));
                      });
  REQUIRE(db.pages().size() == 1);
  REQUIRE(db.pages()[0].rules.size() > 100);
  check_same(db, true);
}

TEST_CASE("rules that share their block's and source's texts print as the libraries print them") {
  // Copies of a rule hold the very same shared texts, as the rules of one block do after
  // extraction: the printers then copy those fields' bytes from the rule before. A copy
  // without a parent, one with another block, and a page that is a copy of another
  // (the same texts again on the next page) must all still print as the libraries do.
  auto pool = hostile_strings();
  extract::PageRules page = page_from(pool, 3);
  extract::Rule first = page.rules.front();
  first.section = pool[27];  // a string with bytes to escape in every format
  first.step = pool.back();  // a long one, escaped at length
  page.rules.clear();
  for (std::size_t i = 0; i < 5; ++i) {
    extract::Rule r = first;
    r.id = "rule-" + std::to_string(i);
    if (i % 2 == 1) r.parent.clear();
    if (i == 3) r.block = pool[40];
    if (i == 4) r.source.revision = 7;  // not a shared text: the copy would be wrong
    page.rules.push_back(r);
  }
  emit::RulesDatabase db;
  db.header.sitename = "WICA";
  db.add(page);
  db.add(page);
  check_same(db, true);
  auto files = db.render();
  CHECK(files.json.find("\"revision\":7") != std::string::npos);  // a rule is one line
}

TEST_CASE("the writer streams the same bytes as the whole database") {
  auto db = database(hostile_strings(), 4);
  std::ostringstream y, x, j;
  emit::RulesWriter w(y, x, j, db.header);
  std::size_t before = y.str().size();
  CHECK(before > 0);  // the header is out before any page
  for (const auto& p : db.pages()) {
    w.page(p);
    CHECK(y.str().size() > before);  // each page is out as soon as it is given
    before = y.str().size();
  }
  w.finish();
  auto files = db.render();
  CHECK(y.str() == files.yaml);
  CHECK(x.str() == files.xml);
  CHECK(j.str() == files.json);
  CHECK(w.totals().text() == db.summary());
}

// An output lending windows of exactly the size asked for, each followed by guard
// bytes: a printer writing past the room it reserved changes them.
class GuardedOutput final : public support::OutputWindow {
public:
  std::span<char> window(std::size_t n) override {
    buffer_.assign(n + guard, marker);
    return {buffer_.data(), n};
  }
  void advance(std::size_t n) override {
    CHECK(n + guard <= buffer_.size());
    CHECK(std::all_of(buffer_.end() - guard, buffer_.end(), [](char c) { return c == marker; }));
    text.append(buffer_.data(), n);
  }
  std::string text;

private:
  static constexpr std::size_t guard = 4096;
  static constexpr char marker = '\x5a';
  std::vector<char> buffer_;
};

// Writes `db` into windows exactly the size each reservation asks for, guarded after
// their end, and checks that each file reads as the writers' in-memory rendering does.
void check_in_guarded_windows(const emit::RulesDatabase& db) {
  GuardedOutput y, x, j;
  {
    emit::RulesWriter w(y, x, j, db.header);
    for (const auto& p : db.pages()) w.page(p);
    w.finish();
  }
  auto files = db.render();
  CHECK(y.text == files.yaml);
  CHECK(x.text == files.xml);
  CHECK(j.text == files.json);
}

TEST_CASE("records written on their fixed room stay inside their files' windows") {
  // The writer starts each rule or non-rule with a fixed room and writes its fields
  // without checking, up to a long text, a list or a field run; records of many sizes end
  // up at many distances from a window's end (the long hostile text makes some records
  // larger than a window).
  auto db = database(hostile_strings(), 60);
  std::vector<std::string> short_pool = {"a", "bb", "x & y", "caf\xc3\xa9", std::string(300, 'r'), "\"q\""};
  // Each page starts a new window: these are several windows long.
  for (std::size_t k = 0; k < 6; ++k) {
    auto page = page_from(short_pool, k);
    for (std::size_t i = 0; i < 2000; ++i)
      page.non_rules.push_back({"legend", std::string((k * 37 + i * 11) % 301, 'n'), 4, 9, i});
    db.add(page);
  }
  check_in_guarded_windows(db);
}

TEST_CASE("records whose long texts outgrow the room mid-record move whole to the next window") {
  // A record starts with a fixed room and asks for more only at a long text, a string
  // list or a list's item: then the room may run out in the middle of a record, whose
  // bytes so far must go along to the next window (its printers write over its last
  // bytes). Long texts of many lengths, some with bytes to escape, some in string
  // lists, put that point at many places in a record and in a window.
  auto pool = hostile_strings();
  emit::RulesDatabase db;
  db.header.sitename = "WICA";
  for (std::size_t k = 0; k < 3; ++k) {
    extract::PageRules page = page_from(pool, k);
    extract::Rule first = page.rules.front();
    page.rules.clear();
    for (std::size_t i = 0; i < 40; ++i) {
      extract::Rule r = first;
      r.id = "rule-" + std::to_string(i);
      std::string text((k * 977 + i * 4099) % 30011 + 257, 't');
      if (i % 3 == 0) text[text.size() / 2] = '&';
      if (i % 5 == 0) text[text.size() / 3] = '"';
      r.description = uniform(text);
      if (i % 4 == 0) r.atoms = {text.substr(0, text.size() / 2), "a", text};
      if (i % 7 == 0) r.block = text;  // a field run, printed or copied
      page.rules.push_back(r);
    }
    db.add(page);
  }
  check_same(db, true);
  check_in_guarded_windows(db);
}

TEST_CASE("U+FFFE and U+FFFF, valid UTF-8 but not XML characters, keep rules.xml well-formed") {
  // Ingest repairs only ill-formed UTF-8, so these two reach the writer; xmllint rejects
  // a document holding them. rules.xml writes U+FFFD (as yaml-cpp does in rules.yaml);
  // rules.json keeps the text as it is.
  const std::string text = "Score\xef\xbf\xbe tiles\xef\xbf\xbf, keep \xef\xbf\xbd and \xef\xb7\x90";
  auto db = database({text, "site"}, 1);
  auto files = db.render();
  CHECK(files.xml.find("\xef\xbf\xbe") == std::string::npos);
  CHECK(files.xml.find("\xef\xbf\xbf") == std::string::npos);
  CHECK(files.xml.find("Score\xef\xbf\xbd tiles\xef\xbf\xbd, keep \xef\xbf\xbd and \xef\xb7\x90") != std::string::npos);
  CHECK(files.json.find("Score\xef\xbf\xbe tiles\xef\xbf\xbf") != std::string::npos);
  test::ScratchDir dir;
  test::spit(dir / "rules.xml", files.xml);
  CHECK(std::system(("xmllint --noout " + (dir / "rules.xml").string() + " 2>/dev/null").c_str()) == 0);
}

// ---- the page manifest -----------------------------------------------------------------

namespace {

// pages.yaml as yaml-cpp's Emitter wrote all of it before the pages had their own printer.
std::string reference_manifest_yaml(const emit::Manifest& m) {
  YAML::Emitter out;
  out.SetIndent(2);
  out << YAML::BeginMap;
  out << YAML::Key << "wikic-pages" << YAML::Value << emit::manifest_schema_version;
  out << YAML::Key << "inputs" << YAML::Value << YAML::BeginSeq;
  for (const auto& in : m.inputs()) {
    out << YAML::BeginMap << YAML::Key << "file" << YAML::Value << in.file;
    out << YAML::Key << "sitename" << YAML::Value << YAML::DoubleQuoted << in.sitename;
    out << YAML::Key << "dbname" << YAML::Value << YAML::DoubleQuoted << in.dbname;
    out << YAML::Key << "base" << YAML::Value << YAML::DoubleQuoted << in.base;
    out << YAML::Key << "generator" << YAML::Value << YAML::DoubleQuoted << in.generator;
    out << YAML::Key << "language" << YAML::Value << YAML::DoubleQuoted << in.language;
    out << YAML::Key << "schema-version" << YAML::Value << YAML::DoubleQuoted << in.schema_version;
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
  out << YAML::Key << "pages" << YAML::Value << YAML::BeginSeq;
  for (const auto& p : m.pages()) {
    out << YAML::BeginMap;
    out << YAML::Key << "title" << YAML::Value << YAML::DoubleQuoted << p.title;
    out << YAML::Key << "ns" << YAML::Value << p.ns;
    out << YAML::Key << "id" << YAML::Value << p.id;
    out << YAML::Key << "language" << YAML::Value << YAML::DoubleQuoted << p.language;
    if (!p.redirect.empty()) out << YAML::Key << "redirect" << YAML::Value << YAML::DoubleQuoted << p.redirect;
    out << YAML::Key << "revision" << YAML::Value << p.revision;
    out << YAML::Key << "parent" << YAML::Value << p.parent;
    out << YAML::Key << "timestamp" << YAML::Value << YAML::DoubleQuoted << p.timestamp;
    out << YAML::Key << "contributor" << YAML::Value << YAML::DoubleQuoted << p.contributor;
    out << YAML::Key << "model" << YAML::Value << YAML::DoubleQuoted << p.model;
    out << YAML::Key << "format" << YAML::Value << YAML::DoubleQuoted << p.format;
    out << YAML::Key << "bytes" << YAML::Value << p.bytes;
    out << YAML::Key << "sha1" << YAML::Value << YAML::DoubleQuoted << p.sha1;
    out << YAML::Key << "sha1-computed" << YAML::Value << p.sha1_computed;
    out << YAML::Key << "revisions-in-input" << YAML::Value << p.revisions_in_input;
    out << YAML::Key << "source" << YAML::Value << YAML::DoubleQuoted
        << p.file + ":" + std::to_string(p.at.line) + ":" + std::to_string(p.at.column);
    out << YAML::EndMap;
  }
  out << YAML::EndSeq << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

// `n` pages whose every string comes from `pool`, over several input files (a new one
// every third page, so inputs repeat their site fields), with titles seen twice, both
// kinds of contributor, redirects or none, and the extremes of each number.
emit::Manifest manifest_from(const std::vector<std::string>& pool, std::size_t n) {
  emit::Manifest m;
  support::DiagnosticSink sink;
  auto str = [&](std::size_t i) { return pool[i % pool.size()]; };
  for (std::size_t k = 0; k < n; ++k) {
    ingest::SiteInfo site;
    site.sitename = str(k);
    site.dbname = str(k + 1);
    site.base = str(k + 2);
    site.generator = str(k + 3);
    site.language = str(k + 4);
    site.schema_version = str(k + 5);
    ingest::Page page;
    page.title = str(k / 2 + 6);
    page.ns = static_cast<int>(k % 5) - 2;
    page.id = k % 4 == 0 ? std::numeric_limits<std::uint64_t>::max() : k;
    page.redirect = k % 3 == 1 ? str(k + 7) : "";
    page.language = str(k + 8);
    page.revisions_in_input = k % 7;
    page.revision.id = k * 1000003;
    page.revision.parent_id = k % 2 == 0 ? 0 : std::numeric_limits<std::uint64_t>::max() - k;
    page.revision.timestamp = str(k + 9);
    (k % 2 == 0 ? page.revision.contributor.username : page.revision.contributor.ip) = str(k + 10);
    page.revision.model = str(k + 11);
    page.revision.format = str(k + 12);
    page.revision.text = str(k + 13);
    page.revision.sha1 = str(k + 14);
    page.revision.sha1_computed = k % 3 == 0;
    page.source.file = "in/" + str(k / 3 + 15);
    page.source.page_at = {static_cast<std::uint32_t>(k * 40 + 1), static_cast<std::uint32_t>(k % 9 + 1)};
    m.add(site, page, sink);
  }
  return m;
}

}  // namespace

TEST_CASE("the page manifest's YAML prints as yaml-cpp's Emitter prints it") {
  CHECK(emit::Manifest{}.to_yaml() == reference_manifest_yaml(emit::Manifest{}));
  auto hostile = hostile_strings();
  for (std::size_t n : {1, 2, 7, 60}) {
    auto m = manifest_from(hostile, n);
    CHECK(m.to_yaml() == reference_manifest_yaml(m));
  }
  auto pool = ill_formed_strings();
  pool.insert(pool.end(), hostile.begin(), hostile.begin() + 20);
  auto m = manifest_from(pool, 80);
  CHECK(m.to_yaml() == reference_manifest_yaml(m));
  // The pages written directly still read back as yaml-cpp reads the Emitter's.
  YAML::Node back = YAML::Load(manifest_from(hostile, 7).to_yaml());
  REQUIRE(back["pages"].size() == 7);
  CHECK(back["pages"][1]["title"].as<std::string>() == manifest_from(hostile, 7).pages()[1].title);
  CHECK(back["pages"][0]["id"].as<std::uint64_t>() == std::numeric_limits<std::uint64_t>::max());
  CHECK(back["pages"][3]["ns"].as<int>() == 1);
}
