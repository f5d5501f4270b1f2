// Loads schema/languages.yaml once from the embedded data.
#include "ingest/languages.hpp"

#include <map>
#include <stdexcept>
#include <yaml-cpp/yaml.h>

#include "support/embedded.hpp"

namespace wikic::ingest {

namespace {
const std::map<std::string, std::string, std::less<>>& table() {
  static const auto codes = [] {
    std::map<std::string, std::string, std::less<>> out;
    auto bytes = support::embedded_file("languages.yaml");
    if (!bytes) throw std::logic_error("schema/languages.yaml is not embedded");
    YAML::Node doc = YAML::Load(std::string(*bytes));
    for (const auto& entry : doc["languages"])
      out.emplace(entry["code"].as<std::string>(), entry["name"].as<std::string>());
    return out;
  }();
  return codes;
}
}  // namespace

bool is_language_code(std::string_view code) { return table().count(code) > 0; }

std::string_view language_name(std::string_view code) {
  auto it = table().find(code);
  return it == table().end() ? std::string_view{} : std::string_view{it->second};
}

std::string page_language(std::string_view title, std::string_view site_language) {
  auto slash = title.rfind('/');
  if (slash != std::string_view::npos && is_language_code(title.substr(slash + 1)))
    return std::string(title.substr(slash + 1));
  return std::string(site_language);
}

}  // namespace wikic::ingest
