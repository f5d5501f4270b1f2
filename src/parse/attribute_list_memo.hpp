// The attribute lists a page's Builders of one depth have parsed, by their exact bytes:
// a rules page repeats a few dozen lists (`class="showC1"`, a cell's style) thousands
// of times, and a repeat is hashed, compared and copied instead of parsed again.
#pragma once

#include "parse/tree.hpp"

#include <cstdint>
#include <memory>
#include <string_view>

namespace wikic::parse {

class AttributeListMemo {
public:
  /// Starts the memo for a page: the lists of earlier pages are forgotten by a new
  /// generation, not by clearing the table.
  void start_page();
  /// The text the next lists are in: the page, or one of its semantic parameters. The
  /// lists of the page's other texts are kept (parameters repeat each other's cell
  /// styles), and stay readable as long as the page's Document.
  void use(std::string_view text) {
    text_ = text;
    pending_ = kNone;
  }

  /// When `text[b, e)` (the text in use()) was parsed before on this page, in this
  /// text or another, gives `n` (which has no attributes yet) that list's attributes,
  /// moved to `b`, and returns true. Otherwise keeps a place for remember().
  bool repeat(Document& doc, Node& n, std::uint32_t b, std::uint32_t e);

  /// `n` holds the attributes just parsed from the list repeat() last missed. Not called
  /// for a list that drew a warning: a repeat would not warn again, and its warning
  /// names the node it was on.
  void remember(const Node& n) {
    if (pending_ != kNone) store(n);
  }
  /// The list being parsed drew a warning (its repeats must be parsed again).
  void forget() { pending_ = kNone; }

private:
  struct Entry {
    std::uint32_t generation = 0;
    std::uint32_t begin = 0, length = 0;       ///< the list's first occurrence in its text
    std::uint32_t attr_begin = 0, attr_count = 0;  ///< its attributes in the Document
    const char* bytes = nullptr;               ///< that occurrence's bytes
  };
  static constexpr std::uint32_t kSlots = 1024;  // a page's distinct lists fit, with room
  static constexpr std::uint32_t kProbes = 4;
  static constexpr std::uint32_t kNone = ~0u;

  void store(const Node& n);
  // The lookup past the first slot, the miss and the growth.
  __attribute__((noinline)) bool probe(Document& doc, Node& n, std::uint32_t b, std::uint32_t e, std::uint32_t s);

  std::unique_ptr<Entry[]> slots_;
  std::uint32_t generation_ = 0;
  std::string_view text_;
  std::uint32_t pending_ = kNone;
  std::uint32_t pending_begin_ = 0, pending_length_ = 0;
  const char* pending_bytes_ = nullptr;
};

}  // namespace wikic::parse
