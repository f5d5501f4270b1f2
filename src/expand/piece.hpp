// Expanded text that remembers where every byte came from: a string plus segments that
// map ranges of it to (source page, byte span, template call chain). This is how a
// diagnostic on expanded text can say "in Template:ScoringRow called at page:12:3".
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "support/source.hpp"

namespace wikic::expand {

inline constexpr std::uint32_t kNoChain = 0;  ///< chain 0: text of the page itself

struct Origin {
  std::uint32_t source = 0;  ///< index into Expansion::sources
  support::Span span;        ///< bytes of that source the text came from (or the call it was made by)
  std::uint32_t chain = kNoChain;  ///< index into Expansion::calls: the template call it was expanded in
};

struct Segment {
  std::uint32_t begin = 0;  ///< range in Piece::text
  std::uint32_t end = 0;
  Origin origin;
};

struct Piece {
  std::string text;
  std::vector<Segment> segments;

  void append(std::string_view t, const Origin& origin);
  void append(const Piece& other);
  /// PHP trim(): strips " \t\n\r\0\x0B" at both ends, segments clipped to match.
  Piece trimmed() const&;
  /// The same, trimming a temporary in place instead of copying it.
  Piece trimmed() &&;
  /// The origin of the byte at `offset` (the last segment for offset == size).
  const Origin* origin_at(std::size_t offset) const;
};

/// The origin of byte `offset` of a text made of `segments`: inside a segment copied
/// byte for byte, that very byte of the source; inside any other (a call's output),
/// the construct that produced it; past the end, the last segment's. Empty: {}.
Origin byte_origin(const std::vector<Segment>& segments, std::size_t offset);

/// PHP trim() on plain text.
std::string_view php_trim(std::string_view s);

}  // namespace wikic::expand
