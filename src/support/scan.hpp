// Byte scans shared by the stages that walk every byte of a page (line restoration,
// the parser, the output printers): the next byte out of a small set, sixteen bytes a
// step with SSE2, and a plain loop elsewhere. Header-only, so the sets are compile-time
// constants.
#pragma once
#include <cstddef>
#include <cstdint>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace wikic::support {

// Inlined into the scanning loops even where GCC declines: out of line, every call
// rebuilt the byte vectors of the set, which cost as much as the scan between two hits.
#if defined(__GNUC__)
#define WIKIC_SCAN_INLINE inline __attribute__((always_inline))
#else
#define WIKIC_SCAN_INLINE inline
#endif

/// Offset of the first byte in [from, to) equal to one of `Cs`, or `to`.
template <char... Cs>
WIKIC_SCAN_INLINE std::uint32_t scan_for(const char* base, std::uint32_t from, std::uint32_t to) {
#ifdef __SSE2__
  while (from + 16 <= to) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + from));
    __m128i hit = _mm_setzero_si128();
    ((hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v, _mm_set1_epi8(Cs)))), ...);
    if (int mask = _mm_movemask_epi8(hit)) return from + static_cast<std::uint32_t>(__builtin_ctz(mask));
    from += 16;
  }
#endif
  while (from < to && ((base[from] != Cs) && ...)) ++from;
  return from;
}

/// scan_for with the byte known at run time. Most spans searched are a few dozen bytes,
/// where a call to memchr costs more than the search itself.
WIKIC_SCAN_INLINE std::uint32_t scan_byte(const char* base, std::uint32_t from, std::uint32_t to, char c) {
#ifdef __SSE2__
  const __m128i needle = _mm_set1_epi8(c);
  while (from + 16 <= to) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + from));
    if (int mask = _mm_movemask_epi8(_mm_cmpeq_epi8(v, needle)))
      return from + static_cast<std::uint32_t>(__builtin_ctz(mask));
    from += 16;
  }
#endif
  while (from < to && base[from] != c) ++from;
  return from;
}

/// Offset of the first byte in [from, to) that an output format must treat specially:
/// a control byte (below 0x20), with `StopNonAscii` also any byte from 0x80 up, or one
/// of `Cs`; `to` when there is none. Rule text is long and almost never has one.
template <bool StopNonAscii, char... Cs>
std::size_t scan_special(const char* base, std::size_t from, std::size_t to) {
#ifdef __SSE2__
  while (from + 16 <= to) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + from));
    __m128i hit;
    if constexpr (StopNonAscii) {
      // Signed, the bytes from 0x80 up are negative: one compare finds them and the
      // control bytes together.
      hit = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
    } else {
      hit = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);
    }
    ((hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v, _mm_set1_epi8(Cs)))), ...);
    if (int mask = _mm_movemask_epi8(hit)) return from + static_cast<std::size_t>(__builtin_ctz(mask));
    from += 16;
  }
#endif
  for (; from < to; ++from) {
    auto c = static_cast<unsigned char>(base[from]);
    if (c < 0x20 || (StopNonAscii && c >= 0x80) || ((base[from] == Cs) || ...)) break;
  }
  return from;
}

}  // namespace wikic::support
