// Site information: namespace lookup and the default site of schema/site.yaml.
#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <yaml-cpp/yaml.h>

#include "ingest/page.hpp"
#include "support/embedded.hpp"

namespace wikic::ingest {

namespace {
bool same_prefix(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i] == '_' ? ' ' : a[i];
    char y = b[i] == '_' ? ' ' : b[i];
    if (std::tolower(static_cast<unsigned char>(x)) != std::tolower(static_cast<unsigned char>(y)))
      return false;
  }
  return true;
}
}  // namespace

const Namespace* SiteInfo::find(int key) const {
  auto it = std::find_if(namespaces.begin(), namespaces.end(),
                         [&](const Namespace& n) { return n.key == key; });
  return it == namespaces.end() ? nullptr : &*it;
}

std::pair<int, std::string_view> SiteInfo::split_title(std::string_view title) const {
  auto colon = title.find(':');
  if (colon == std::string_view::npos || colon == 0) return {0, title};
  std::string_view prefix = title.substr(0, colon);
  while (!prefix.empty() && (prefix.back() == ' ' || prefix.back() == '_')) prefix.remove_suffix(1);
  for (const auto& ns : namespaces)
    if (!ns.name.empty() && same_prefix(prefix, ns.name)) {
      std::string_view rest = title.substr(colon + 1);
      while (!rest.empty() && (rest.front() == ' ' || rest.front() == '_')) rest.remove_prefix(1);
      return {ns.key, rest};
    }
  return {0, title};
}

const SiteInfo& default_site() {
  static const SiteInfo site = [] {
    auto bytes = support::embedded_file("site.yaml");
    if (!bytes) throw std::logic_error("schema/site.yaml is not embedded");
    YAML::Node doc = YAML::Load(std::string(*bytes));
    SiteInfo s;
    s.sitename = doc["sitename"].as<std::string>();
    s.dbname = doc["dbname"].as<std::string>();
    s.base = doc["base"].as<std::string>();
    s.language = doc["language"].as<std::string>();
    s.case_rule = doc["case"].as<std::string>();
    for (const auto& n : doc["namespaces"])
      s.namespaces.push_back({n["key"].as<int>(), n["name"].as<std::string>(), s.case_rule});
    return s;
  }();
  return site;
}

}  // namespace wikic::ingest
