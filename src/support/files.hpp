// File I/O with the guarantees the nightly regeneration relies on: reads report the
// OS error text, and writes are atomic (a temp file in the same folder, then rename),
// so a reader of out/ never sees a half-written file.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace wikic::support {

/// Whole file into a string; on failure nullopt and `error` holds "path: reason".
std::optional<std::string> read_file(const std::string& path, std::string& error);

/// Writes `content` to `path` atomically; false and `error` set on failure.
bool write_file_atomic(const std::string& path, std::string_view content, std::string& error);

}  // namespace wikic::support
