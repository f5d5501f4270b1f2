// SharedList: an immutable list of strings that the records repeating it hold once. A
// rule's atoms are those of its path condition, which a table's rows share, and its
// triggers one of a few combinations of icons; as a vector each, they were two of the
// few allocations left per rule, and as many frees when the page's rules were dropped.
#pragma once
#include <initializer_list>
#include <string>
#include <vector>

#include "support/ref_count.hpp"

namespace wikic::extract {

class SharedList {
public:
  using value_type = std::string;
  using const_iterator = std::vector<std::string>::const_iterator;
  using iterator = const_iterator;
  using size_type = std::size_t;

  SharedList() = default;
  // Implicit, so that a record's field takes a list as it did when it was a vector.
  SharedList(std::vector<std::string> items)
      : rep_(items.empty() ? Rep() : Rep::make(std::move(items))) {}
  SharedList(std::initializer_list<std::string> items) : SharedList(std::vector<std::string>(items)) {}
  template <class It>
  SharedList(It first, It last) : SharedList(std::vector<std::string>(first, last)) {}

  const std::vector<std::string>& items() const { return rep_ ? *rep_ : none(); }
  /// For readers that take a vector (l10n's joins, emit's lists).
  operator const std::vector<std::string>&() const { return items(); }
  const_iterator begin() const { return items().begin(); }
  const_iterator end() const { return items().end(); }
  std::size_t size() const { return rep_ ? rep_->size() : 0; }
  bool empty() const { return !rep_; }
  const std::string& operator[](std::size_t i) const { return (*rep_)[i]; }
  const std::string& front() const { return rep_->front(); }
  const std::string& back() const { return rep_->back(); }
  /// Whether both hold the same list object.
  bool same(const SharedList& o) const { return rep_ == o.rep_; }

  friend bool operator==(const SharedList& a, const SharedList& b) { return a.rep_ == b.rep_ || a.items() == b.items(); }
  friend bool operator==(const SharedList& a, const std::vector<std::string>& b) { return a.items() == b; }

private:
  static const std::vector<std::string>& none() {
    static const std::vector<std::string> empty;
    return empty;
  }
  using Rep = support::SharedConst<std::vector<std::string>>;
  Rep rep_;
};

}  // namespace wikic::extract
