// Line index and position arithmetic for diagnostics.
#include "support/source.hpp"

#include <algorithm>
#include <cstring>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "support/scan.hpp"

namespace wikic::support {

namespace {
bool is_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

std::uint32_t code_points(std::string_view s) {
  std::size_t n = 0, i = 0;
#ifdef __SSE2__
  // Sixteen bytes a step: the reader counts the code points of whole page lines, and a
  // collapsed page is one line of hundreds of kilobytes. Continuation bytes are
  // 0x80..0xBF, i.e. -128..-65 as signed bytes. The counts are kept per byte lane and
  // summed before a lane can overflow: a popcount per step is a libgcc call on CPUs
  // without POPCNT, which cost four times the step itself.
  const __m128i last_continuation = _mm_set1_epi8(-65), zero = _mm_setzero_si128();
  while (i + 16 <= s.size()) {
    __m128i counts = zero;
    for (int steps = 0; steps < 255 && i + 16 <= s.size(); ++steps, i += 16) {
      __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i));
      counts = _mm_sub_epi8(counts, _mm_cmpgt_epi8(v, last_continuation));
    }
    __m128i sums = _mm_sad_epu8(counts, zero);
    n += static_cast<std::size_t>(_mm_cvtsi128_si32(sums)) +
         static_cast<std::size_t>(_mm_cvtsi128_si32(_mm_srli_si128(sums, 8)));
  }
#endif
  for (; i < s.size(); ++i) n += !is_continuation(s[i]);
  return static_cast<std::uint32_t>(n);
}

// Calls `on_newline(offset)` for every '\n' in `text`, in order. Sixteen bytes a step with
// SSE2: lines are short (tens of bytes), so a memchr call per line costs more than the
// scanning, and these run over every page the reader and the parser see.
template <typename F>
void each_newline(std::string_view text, F&& on_newline) {
  const char* p = text.data();
  const std::size_t n = text.size();
  std::size_t i = 0;
#ifdef __SSE2__
  const __m128i nl = _mm_set1_epi8('\n');
  for (; i + 16 <= n; i += 16) {
    auto mask = static_cast<unsigned>(
        _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i)), nl)));
    for (; mask != 0; mask &= mask - 1) on_newline(i + static_cast<std::size_t>(__builtin_ctz(mask)));
  }
#endif
  for (; i < n; ++i)
    if (p[i] == '\n') on_newline(i);
}
}  // namespace

void LineIndex::build() const {
  // Wiki lines run to a few dozen bytes: room for one per 32 bytes makes regrowing (a
  // dozen allocations and copies on a long page) rare, without a counting pass.
  starts_.reserve(text_.size() / 32 + 1);
  each_newline(text_, [this](std::size_t i) { starts_.push_back(i + 1); });
  built_ = true;
}

LineIndex::LineIndex(std::string_view text, const std::vector<std::uint32_t>& newlines) : text_(text) {
  starts_.reserve(newlines.size() + 1);
  for (std::uint32_t k : newlines) starts_.push_back(std::size_t{k} + 1);
}

Position LineIndex::position(std::size_t offset) const {
  offset = std::min(offset, text_.size());
  const std::vector<std::size_t>& lines = starts();
  auto it = std::upper_bound(lines.begin(), lines.end(), offset);
  auto line = static_cast<std::uint32_t>(it - lines.begin());
  std::size_t start = lines[line - 1];
  return {line, 1 + code_points(text_.substr(start, offset - start))};
}

std::size_t LineIndex::offset(Position at) const {
  if (at.line == 0) return 0;
  const std::vector<std::size_t>& lines = starts();
  std::size_t line = std::min<std::size_t>(at.line, lines.size());
  std::size_t i = lines[line - 1];
  for (std::uint32_t col = 1; col < at.column && i < text_.size() && text_[i] != '\n'; ++col) {
    ++i;
    while (i < text_.size() && is_continuation(text_[i])) ++i;
  }
  return i;
}

std::size_t count_newlines(std::string_view text) {
  std::size_t n = 0;
  scan_counting_lines<>(text.data(), 0, text.size(), n);
  return n;
}

Position advance(Position from, std::string_view text, std::size_t newlines) {
  if (newlines == 0) return {from.line, from.column + code_points(text)};
  std::size_t last = text.rfind('\n');
  return {from.line + static_cast<std::uint32_t>(newlines), 1 + code_points(text.substr(last + 1))};
}

Position advance(Position from, std::string_view text) { return advance(from, text, count_newlines(text)); }

}  // namespace wikic::support
