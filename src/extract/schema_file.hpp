// schema/extract.yaml as read once per process: the rule mapping (rules.cpp) and the
// point-basis vocabulary (points.cpp) both come from it, and parsing it is costly
// (yaml-cpp spends millions of instructions on it), so it is parsed a single time.
#pragma once
#include <yaml-cpp/yaml.h>

namespace wikic::extract {

/// The parsed mapping file; a malformed or missing one is a build defect and throws.
const YAML::Node& extract_schema();

}  // namespace wikic::extract
