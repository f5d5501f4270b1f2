// The semantic-template schema (schema/templates.yaml): which templates the expander
// keeps as typed nodes, what kind of node each is, and which parameters it takes.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wikic::expand {

enum class SemanticKind { row, block_open, block_close, inline_ };

struct ParameterSpec {
  bool required = false;
  bool flag = false;
  std::vector<std::string> values;  ///< allowed values; empty = any
};

struct TemplateSpec {
  std::string name;     ///< template name without namespace ("ScoringRow")
  SemanticKind kind = SemanticKind::inline_;
  std::string meaning;
  std::map<std::string, ParameterSpec> parameters;
};

class SemanticSchema {
public:
  /// The schema compiled into the binary.
  static const SemanticSchema& builtin();
  /// Parses a schema document (the format of schema/templates.yaml).
  static SemanticSchema parse(const std::string& yaml);

  /// The spec claiming template `name` (without "Template:"), by exact name first,
  /// then by pattern.
  const TemplateSpec* find(const std::string& name) const;
  int version() const { return version_; }

private:
  int version_ = 0;
  std::map<std::string, TemplateSpec> exact_;
  std::vector<std::pair<std::string, TemplateSpec>> patterns_;
  mutable std::map<std::string, std::optional<TemplateSpec>> pattern_cache_;
};

const char* to_string(SemanticKind kind);

}  // namespace wikic::expand
