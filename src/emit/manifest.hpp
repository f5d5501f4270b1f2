// The page manifest of `wikic compile`: what each input held (site, schema version)
// and one entry per page read, written as YAML and XML. Entries carry no run-time
// data (no timestamps of the run), so two runs over the same input are byte-identical.
#pragma once
#include <string>
#include <unordered_map>
#include <vector>

#include "ingest/page.hpp"
#include "support/diagnostic.hpp"

namespace wikic::emit {

struct ManifestInput {
  std::string file;
  std::string sitename;
  std::string dbname;
  std::string base;
  std::string generator;
  std::string language;
  std::string schema_version;
};

struct ManifestPage {
  std::string title;
  int ns = 0;
  std::uint64_t id = 0;
  std::string language;
  std::string redirect;
  std::uint64_t revision = 0;
  std::uint64_t parent = 0;
  std::string timestamp;
  std::string contributor;
  std::string model;
  std::string format;
  std::uint64_t bytes = 0;
  std::string sha1;
  bool sha1_computed = false;
  std::size_t revisions_in_input = 0;
  std::string file;
  support::Position at;
};

class Manifest {
public:
  /// Records the page (not its text). A title seen before is reported; both entries stay.
  void add(const ingest::SiteInfo& site, const ingest::Page& page, support::DiagnosticSink& sink);
  const std::vector<ManifestPage>& pages() const { return pages_; }
  const std::vector<ManifestInput>& inputs() const { return inputs_; }

  std::string to_yaml() const;
  std::string to_xml() const;

private:
  std::vector<ManifestInput> inputs_;
  std::vector<ManifestPage> pages_;
  std::unordered_map<std::string, std::size_t> by_title_;
};

/// Format version of pages.yaml / pages.xml; bumped when a field changes meaning.
inline constexpr const char* manifest_schema_version = "1";

}  // namespace wikic::emit
