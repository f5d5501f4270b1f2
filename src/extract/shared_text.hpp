// SharedText: an immutable string that the records repeating it hold once. Every rule of
// a block carries its section, phase, round, step and block names, its page and file, and
// a condition that a table's rows share: as separate strings those were most of a page's
// allocations in extraction, each read cold again by the printers.
#pragma once
#include <compare>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

namespace wikic::extract {

class SharedText {
public:
  SharedText() = default;
  // Implicit, so that a record's field takes a string as it did when it was one.
  SharedText(std::string s) : p_(s.empty() ? nullptr : std::make_shared<const std::string>(std::move(s))) {}
  SharedText(std::string_view s) : SharedText(std::string(s)) {}
  SharedText(const char* s) : SharedText(std::string(s)) {}

  const std::string& str() const { return p_ ? *p_ : empty_string(); }
  operator const std::string&() const { return str(); }
  operator std::string_view() const { return str(); }
  const char* c_str() const { return str().c_str(); }
  const char* data() const { return str().data(); }
  std::size_t size() const { return p_ ? p_->size() : 0; }
  bool empty() const { return !p_ || p_->empty(); }
  std::string::const_iterator begin() const { return str().begin(); }
  std::string::const_iterator end() const { return str().end(); }
  char operator[](std::size_t i) const { return (*p_)[i]; }
  /// Whether both hold the same string object (then they are equal without a look).
  bool same(const SharedText& o) const { return p_ == o.p_; }

  friend bool operator==(const SharedText& a, const SharedText& b) { return a.p_ == b.p_ || a.str() == b.str(); }
  friend bool operator==(const SharedText& a, std::string_view b) { return std::string_view(a.str()) == b; }
  friend bool operator==(const SharedText& a, const char* b) { return std::string_view(a.str()) == b; }
  friend bool operator==(const SharedText& a, const std::string& b) { return a.str() == b; }
  friend std::strong_ordering operator<=>(const SharedText& a, const SharedText& b) {
    return a.str().compare(b.str()) <=> 0;
  }
  friend std::ostream& operator<<(std::ostream& o, const SharedText& t) { return o << t.str(); }

private:
  static const std::string& empty_string() {
    static const std::string e;
    return e;
  }
  std::shared_ptr<const std::string> p_;
};

}  // namespace wikic::extract
