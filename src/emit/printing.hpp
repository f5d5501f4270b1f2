// What emit's direct printers share (rules_writer.cpp for the rule database,
// manifest.cpp for the pages of pages.yaml): an output buffer written through a raw
// pointer, field names prepared for each format at compile time, and the YAML string
// quoting of yaml-cpp 0.7. Private to src/emit.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "support/output.hpp"

namespace wikic::emit::printing {

// A page's text for one file, written through a raw pointer: each event first reserves
// room for the most it can write (every escape is at most six bytes per input byte, the
// indentation and punctuation fit in `slack`), so single characters and short keys
// cost a store rather than a std::string append each. The common events take the
// cursor (reserve_more), write through the functions below and hand it back (commit):
// the compiler must assume that every byte stored through the sink's own pointer could
// change that pointer, and reloaded and stored it around each character.
// The room is a buffer of the sink's own (text() then holds what was written), or,
// once attached to an OutputWindow, the output's own memory: the rule files' bytes are
// then written once, where the file's blocks are gathered.
class Sink {
public:
  static constexpr std::size_t slack = 160;

  /// From now on writes into `output`'s windows; release() hands the bytes over.
  void attach(support::OutputWindow& output) { output_ = &output; }
  void reserve(std::size_t n) {
    if (static_cast<std::size_t>(end_ - at_) < n) [[unlikely]] grow(n);
  }
  /// Room for `n` bytes and `slack` more of indentation and punctuation; the cursor.
  /// Unchecked (`check` false) where the caller reserved room for it before, inside a
  /// record: see record() in rules_writer.cpp.
  template <bool check = true>
  char* reserve_more(std::size_t n) {
    if constexpr (check) reserve(slack + n);
    return at_;
  }
  /// The cursor after writing through the one reserve_more returned.
  void commit(char* at) {
#ifdef _GLIBCXX_ASSERTIONS
    // Inside a record the events write unchecked, on a hand bound (record_room in
    // rules_writer.cpp): builds with assertions, the sanitizer tests among them, stop at
    // the first event that went past the room instead of writing on.
    if (at > end_) [[unlikely]] room_outgrown();
#endif
    at_ = at;
  }
  /// Where the next byte goes, without reserving: what was written since an earlier
  /// cursor lies between the two as long as no reservation in between outgrew the room.
  const char* cursor() const { return at_; }
  /// Counts the changes of room: while it stands, the bytes written before the cursor
  /// lie where they were written (only the events that end an object, list or record
  /// write over bytes before the cursor: the last member's).
  std::uint64_t rooms() const { return rooms_; }
  void put(char c) { *at_++ = c; }
  void put(std::string_view s) {
    std::memcpy(at_, s.data(), s.size());
    at_ += s.size();
  }
  void put(const char* begin, const char* end) { put(std::string_view(begin, end - begin)); }
  /// What was written since the last clear(), without an output attached.
  std::string_view text() const { return {begin_, static_cast<std::size_t>(at_ - begin_)}; }
  void clear() {
    at_ = begin_;
    ++rooms_;
  }
  /// Keeps what is written from here on in one piece until unmark(): room outgrown in
  /// between takes those bytes along to the new room. A record's printers write over
  /// its last bytes and copy runs of it, so it must not be split between two windows.
  void mark() { mark_ = at_; }
  void unmark() { mark_ = nullptr; }
  /// Hands what was written to the attached output (its window is spent).
  void release() {
    if (output_ && begin_) output_->advance(static_cast<std::size_t>(at_ - begin_));
    begin_ = at_ = end_ = nullptr;
  }

private:
  std::unique_ptr<char[]> buf_;
  support::OutputWindow* output_ = nullptr;
  char* begin_ = nullptr;
  char* at_ = nullptr;
  char* end_ = nullptr;
  char* mark_ = nullptr;
  std::uint64_t rooms_ = 0;
  std::string held_;  ///< the marked bytes while the room changes

