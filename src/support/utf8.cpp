// Strict UTF-8 (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF).
#include "support/utf8.hpp"

#include <cstdint>
#include <cstring>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace wikic::support {

namespace {
/// Length of the valid sequence at s[i], or 0 if it is not valid.
std::size_t valid_sequence(std::string_view s, std::size_t i) {
  auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  unsigned char c = b(0);
  if (c < 0x80) return 1;
  std::size_t len;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) len = 2;
  else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else return 0;
  if (i + len > s.size()) return 0;
  if (b(1) < lo || b(1) > hi) return 0;
  for (std::size_t k = 2; k < len; ++k)
    if ((b(k) & 0xC0) != 0x80) return 0;
  return len;
}
}  // namespace

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

std::size_t find_invalid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    // ASCII fast path, sixteen (or eight) bytes at a time: most wikitext is ASCII markup.
#ifdef __SSE2__
    while (i + 16 <= s.size() &&
           _mm_movemask_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i))) == 0)
      i += 16;
#endif
    while (i + 8 <= s.size()) {
      std::uint64_t word;
      std::memcpy(&word, s.data() + i, 8);
      if (word & 0x8080808080808080ull) break;
      i += 8;
    }
    while (i < s.size() && static_cast<unsigned char>(s[i]) < 0x80) ++i;
    if (i == s.size()) break;
    std::size_t len = valid_sequence(s, i);
    if (len == 0) return i;
    i += len;
  }
  return std::string_view::npos;
}

Utf8Scan scan_utf8(std::string_view s) {
  Utf8Scan out;
  const char* p = s.data();
  const std::size_t n = s.size();
  std::size_t i = 0;
  while (i < n) {
#ifdef __SSE2__
    // ASCII runs, 64 bytes a step: one test of the four blocks' high bits together, and
    // newlines counted per byte lane, summed before a lane can overflow (63 steps of at
    // most four). Fused and unrolled, this costs less than either scan did alone.
    const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
    __m128i counts = zero;
    int steps = 0;
    for (; steps < 63 && i + 64 <= n; ++steps, i += 64) {
      __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
      __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 16));
      __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 32));
      __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 48));
      if (_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d))) != 0) break;
      counts = _mm_sub_epi8(counts, _mm_cmpeq_epi8(a, nl));
      counts = _mm_sub_epi8(counts, _mm_cmpeq_epi8(b, nl));
      counts = _mm_sub_epi8(counts, _mm_cmpeq_epi8(c, nl));
      counts = _mm_sub_epi8(counts, _mm_cmpeq_epi8(d, nl));
    }
    __m128i sums = _mm_sad_epu8(counts, zero);
    out.newlines += static_cast<std::size_t>(_mm_cvtsi128_si32(sums)) +
                    static_cast<std::size_t>(_mm_cvtsi128_si32(_mm_srli_si128(sums, 8)));
    if (steps == 63) continue;
    // The step that stopped the run (or the last bytes), a block at a time up to its
    // first byte from 0x80 up.
    while (i + 16 <= n) {
      __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
      auto high = static_cast<unsigned>(_mm_movemask_epi8(v));
      auto lines = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, nl)));
      if (high != 0) {
        unsigned before = static_cast<unsigned>(__builtin_ctz(high));
        out.newlines += static_cast<std::size_t>(__builtin_popcount(lines & ((1u << before) - 1)));
        i += before;
        break;
      }
      out.newlines += static_cast<std::size_t>(__builtin_popcount(lines));
      i += 16;
    }
#endif
    // Up to the next byte from 0x80 up (in the last fifteen bytes, or none left to pass),
    // then the sequence it starts; no byte of one is a newline.
    while (i < n && static_cast<unsigned char>(p[i]) < 0x80) out.newlines += p[i++] == '\n';
    if (i == n) break;
    std::size_t len = valid_sequence(s, i);
    if (len == 0) {
      if (out.invalid == std::string_view::npos) out.invalid = i;
      len = 1;
    }
    i += len;
  }
  return out;
}

std::string replace_invalid_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t len = valid_sequence(s, i);
    if (len > 0) {
      out.append(s.substr(i, len));
      i += len;
      continue;
    }
    out += "\xEF\xBF\xBD";
    ++i;
    while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) ++i;
  }
  return out;
}

}  // namespace wikic::support
