// Access to the data files of schema/, compiled into the binary by cmake/embed.cmake.
// Stages read their vocabularies through this instead of looking for files on disk.
#pragma once
#include <optional>
#include <string_view>

namespace wikic::support {

/// The bytes of schema/<name> (e.g. "languages.yaml") as built, or nullopt.
std::optional<std::string_view> embedded_file(std::string_view name);

}  // namespace wikic::support
