// Byte scans shared by the stages that walk every byte of a page (the export reader,
// line restoration, the parser, the output printers): the next byte out of a small set
// or the next place of a short text, sixteen bytes a step with SSE2, and a plain loop
// elsewhere. Header-only, so the sets
// are compile-time constants.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
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

/// scan_for<Stops...> that also adds to `newlines` the '\n' bytes before the one it
/// stops at; with no stop bytes, a count of the lines to `to`. The export reader looks
/// for a page's end and counts its lines in one pass over the page: the count gives the
/// position of whatever follows the page without walking it again.
template <char... Stops>
WIKIC_SCAN_INLINE std::size_t scan_counting_lines(const char* base, std::size_t from, std::size_t to,
                                                  std::size_t& newlines) {
  static_assert(((Stops != '\n') && ...), "a newline cannot both be counted and stop the scan");
#ifdef __SSE2__
  [[maybe_unused]] const std::size_t begin = from;
  const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
  // 64 bytes a step while no stop byte is among them, newlines counted per byte lane
  // and summed before a lane can overflow (63 steps of at most four).
  auto stops_in = []([[maybe_unused]] __m128i v) {
    __m128i hit = _mm_setzero_si128();
    ((hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v, _mm_set1_epi8(Stops)))), ...);
    return hit;
  };
  for (bool stopped = false; !stopped && from + 64 <= to;) {
    __m128i counts = zero;
    for (int steps = 0; steps < 63 && from + 64 <= to; ++steps, from += 64) {
      __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + from));
      __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + from + 16));
      __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + from + 32));
      __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + from + 48));
      if constexpr (sizeof...(Stops) > 0) {
        __m128i any = _mm_or_si128(_mm_or_si128(stops_in(a), stops_in(b)), _mm_or_si128(stops_in(c), stops_in(d)));
        if (_mm_movemask_epi8(any) != 0) {
          stopped = true;
          break;
        }
      }
      counts = _mm_sub_epi8(counts, _mm_cmpeq_epi8(a, nl));
      counts = _mm_sub_epi8(counts, _mm_cmpeq_epi8(b, nl));
      counts = _mm_sub_epi8(counts, _mm_cmpeq_epi8(c, nl));
      counts = _mm_sub_epi8(counts, _mm_cmpeq_epi8(d, nl));
    }
    __m128i sums = _mm_sad_epu8(counts, zero);
    newlines += static_cast<std::size_t>(_mm_cvtsi128_si32(sums)) +
                static_cast<std::size_t>(_mm_cvtsi128_si32(_mm_srli_si128(sums, 8)));
  }
  // The last steps, at most four (the loop above ended within 64 bytes of `to` or of a
  // stop byte), counted per lane too: a popcount per step is a libgcc call on CPUs
  // without POPCNT.
  __m128i counts = zero;
  auto sum = [&] {
    __m128i sums = _mm_sad_epu8(counts, zero);
    return static_cast<std::size_t>(_mm_cvtsi128_si32(sums)) +
           static_cast<std::size_t>(_mm_cvtsi128_si32(_mm_srli_si128(sums, 8)));
  };
  for (; from + 16 <= to; from += 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + from));
    __m128i is_newline = _mm_cmpeq_epi8(v, nl);
    if constexpr (sizeof...(Stops) > 0) {
      if (auto stops = static_cast<unsigned>(_mm_movemask_epi8(stops_in(v)))) {
        unsigned before = static_cast<unsigned>(__builtin_ctz(stops));
        auto lines = static_cast<unsigned>(_mm_movemask_epi8(is_newline));
        newlines += sum() + static_cast<std::size_t>(__builtin_popcount(lines & ((1u << before) - 1)));
        return from + before;
      }
    }
    counts = _mm_sub_epi8(counts, is_newline);
  }
  if constexpr (sizeof...(Stops) == 0) {
    // A count's last bytes (extraction counts the lines between each two non-rules, a
    // few hundred bytes apart) in the sixteen that end the range, the lanes counted
    // above masked off, rather than byte by byte.
    if (from < to && to - begin >= 16) {
      alignas(16) static constexpr unsigned char kLast[32] = {
          0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
          0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
      __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(base + to - 16));
      __m128i last = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kLast + (to - from)));
      counts = _mm_sub_epi8(counts, _mm_and_si128(_mm_cmpeq_epi8(v, nl), last));
      from = to;
    }
  }
  newlines += sum();
#endif
  for (; from < to && ((base[from] != Stops) && ...); ++from) newlines += base[from] == '\n';
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

/// Offset of the first `needle` in `text`, or npos. A place is compared only where both
/// the needle's first and last byte are, 64 places a step: std::string::find stops at
/// every first byte, and a page being checked for a tag ('<…') has one every few dozen.
inline std::size_t find_text(std::string_view text, std::string_view needle) {
  const std::size_t n = needle.size();
  if (n == 0) return 0;
  if (n > text.size()) return std::string_view::npos;
  const char* p = text.data();
  const std::size_t places = text.size() - n + 1;  // starts [0, places) leave room for the needle
  std::size_t i = 0;
  auto matches = [&](std::size_t at) { return std::memcmp(p + at, needle.data(), n) == 0; };
#ifdef __SSE2__
  const __m128i first = _mm_set1_epi8(needle.front()), last = _mm_set1_epi8(needle.back());
  auto candidates = [&](std::size_t at) {
    __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
    __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at + n - 1));
    return _mm_and_si128(_mm_cmpeq_epi8(a, first), _mm_cmpeq_epi8(b, last));
  };
  auto try_places = [&](std::size_t at, unsigned mask) {
    for (; mask != 0; mask &= mask - 1)
      if (std::size_t place = at + static_cast<std::size_t>(__builtin_ctz(mask)); matches(place)) return place;
    return std::string_view::npos;
  };
  for (; i + 64 <= places; i += 64) {
    __m128i a = candidates(i), b = candidates(i + 16), c = candidates(i + 32), d = candidates(i + 48);
    if (_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d))) == 0) continue;
    auto low = static_cast<unsigned>(_mm_movemask_epi8(a)) | static_cast<unsigned>(_mm_movemask_epi8(b)) << 16;
    auto high = static_cast<unsigned>(_mm_movemask_epi8(c)) | static_cast<unsigned>(_mm_movemask_epi8(d)) << 16;
    if (std::size_t at = try_places(i, low); at != std::string_view::npos) return at;
    if (std::size_t at = try_places(i + 32, high); at != std::string_view::npos) return at;
  }
  for (; i + 16 <= places; i += 16)
    if (std::size_t at = try_places(i, static_cast<unsigned>(_mm_movemask_epi8(candidates(i))));
        at != std::string_view::npos)
      return at;
#endif
  for (; i < places; ++i)
    if (p[i] == needle.front() && matches(i)) return i;
  return std::string_view::npos;
}

}  // namespace wikic::support
