// Writers of the rule database: rules.yaml, rules.xml and rules.json from the extracted
// pages. One description of the record layout drives all three printers, so the formats
// cannot drift apart; schema/rules.schema.json and schema/rules.xsd describe it.
#pragma once
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "extract/rules.hpp"
#include "support/output.hpp"

namespace wikic::emit {

/// Format version of rules.{yaml,xml,json}; bumped when a field changes meaning.
inline constexpr const char* rules_schema_version = "1";

struct RulesHeader {
  std::string sitename;
  /// The export has no dump date of its own; the latest revision timestamp of the pages
  /// read stands for it (a run-independent value, unlike the clock).
  std::string dump_date;
  int vocabulary_version = 0;
  int mapping_version = 0;
};

struct RulesTotals {
  std::size_t pages = 0, rules = 0, sub_rules = 0, non_rules = 0, unparsed = 0, collisions = 0;
  /// Counts one page in.
  void add(const extract::PageRules& page);
  /// "N pages, N rules (N sub-rules), N non-rules, N unparsed points, N id collisions".
  std::string text() const;
};

/// Writes the three files as pages arrive: the header first, each page as soon as it is
/// extracted (nothing is kept), the summary last. The outputs are the caller's: files'
/// windows (`wikic compile`, the printers writing in place) or streams (strings in
/// tests); finish() must be called once.
class RulesWriter {
public:
  RulesWriter(support::OutputWindow& yaml, support::OutputWindow& xml, support::OutputWindow& json,
              const RulesHeader& header);
  RulesWriter(std::ostream& yaml, std::ostream& xml, std::ostream& json, const RulesHeader& header);
  ~RulesWriter();
  void page(const extract::PageRules& page);
  void finish();
  const RulesTotals& totals() const { return totals_; }

private:
  std::vector<std::unique_ptr<support::OutputWindow>> streams_;  ///< the ostream constructor's
  RulesTotals totals_;
  struct Printers;  ///< one per format, each writing into its output's windows
  std::unique_ptr<Printers> printers_;
  void start(support::OutputWindow& yaml, support::OutputWindow& xml, support::OutputWindow& json,
             const RulesHeader& header);
  void flush();
};

/// The whole database in memory (tests, small inputs); same bytes as RulesWriter.
class RulesDatabase {
public:
  void add(extract::PageRules page) { pages_.push_back(std::move(page)); }
  const std::vector<extract::PageRules>& pages() const { return pages_; }
  RulesHeader header;

  std::string to_json() const;
  std::string to_yaml() const;
  std::string to_xml() const;
  /// All three at once, as `wikic compile` writes them.
  struct Files {
    std::string yaml, xml, json;
  };
  Files render() const;
  /// "N pages, N rules (N sub-rules), N non-rules, N unparsed points, N id collisions".
  std::string summary() const;

private:
  std::vector<extract::PageRules> pages_;
};

}  // namespace wikic::emit
