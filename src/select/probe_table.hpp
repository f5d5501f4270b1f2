// A bounded memo table for the selector stage's per-node lookups: open addressing with
// linear probing over a power-of-two slot array, entries kept in insertion order beside
// it. Every node of every page asks such a memo once, so a lookup must cost one hash, a
// mask and usually one slot; a chained std::unordered_map divides by a prime per step.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace wikic::select {

/// Whether `a` and `b` hold the same bytes, for a memo's key check on a hit. Keys of up
/// to 24 bytes (most class lists: the seed page's average 20) are compared without a
/// call, memcmp's call and dispatch cost more than such a compare: 8 to 24 bytes as
/// three overlapping 8-byte words, the first, middle and last; 4 to 7 as the first and
/// last 4 bytes (`showC1` and `showC2`, a third of the seed page's lists, are 6); 1 to
/// 3 as the first, middle and last byte.
inline bool same_bytes(std::string_view a, std::string_view b) {
  std::size_t n = a.size();
  if (n != b.size()) return false;
  if (n < 8) {
    if (n >= 4) {
      auto differ = [&](std::size_t at) {
        std::uint32_t x, y;
        std::memcpy(&x, a.data() + at, 4);
        std::memcpy(&y, b.data() + at, 4);
        return x ^ y;
      };
      return (differ(0) | differ(n - 4)) == 0;
    }
    // An empty view may have a null pointer, which must not be read.
    return n == 0 || (a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1]);
  }
  if (n > 24) return std::memcmp(a.data(), b.data(), n) == 0;
  auto differ = [&](std::size_t at) {
    std::uint64_t x, y;
    std::memcpy(&x, a.data() + at, 8);
    std::memcpy(&y, b.data() + at, 8);
    return x ^ y;
  };
  return (differ(0) | differ((n - 8) / 2) | differ(n - 8)) == 0;
}

template <class Entry>
class ProbeTable {
public:
  /// Holds at most `max_entries` entries: an insert beyond that empties the table first
  /// (a hostile page can hold millions of distinct keys; the pages WICA has hold hundreds).
  explicit ProbeTable(std::size_t max_entries) : max_entries_(max_entries) {}

  /// The entry with hash `hash` for which `same(entry)` holds, or nullptr.
  template <class Same>
  Entry* find(std::uint64_t hash, Same same) {
    if (slots_.empty()) return nullptr;
    auto tag = static_cast<std::uint32_t>(hash >> 32);
    for (std::size_t i = hash & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.index == 0) return nullptr;
      if (s.tag == tag && same(entries_[s.index - 1])) return &entries_[s.index - 1];
    }
  }

  /// Adds an entry whose key find() did not have. References to entries stay valid
  /// until the next insert.
  Entry& insert(std::uint64_t hash, Entry entry) {
    if (entries_.size() >= max_entries_) clear();
    if (2 * (entries_.size() + 1) > slots_.size()) grow();
    entries_.push_back(std::move(entry));
    place(hash, static_cast<std::uint32_t>(entries_.size()));
    hashes_.push_back(hash);
    return entries_.back();
  }

  /// Room for `n` entries without growing: a table filled anew for each page, whose
  /// caller can tell its size ahead, otherwise rehashes and moves its entries as it grows.
  void reserve(std::size_t n) {
    if (2 * n <= slots_.size()) return;
    entries_.reserve(n);
    hashes_.reserve(n);
    std::size_t size = slots_.empty() ? 256 : slots_.size();
    while (size < 2 * n) size *= 2;
    rehash(size);
  }

  void clear() {
    entries_.clear();
    hashes_.clear();
    slots_.assign(slots_.size(), Slot{});
  }
  std::size_t size() const { return entries_.size(); }

private:
  struct Slot {
    std::uint32_t index = 0;  ///< 1 + position in entries_; 0: empty
    std::uint32_t tag = 0;    ///< the hash's upper half, to skip most foreign entries unread
  };
  std::vector<Slot> slots_;
  std::vector<Entry> entries_;
  std::vector<std::uint64_t> hashes_;  ///< per entry, to rehash without the key
  std::size_t mask_ = 0;
  std::size_t max_entries_;

  void place(std::uint64_t hash, std::uint32_t index) {
    std::size_t i = hash & mask_;
    while (slots_[i].index != 0) i = (i + 1) & mask_;
    slots_[i] = Slot{index, static_cast<std::uint32_t>(hash >> 32)};
  }
  void grow() { rehash(slots_.empty() ? 256 : 2 * slots_.size()); }
  /// `size` slots (a power of two) holding the entries there are.
  void rehash(std::size_t size) {
    slots_.assign(size, Slot{});
    mask_ = size - 1;
    for (std::size_t e = 0; e < hashes_.size(); ++e) place(hashes_[e], static_cast<std::uint32_t>(e + 1));
  }
};

/// Mixes a 64-bit value so that its low bits (the slot) and high bits (the tag) both
/// depend on every input bit (the finaliser of SplitMix64).
constexpr std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

}  // namespace wikic::select
