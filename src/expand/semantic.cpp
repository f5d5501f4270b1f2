// Loading schema/templates.yaml with yaml-cpp; patterns are matched with '*' only.
#include "expand/semantic.hpp"

#include <stdexcept>
#include <yaml-cpp/yaml.h>

#include "support/embedded.hpp"

namespace wikic::expand {

namespace {
SemanticKind kind_of(const std::string& s) {
  if (s == "row") return SemanticKind::row;
  if (s == "block-open") return SemanticKind::block_open;
  if (s == "block-close") return SemanticKind::block_close;
  if (s == "inline") return SemanticKind::inline_;
  throw std::runtime_error("schema/templates.yaml: unknown kind '" + s + "'");
}

TemplateSpec spec_of(const std::string& name, const YAML::Node& node) {
  TemplateSpec spec;
  spec.name = name;
  spec.kind = kind_of(node["kind"].as<std::string>());
  if (node["meaning"]) spec.meaning = node["meaning"].as<std::string>();
  for (const auto& p : node["parameters"]) {
    ParameterSpec ps;
    const YAML::Node& v = p.second;
    if (v["required"]) ps.required = v["required"].as<bool>();
    if (v["flag"]) ps.flag = v["flag"].as<bool>();
    for (const auto& value : v["values"]) ps.values.push_back(value.as<std::string>());
    spec.parameters.emplace(p.first.as<std::string>(), ps);
  }
  return spec;
}

bool glob_match(std::string_view pattern, std::string_view s) {
  auto star = pattern.find('*');
  if (star == std::string_view::npos) return pattern == s;
  std::string_view head = pattern.substr(0, star), tail = pattern.substr(star + 1);
  return s.size() > head.size() + tail.size() && s.substr(0, head.size()) == head &&
         s.substr(s.size() - tail.size()) == tail;
}
}  // namespace

const char* to_string(SemanticKind kind) {
  switch (kind) {
  case SemanticKind::row: return "row";
  case SemanticKind::block_open: return "block-open";
  case SemanticKind::block_close: return "block-close";
  case SemanticKind::inline_: return "inline";
  }
  return "inline";
}

SemanticSchema SemanticSchema::parse(const std::string& yaml) {
  SemanticSchema schema;
  YAML::Node doc = YAML::Load(yaml);
  schema.version_ = doc["version"].as<int>();
  for (const auto& t : doc["templates"]) {
    std::string name = t.first.as<std::string>();
    schema.exact_.emplace(name, spec_of(name, t.second));
  }
  for (const auto& p : doc["patterns"]) {
    std::string pattern = p.first.as<std::string>();
    schema.patterns_.emplace_back(pattern, spec_of(pattern, p.second));
  }
  return schema;
}

const SemanticSchema& SemanticSchema::builtin() {
  static const SemanticSchema schema = [] {
    auto bytes = support::embedded_file("templates.yaml");
    if (!bytes) throw std::logic_error("schema/templates.yaml is not embedded");
    return parse(std::string(*bytes));
  }();
  return schema;
}

const TemplateSpec* SemanticSchema::find(const std::string& name) const {
  if (auto it = exact_.find(name); it != exact_.end()) return &it->second;
  auto [it, fresh] = pattern_cache_.try_emplace(name);
  if (fresh)
    for (const auto& [pattern, spec] : patterns_)
      if (glob_match(pattern, name)) {
        it->second = spec;
        it->second->name = name;
        break;
      }
  return it->second ? &*it->second : nullptr;
}

}  // namespace wikic::expand
