// Line index and position arithmetic for diagnostics.
#include "support/source.hpp"

#include <algorithm>
#include <cstring>

namespace wikic::support {

namespace {
bool is_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

std::uint32_t code_points(std::string_view s) {
  return static_cast<std::uint32_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return !is_continuation(c); }));
}
}  // namespace

LineIndex::LineIndex(std::string_view text) : text_(text) {
  for (std::size_t i = text.find('\n'); i != std::string_view::npos; i = text.find('\n', i + 1))
    starts_.push_back(i + 1);
}

Position LineIndex::position(std::size_t offset) const {
  offset = std::min(offset, text_.size());
  auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
  auto line = static_cast<std::uint32_t>(it - starts_.begin());
  std::size_t start = starts_[line - 1];
  return {line, 1 + code_points(text_.substr(start, offset - start))};
}

std::size_t LineIndex::offset(Position at) const {
  if (at.line == 0) return 0;
  std::size_t line = std::min<std::size_t>(at.line, starts_.size());
  std::size_t i = starts_[line - 1];
  for (std::uint32_t col = 1; col < at.column && i < text_.size() && text_[i] != '\n'; ++col) {
    ++i;
    while (i < text_.size() && is_continuation(text_[i])) ++i;
  }
  return i;
}

std::size_t count_newlines(std::string_view text) {
  std::size_t n = 0;
  const char* p = text.data();
  const char* end = p + text.size();
  while ((p = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p))))) {
    ++n;
    ++p;
  }
  return n;
}

Position advance(Position from, std::string_view text) {
  std::size_t last = text.rfind('\n');
  if (last == std::string_view::npos)
    return {from.line, from.column + code_points(text)};
  return {from.line + static_cast<std::uint32_t>(count_newlines(text)),
          1 + code_points(text.substr(last + 1))};
}

}  // namespace wikic::support