  [[noreturn, gnu::cold]] static void room_outgrown() {
    std::fputs("wikic: internal error: an output event wrote past its reserved room\n", stderr);
    std::abort();
  }
  // Out of line and cold, so that reserve (a compare, at every record and every event
  // outside one) is inlined where it is called rather than called itself: the room
  // is short once per window.
  [[gnu::noinline, gnu::cold]] void grow(std::size_t n) {
    ++rooms_;
    if (output_) {
      // The marked bytes are set aside before the output lends the next window, which
      // may be the same memory, and are handed over with it.
      std::size_t kept = mark_ ? static_cast<std::size_t>(at_ - mark_) : 0;
      if (kept > 0) held_.assign(mark_, kept);
      if (mark_) at_ = mark_;
      release();
      std::span<char> room = output_->window(std::max<std::size_t>(n + kept, 65536));
      begin_ = room.data();
      end_ = room.data() + room.size();
      if (kept > 0) std::memcpy(begin_, held_.data(), kept);
      at_ = begin_ + kept;
      if (mark_) mark_ = begin_;
      return;
    }
    std::size_t used = at_ - begin_;
    std::size_t size = 2 * static_cast<std::size_t>(end_ - begin_);
    size = std::max(size, used + n + 65536);
    auto next = std::make_unique_for_overwrite<char[]>(size);
    if (used > 0) std::memcpy(next.get(), begin_, used);
    if (mark_) mark_ = next.get() + (mark_ - begin_);
    buf_ = std::move(next);
    begin_ = buf_.get();
    at_ = begin_ + used;
    end_ = begin_ + size;
  }
};

// Writing at a cursor: each returns the cursor after what it wrote.
inline char* put(char* at, char c) {
  *at = c;
  return at + 1;
}
inline char* put(char* at, std::string_view s) {
  std::memcpy(at, s.data(), s.size());
  return at + s.size();
}
/// Copies `N` bytes from `src` (all readable) and keeps the first `n` of them: a copy
/// of a size known at compile time is a few stores, one of a run-time size a call to
/// memcpy, and the names and indentation written around every field are short.
/// The `N` bytes must fit in what was reserved.
template <std::size_t N>
char* put_padded(char* at, const char* src, std::size_t n) {
  std::memcpy(at, src, N);
  return at + n;
}
/// put_padded of the narrowest of 8, 16 and 32 bytes that holds `n` (`src` readable for
/// 32): one load and store up to 16 bytes, two beyond. Where `n` is known at compile
/// time (a layout key's form, a one-digit number) only that copy is left; most names
/// and numbers fit in 16 bytes. Where it is not, the branches cost what the narrower
/// copy saves: use put_padded there.
inline char* put_short(char* at, const char* src, std::size_t n) {
  if (n <= 8) return put_padded<8>(at, src, n);
  if (n <= 16) return put_padded<16>(at, src, n);
  return put_padded<32>(at, src, n);
}
/// put_padded<W>, or with `W` 0 put_short: for a writer whose copy width is a template
/// parameter, 0 where the text's length is known where it is written.
template <std::size_t W>
char* put_width(char* at, const char* src, std::size_t n) {
  if constexpr (W == 0) return put_short(at, src, n);
  else return put_padded<W>(at, src, n);
}

// A field or element name of a layout with what each format writes for it, prepared at
// compile time and padded to `room` bytes, so that writing it is one fixed-size copy.
// Written `"name"_key`; a name too long for `room` does not compile.
struct Key {
  static constexpr std::size_t room = 32;
  struct Form {
    char text[room] = {};
    std::size_t size = 0;
    consteval void add(std::string_view s) {
      for (char c : s) {
        if (size == room) throw "a key's form is longer than Key::room";
        text[size++] = c;
      }
    }
  };
  Form json;       ///< "name": (with the space)
  Form json_inline;  ///< "name": (without it: inside a record written on one line)
  // The same before a string value, with its opening quote: a string field's name and
  // punctuation are one copy.
  Form json_text;         ///< "name": "
  Form json_inline_text;  ///< "name":"
  Form yaml;       ///< name
  Form yaml_text;  ///< name: "
  Form xml_open;   ///< <name>
  Form xml_close;  ///< </name> and a line break (left off inside a record on one line)
  /// 16 when every form fits in 16 bytes (most names), else `room`: how wide the copies
  /// are where the key is only known at run time (a string field's, see text_event).
  std::size_t width = room;

