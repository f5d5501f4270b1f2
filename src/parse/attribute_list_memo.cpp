// AttributeListMemo: a generation-stamped open-addressing table from a list's bytes to
// the attributes its first occurrence gave. Out of the parser's unit, so that the
// parser's inlining (at GCC's unit-growth limit) stays as it was.
#include "parse/attribute_list_memo.hpp"

#include <bit>
#include <cstring>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace wikic::parse {

namespace {

std::uint64_t load64(const char* p) {
  std::uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}

std::uint32_t load32(const char* p) {
  std::uint32_t w;
  std::memcpy(&w, p, 4);
  return w;
}

// The length and the first and last eight bytes: what tells a page's lists apart (a
// class name's last letters, a style's first property) at a fixed cost. Lists that agree
// there and differ in the middle share a slot run and are told apart by same_bytes.
// Loads stay inside [p, p + n), since the text may end right after the list.
__attribute__((always_inline)) inline std::uint64_t hash_bytes(const char* p, std::uint32_t n) {
  constexpr std::uint64_t kMul = 0x9E3779B97F4A7C15ull;
  std::uint64_t first, last;
  if (n >= 8) {
    first = load64(p);
    last = load64(p + n - 8);
  } else if (n >= 4) {
    first = load32(p);
    last = load32(p + n - 4);
  } else {
    first = n > 0 ? static_cast<unsigned char>(p[0]) : 0;
    last = n > 0 ? static_cast<unsigned char>(p[n - 1]) << 8 | static_cast<unsigned char>(p[n / 2]) : 0;
  }
  return ((first ^ n) * kMul ^ last) * kMul;
}

// Sixteen bytes a compare (the last block overlapping the one before): memcmp's call
// cost as much as the compare of a typical list (`class="showC1"`, 14 bytes).
__attribute__((always_inline)) inline bool same_bytes(const char* a, const char* b, std::uint32_t n) {
#ifdef __SSE2__
  if (n >= 16) {
    auto same16 = [](const char* x, const char* y) {
      const __m128i vx = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x));
      const __m128i vy = _mm_loadu_si128(reinterpret_cast<const __m128i*>(y));
      return _mm_movemask_epi8(_mm_cmpeq_epi8(vx, vy)) == 0xFFFF;
    };
    for (std::uint32_t i = 0; i + 16 < n; i += 16)
      if (!same16(a + i, b + i)) return false;
    return same16(a + n - 16, b + n - 16);
  }
#endif
  if (n >= 8) return load64(a) == load64(b) && load64(a + n - 8) == load64(b + n - 8);
  if (n >= 4) return load32(a) == load32(b) && load32(a + n - 4) == load32(b + n - 4);
  for (std::uint32_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return false;
  return true;
}

}  // namespace

void AttributeListMemo::start_page() {
  pending_ = kNone;
  if (!slots_) slots_ = std::make_unique<Entry[]>(kSlots);
  if (++generation_ == 0) {
    // After 2^32 texts the stamps repeat: an old entry could pass for a new one.
    for (std::uint32_t s = 0; s < kSlots; ++s) slots_[s].generation = 0;
    generation_ = 1;
  }
}

// Flattened: with a second copy loop in probe(), GCC called push_back out of line.
__attribute__((flatten)) bool AttributeListMemo::repeat(Document& doc, Node& n, std::uint32_t b, std::uint32_t e) {
  // pending_ matters only after a miss (remember() and forget() follow a parse), so it
  // is set on the paths that return false, not on every call.
  // A node that already has attributes would need the duplicate check across lists.
  if (n.attr_count != 0) {
    pending_ = kNone;
    return false;
  }
  const std::uint32_t length = e - b;
  const char* list = text_.data() + b;
  // The slot from the hash's top bits, the only ones every byte reaches: a product
  // carries a change only upward, and lists that differ in the high bytes of their last
  // eight (`class="showC1"`, `class="showC2"`) agreed in the low bits and in those a
  // fold of the high half brought down, and queued in a few slot runs.
  const auto s = static_cast<std::uint32_t>(hash_bytes(list, length) >> (64 - std::countr_zero(kSlots)));
  // Nine repeats in ten are found in their first slot with room for their copies: that
  // path alone, without the probe loop, the miss and the growth, is a leaf that saves
  // four registers and keeps no frame, where the loop around a growth call saved six.
  const Entry& entry = slots_[s];
  if (entry.generation == generation_ && entry.length == length && same_bytes(entry.bytes, list, length)) [[likely]] {
    if (entry.attr_count == 0) return true;
    if (doc.has_room_for_attributes(entry.attr_count)) [[likely]] {
      n.attr_begin = doc.repeat_attributes(entry.attr_begin, entry.attr_count, entry.begin, entry.bytes, b, list);
      n.attr_count = entry.attr_count;
      return true;
    }
  }
  return probe(doc, n, b, e, s);
}

bool AttributeListMemo::probe(Document& doc, Node& n, std::uint32_t b, std::uint32_t e, std::uint32_t s) {
  const std::uint32_t length = e - b;
  const char* list = text_.data() + b;
  for (std::uint32_t probe = 0; probe < kProbes; ++probe, s = (s + 1) & (kSlots - 1)) {
    Entry& entry = slots_[s];
    if (entry.generation != generation_) {
      pending_ = s;
      pending_begin_ = b;
      pending_length_ = length;
      pending_bytes_ = list;
      return false;
    }
    if (entry.length != length || !same_bytes(entry.bytes, list, length)) continue;
    if (entry.attr_count != 0) {
      // Grown before copying: the copies come from the same array.
      doc.grow_attributes_for(entry.attr_count);
      n.attr_begin = doc.repeat_attributes(entry.attr_begin, entry.attr_count, entry.begin, entry.bytes, b, list);
      n.attr_count = entry.attr_count;
    }
    return true;
  }
  pending_ = kNone;
  return false;  // a full run of probes: this list is parsed each time
}

void AttributeListMemo::store(const Node& n) {
  Entry& entry = slots_[pending_];
  entry.generation = generation_;
  entry.begin = pending_begin_;
  entry.length = pending_length_;
  entry.bytes = pending_bytes_;
  entry.attr_begin = n.attr_begin;
  entry.attr_count = n.attr_count;
  pending_ = kNone;
}

}  // namespace wikic::parse
