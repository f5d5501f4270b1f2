// The rule database loader: YAML is first turned into the JSON document model (the two
// files carry one document), then one reader fills the structs.
#include "wikic/db.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <yaml-cpp/yaml.h>

namespace wikic::db {
namespace {

using Json = nlohmann::json;

// wikic writes every string double-quoted, so an unquoted scalar is a number or bool.
Json from_yaml(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map: {
      Json j = Json::object();
      for (const auto& kv : n) j[kv.first.as<std::string>()] = from_yaml(kv.second);
      return j;
    }
    case YAML::NodeType::Sequence: {
      Json j = Json::array();
      for (const auto& v : n) j.push_back(from_yaml(v));
      return j;
    }
    case YAML::NodeType::Scalar: {
      const std::string& s = n.Scalar();
      if (n.Tag() == "!") return s;  // quoted
      if (s == "true") return true;
      if (s == "false") return false;
      try {
        std::size_t used = 0;
        double d = std::stod(s, &used);
        if (used == s.size()) {
          if (s.find_first_of(".eE") == std::string::npos) return static_cast<std::int64_t>(d);
          return d;
        }
      } catch (const std::exception&) {
      }
      return s;
    }
    default:
      return nullptr;
  }
}

std::string str(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::vector<std::string> strings(const Json& j, const char* key) {
  std::vector<std::string> out;
  auto it = j.find(key);
  if (it != j.end() && it->is_array())
    for (const auto& v : *it)
      if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

template <class T>
T number(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<T>() : T{};
}

Text text(const Json& j) {
  Text t;
  if (j.is_string()) {
    t.c1 = t.c2 = t.we = j.get<std::string>();
  } else if (j.is_object()) {
    t.c1 = str(j, "C1");
    t.c2 = str(j, "C2");
    t.we = str(j, "WE");
    t.uniform = false;
  }
  return t;
}

// Texts each under a condition relative to the rule: notes, parts (both {when, text}).
template <class Item>
std::vector<Item> conditioned_texts(const Json& j, const char* key) {
  std::vector<Item> out;
  auto it = j.find(key);
  if (it != j.end() && it->is_array())
    for (const auto& p : *it) out.push_back({str(p, "when"), p.contains("text") ? text(p["text"]) : Text{}});
  return out;
}

Rule rule(const Json& j) {
  Rule r;
  r.id = str(j, "id");
  r.parent = str(j, "parent");
  r.section = str(j, "section");
  r.phase = str(j, "phase");
  r.round = str(j, "round");
  r.step = str(j, "step");
  r.block = str(j, "block");
  r.kind = str(j, "kind");
  r.when = str(j, "when");
  r.core = j.value("core", false);
  r.atoms = strings(j, "atoms");
  r.triggers = strings(j, "triggers");
  r.references = strings(j, "references");
  if (j.contains("description")) r.description = text(j["description"]);
  if (j.contains("rules")) r.rules = text(j["rules"]);
  r.description_parts = conditioned_texts<Part>(j, "description-parts");
  r.rules_parts = conditioned_texts<Part>(j, "rules-parts");
  r.notes = conditioned_texts<Note>(j, "notes");
  if (j.contains("points")) {
    const Json& p = j["points"];
    r.points_unparsed = p.is_string() && p.get<std::string>() == "unparsed";
    if (p.is_array())
      for (const auto& e : p) {
        Points q;
        q.op = str(e, "op");
        if (e.contains("value") && e["value"].is_number()) q.value = e["value"].get<double>();
        q.quantity = str(e, "quantity");
        q.basis = str(e, "basis");
        if (e.contains("denominator") && e["denominator"].is_number()) q.denominator = e["denominator"].get<double>();
        q.per = str(e, "per");
        q.rounding = str(e, "rounding");
        q.when = str(e, "when");
        q.text = str(e, "text");
        q.editions = strings(e, "editions");
        r.points.push_back(std::move(q));
      }
  }
  if (j.contains("source")) {
    const Json& s = j["source"];
    r.source.page = str(s, "page");
    r.source.file = str(s, "file");
    r.source.origin = str(s, "origin");
    r.source.revision = number<std::uint64_t>(s, "revision");
    r.source.line = number<std::uint32_t>(s, "line");
    r.source.column = number<std::uint32_t>(s, "column");
    if (s.contains("offset") && s["offset"].is_number()) r.source.offset = s["offset"].get<std::uint64_t>();
    r.source.chain = strings(s, "chain");
  }
  return r;
}

std::optional<Database> read(const Json& d, std::string& error) {
  if (!d.is_object() || !d.contains("wikic-rules")) {
    error = "not a wikic rule database (no 'wikic-rules' key)";
    return std::nullopt;
  }
  Database db;
  db.format_version = d["wikic-rules"].is_string() ? d["wikic-rules"].get<std::string>() : d["wikic-rules"].dump();
  if (db.format_version != "1") {
    error = "unsupported rule database format version " + db.format_version;
    return std::nullopt;
  }
  db.sitename = str(d, "sitename");
  db.dump_date = str(d, "dump-date");
  db.vocabulary_version = number<int>(d, "vocabulary-version");
  if (d.contains("pages") && d["pages"].is_array())
    for (const auto& p : d["pages"]) {
      Page page;
      page.title = str(p, "title");
      page.timestamp = str(p, "timestamp");
      page.revision = number<std::uint64_t>(p, "revision");
      if (p.contains("rules") && p["rules"].is_array())
        for (const auto& r : p["rules"]) page.rules.push_back(rule(r));
      db.pages.push_back(std::move(page));
    }
  return db;
}

}  // namespace

const std::string& Text::in(std::string_view edition) const {
  if (edition == "C1") return c1;
  if (edition == "WE") return we;
  return c2;
}

std::optional<Database> parse(const std::string& text, const std::string& format, std::string& error) {
  try {
    Json d = format == "json" ? Json::parse(text) : from_yaml(YAML::Load(text));
    return read(d, error);
  } catch (const std::exception& e) {
    error = e.what();
    return std::nullopt;
  }
}

std::optional<Database> load(const std::string& path, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path + ": cannot open";
    return std::nullopt;
  }
  std::ostringstream s;
  s << in.rdbuf();
  bool json = path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0;
  auto db = parse(s.str(), json ? "json" : "yaml", error);
  if (!db) error = path + ": " + error;
  return db;
}

}  // namespace wikic::db