  consteval explicit Key(std::string_view name) {
    json.add("\"");
    json.add(name);
    json.add("\": ");
    json_inline.add("\"");
    json_inline.add(name);
    json_inline.add("\":");
    json_text.add("\"");
    json_text.add(name);
    json_text.add("\": \"");
    json_inline_text.add("\"");
    json_inline_text.add(name);
    json_inline_text.add("\":\"");
    yaml.add(name);
    yaml_text.add(name);
    yaml_text.add(": \"");
    xml_open.add("<");
    xml_open.add(name);
    xml_open.add(">");
    xml_close.add("</");
    xml_close.add(name);
    xml_close.add(">\n");
    std::size_t longest = 0;
    for (const Form* f : {&json, &json_inline, &json_text, &json_inline_text, &yaml, &yaml_text, &xml_open, &xml_close})
      longest = std::max(longest, f->size);
    width = longest <= 16 ? 16 : room;
  }
};

template <std::size_t N>
struct KeyName {
  char text[N];
  consteval KeyName(const char (&s)[N]) { std::copy_n(s, N, text); }  // NOLINT: implicit on purpose
};

template <KeyName Name>
inline constexpr Key key_of{std::string_view(Name.text, sizeof Name.text - 1)};

template <KeyName Name>
constexpr const Key& operator""_key() {
  return key_of<Name>;
}

/// `s` at the cursor. Most texts of a page are short (three quarters below 32 bytes):
/// those are copied without a call, as two fixed-size copies that overlap in the middle.
inline char* put_text(char* at, std::string_view s) {
  const char* p = s.data();
  std::size_t n = s.size();
  if (n > 32) return put(at, s);
  if (n >= 16) {
    std::memcpy(at, p, 16);
    std::memcpy(at + n - 16, p + n - 16, 16);
  } else if (n >= 8) {
    std::memcpy(at, p, 8);
    std::memcpy(at + n - 8, p + n - 8, 8);
  } else if (n >= 4) {
    std::memcpy(at, p, 4);
    std::memcpy(at + n - 4, p + n - 4, 4);
  } else if (n > 0) {
    at[0] = p[0];
    at[n / 2] = p[n / 2];
    at[n - 1] = p[n - 1];
  }
  return at + n;
}

/// A form of a key known where it is written (the layout's literal keys): put_short's
/// copy, narrowed at compile time.
inline char* put(char* at, const Key::Form& form) { return put_short(at, form.text, form.size); }
/// A form of a key known only at run time, as `W` bytes (Key::width, or Key::room).
template <std::size_t W>
char* put_form(char* at, const Key::Form& form) {
  static_assert(W > 0 && W <= Key::room);
  return put_width<W>(at, form.text, form.size);
}

// ",\n" and spaces: every line break of the printers, with or without a comma before it,
// and its indentation is one fixed-size copy out of this: 32 bytes, two vector stores
// (every field starts on a line of its own in rules.yaml). The layouts nest 14 deep at
// most, two columns a level.
struct Breaks {
  static constexpr std::size_t most = 30;  ///< columns of indentation
  char text[2 + most + 2] = {};
  consteval Breaks() {
    text[0] = ',';
    text[1] = '\n';
    for (std::size_t i = 2; i < sizeof text; ++i) text[i] = ' ';
  }
};
inline constexpr Breaks breaks{};

/// A line break, after a comma if `comma`, and `indent` spaces (up to Breaks::most).
inline char* line_break(char* at, bool comma, std::size_t indent) {
  return put_padded<Breaks::most + 2>(at, breaks.text + !comma, 1 + comma + indent);
}
/// `indent` spaces (up to Breaks::most).
inline char* spaces(char* at, std::size_t indent) { return put_padded<Breaks::most + 2>(at, breaks.text + 2, indent); }

/// A string no format changes, in the double quotes JSON and YAML both put around it.
inline char* quoted_as_is(char* at, std::string_view s) {
  at = put(at, '"');
  at = put_text(at, s);
  return put(at, '"');
}

/// yaml-cpp 0.7's Utils::WriteDoubleQuotedString with non-ASCII kept, as its Emitter
/// writes a YAML::DoubleQuoted string. Reserves for itself.
void yaml_string(Sink& out, std::string_view s);

}  // namespace wikic::emit::printing
