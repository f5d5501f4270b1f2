// SharedText: an immutable string that the records repeating it hold once. Every rule of
// a block carries its section, phase, round, step and block names, its page and file, and
// a condition that a table's rows share; every points entry copies the words of an
// expression found once per text; a repeated cell or note shares its first copy's. As separate
// strings those were most of a page's allocations in extraction, each read cold again
// by the printers.
#pragma once
#include <compare>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <ostream>
#include <string>
#include <string_view>

#include "select/probe_table.hpp"
#include "support/ref_count.hpp"

namespace wikic::extract {

class SharedText {
public:
  SharedText() = default;
  // Implicit, so that a record's field takes a string as it did when it was one.
  SharedText(std::string_view s) : rep_(s.empty() ? nullptr : make(s)) {}
  SharedText(const std::string& s) : SharedText(std::string_view(s)) {}
  SharedText(const char* s) : SharedText(std::string_view(s)) {}

  std::string_view view() const { return rep_ ? std::string_view(rep_->data(), rep_->size) : std::string_view(); }
  operator std::string_view() const { return view(); }
  std::string str() const { return std::string(view()); }
  /// A copy, so that a record's field still fills a string (l10n keeps its conditions
  /// as strings).
  operator std::string() const { return str(); }
  const char* data() const { return rep_ ? rep_->data() : ""; }
  const char* c_str() const { return data(); }
  std::size_t size() const { return rep_ ? rep_->size : 0; }
  bool empty() const { return !rep_; }
  const char* begin() const { return data(); }
  const char* end() const { return data() + size(); }
  // [0] of an empty text is its terminating 0, as std::string's.
  char operator[](std::size_t i) const { return rep_ ? rep_->data()[i] : '\0'; }
  // As std::string's, for readers of a record's texts.
  std::size_t find(std::string_view s, std::size_t at = 0) const { return view().find(s, at); }
  std::size_t find(char c, std::size_t at = 0) const { return view().find(c, at); }
  std::size_t rfind(std::string_view s, std::size_t at = std::string_view::npos) const { return view().rfind(s, at); }
  bool starts_with(std::string_view s) const { return view().starts_with(s); }
  bool ends_with(std::string_view s) const { return view().ends_with(s); }
  std::string_view substr(std::size_t at, std::size_t n = std::string_view::npos) const { return view().substr(at, n); }
  /// Whether both hold the same string object (then they are equal without a look).
  bool same(const SharedText& o) const { return rep_ == o.rep_; }

  friend bool operator==(const SharedText& a, const SharedText& b) { return a.rep_ == b.rep_ || a.view() == b.view(); }
  friend bool operator==(const SharedText& a, std::string_view b) { return a.view() == b; }
  friend bool operator==(const SharedText& a, const char* b) { return a.view() == std::string_view(b); }
  friend bool operator==(const SharedText& a, const std::string& b) { return a.view() == std::string_view(b); }
  friend std::strong_ordering operator<=>(const SharedText& a, const SharedText& b) { return a.view() <=> b.view(); }
  friend std::ostream& operator<<(std::ostream& o, const SharedText& t) { return o << t.view(); }

private:
  // The count and the bytes in one allocation (a shared_ptr to a std::string was two for
  // any text longer than the string's own buffer). Counted atomically unless the program
  // confined counts to one thread (support::RefCount): a record may be dropped on
  // another thread than the memo that still shares its text.
  struct Rep {
    support::RefCount refs;
    std::size_t size;
    /// The `size` bytes and a terminating 0, right after the header.
    char* data() { return reinterpret_cast<char*>(this + 1); }
    const char* data() const { return reinterpret_cast<const char*>(this + 1); }
    static void destroy(Rep* rep) noexcept {
      rep->~Rep();
      ::operator delete(rep);
    }
  };
  static Rep* make(std::string_view s) {
    void* memory = ::operator new(sizeof(Rep) + s.size() + 1);
    Rep* r = ::new (memory) Rep{support::RefCount(1), s.size()};
    std::memcpy(r->data(), s.data(), s.size());
    r->data()[s.size()] = 0;
    return r;
  }
  // Copies, moves and releases as every shared record object's (support::CountedRef).
  support::CountedRef<Rep> rep_;
};

/// A hash of a text for extraction's interning tables and memos, whose keys are mostly
/// rule texts of a few hundred bytes: sixteen bytes a step in two independent lanes
/// (std::hash's Murmur takes eight a step through one dependent chain), the lanes then
/// mixed by select::mix64 so that the low bits (a table's slot) and the high bits
/// (ProbeTable's tag) both depend on every byte. Every table compares the key itself
/// on a hash match.
///
/// The bytes after the last full step are read by loads of a fixed size that overlap
/// bytes read before (a copy of a variable size was a call, for most keys, which are
/// short): the last sixteen of the text, or for a text shorter than sixteen its first
/// and last eight, four or its first, middle and last byte. The length is in the hash,
/// so texts that those loads read alike differ in it.
inline std::uint64_t text_hash(std::string_view s) {
  constexpr std::uint64_t k1 = 0x9E3779B97F4A7C15ull, k2 = 0xC2B2AE3D27D4EB4Full;
  const char* p = s.data();
  const std::size_t size = s.size();
  std::size_t n = size;
  std::uint64_t a = k1 ^ n, b = k2;
  auto step = [&](std::uint64_t x, std::uint64_t y) {
    a = (a ^ x) * k2;
    b = (b ^ y) * k1;
    a ^= a >> 32;
    b ^= b >> 32;
  };
  auto load8 = [](const char* at) {
    std::uint64_t v;
    std::memcpy(&v, at, 8);
    return v;
  };
  auto load4 = [](const char* at) {
    std::uint32_t v;
    std::memcpy(&v, at, 4);
    return std::uint64_t{v};
  };
  for (; n >= 16; p += 16, n -= 16) step(load8(p), load8(p + 8));
  if (n > 0) {
    const char* end = s.data() + size;
    if (size >= 16) step(load8(end - 16), load8(end - 8));
    else if (n >= 8) step(load8(p), load8(end - 8));
    else if (n >= 4) step(load4(p) | load4(end - 4) << 32, 0);
    else
      step(std::uint64_t{static_cast<unsigned char>(p[0])} | std::uint64_t{static_cast<unsigned char>(p[n / 2])} << 8 |
               std::uint64_t{static_cast<unsigned char>(p[n - 1])} << 16,
           0);
  }
  return select::mix64(a ^ (b * 0xFF51AFD7ED558CCDull));
}

/// text_hash as a hasher for the standard containers.
struct TextHash {
  std::size_t operator()(std::string_view s) const { return text_hash(s); }
};

}  // namespace wikic::extract
