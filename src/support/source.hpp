// Byte spans and the line index that turns them into 1-based line:column positions.
// Every stage keeps byte offsets internally (pugixml reports nothing else); only
// diagnostics convert to lines, and columns count UTF-8 code points, not bytes.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace wikic::support {

/// A half-open byte range [begin, end) into one source text.
struct Span {
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
  std::uint32_t size() const { return end - begin; }
  friend bool operator==(const Span&, const Span&) = default;
};

/// A 1-based line and column (column in code points).
struct Position {
  std::uint32_t line = 1;
  std::uint32_t column = 1;
  friend bool operator==(const Position&, const Position&) = default;
};

/// "No position": a diagnostic about a whole file prints as `file: …`.
inline constexpr Position nowhere{0, 0};

/// Line starts of a text, queried by binary search. The starts are found at the first
/// query, not at construction: stages keep an index for every page and template in case
/// a diagnostic needs one, and most never do. Not for sharing between threads.
class LineIndex {
public:
  LineIndex() = default;
  explicit LineIndex(std::string_view text) : text_(text), built_(false) {}
  /// The index of `text` from the offsets of its '\n' bytes, in order, for a caller that
  /// has them already: nothing is scanned.
  LineIndex(std::string_view text, const std::vector<std::uint32_t>& newlines);
  /// Position of byte `offset`; offsets past the end map to the end of the text.
  Position position(std::size_t offset) const;
  std::size_t line_count() const { return starts().size(); }
  /// The byte offset of a position (the inverse of position(); clamped to the text).
  std::size_t offset(Position at) const;
  /// Byte offset where 1-based `line` starts.
  std::size_t line_start(std::uint32_t line) const { return starts().at(line - 1); }

private:
  const std::vector<std::size_t>& starts() const {
    if (!built_) build();
    return starts_;
  }
  void build() const;

  std::string_view text_;
  mutable std::vector<std::size_t> starts_{0};
  mutable bool built_ = true;  // an empty index has its one line
};

/// Counts '\n' in a buffer quickly; used by streaming readers that cannot keep an index.
std::size_t count_newlines(std::string_view text);

/// Position reached after `text` when starting at `from` (for incremental tracking).
Position advance(Position from, std::string_view text);
/// The same, with the number of '\n' in `text` already known (counted by a pass the
/// caller makes anyway), so only its last line is read.
Position advance(Position from, std::string_view text, std::size_t newlines);

}  // namespace wikic::support
