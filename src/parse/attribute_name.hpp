// Attribute names compared with a fixed lowercase name, ASCII case-insensitively as
// HTML attribute names are, a word at a time: later stages look up "class" and
// "data-dynamic-selector" among the attributes of every element they visit.
#pragma once
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace wikic::parse {

// A lowercase ASCII name as eight-byte words, each with the bits in which its letters'
// capitals differ (0x20), prepared at compile time: a name of eight bytes or more is the
// words at 0, 8, … and the last eight bytes (overlapping), a shorter one a single word
// of its bytes.
template <std::size_t N>
struct LowerName {
  static constexpr std::size_t size = N - 1;
  static constexpr std::size_t words = size < 8 ? 1 : (size + 7) / 8;
  std::uint64_t word[words] = {}, fold[words] = {};

  static constexpr std::size_t start(std::size_t w) { return size < 8 ? 0 : w + 1 == words ? size - 8 : 8 * w; }
  consteval LowerName(const char (&s)[N]) {  // NOLINT: implicit, for is_attribute_name<"class">
    for (std::size_t w = 0; w < words; ++w)
      for (std::size_t j = 0; j < 8 && start(w) + j < size; ++j) {
        char c = s[start(w) + j];
        unsigned shift = std::endian::native == std::endian::little ? 8 * j : 8 * (7 - j);
        word[w] |= std::uint64_t(static_cast<unsigned char>(c)) << shift;
        if (c >= 'a' && c <= 'z') fold[w] |= std::uint64_t(0x20) << shift;
      }
  }
};

// Whether `name` is `Lower` (lowercase ASCII) compared ASCII case-insensitively, a word
// at a time: a letter of `Lower` matches itself or its capital (the two differ in bit
// 0x20 alone), any other byte only itself.
template <LowerName Lower>
inline bool is_attribute_name(std::string_view name) {
  constexpr std::size_t size = decltype(Lower)::size;
  if (name.size() != size) return false;
  for (std::size_t w = 0; w < decltype(Lower)::words; ++w) {
    std::uint64_t v = 0;
    std::memcpy(&v, name.data() + decltype(Lower)::start(w), size < 8 ? size : 8);
    if ((v | Lower.fold[w]) != Lower.word[w]) return false;
  }
  return true;
}

}  // namespace wikic::parse
