// Streaming Special:Export reader: finds page boundaries by scanning for <page> and
// </page> (inside text they are always escaped as &lt;), parses each page with pugixml,
// and keeps its own line/column tracking because pugixml reports byte offsets only.
#include "ingest/export_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <pugixml.hpp>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "ingest/languages.hpp"
#include "support/scan.hpp"
#include "support/sha1.hpp"
#include "support/utf8.hpp"

namespace wikic::ingest {

namespace {
/// How far into the input the <mediawiki> element must start.
constexpr std::size_t header_limit = 1 << 20;
constexpr std::string_view known_versions[] = {"0.10", "0.11"};

bool is_tag_end(char c) {
  return c == '>' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '/';
}

/// Value of attribute `name` in a start tag's text, or nullopt.
std::optional<std::string> attribute(std::string_view tag, std::string_view name) {
  for (std::size_t i = tag.find(name); i != std::string_view::npos; i = tag.find(name, i + 1)) {
    if (i == 0 || !(tag[i - 1] == ' ' || tag[i - 1] == '\t' || tag[i - 1] == '\n' || tag[i - 1] == '\r'))
      continue;
    std::size_t j = i + name.size();
    while (j < tag.size() && (tag[j] == ' ' || tag[j] == '\t' || tag[j] == '\n')) ++j;
    if (j >= tag.size() || tag[j] != '=') continue;
    ++j;
    while (j < tag.size() && (tag[j] == ' ' || tag[j] == '\t' || tag[j] == '\n')) ++j;
    if (j >= tag.size() || (tag[j] != '"' && tag[j] != '\'')) continue;
    char q = tag[j];
    std::size_t end = tag.find(q, j + 1);
    if (end == std::string_view::npos) return std::nullopt;
    return std::string(tag.substr(j + 1, end - j - 1));
  }
  return std::nullopt;
}

bool is_xml_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The page text is almost all of a page's bytes. Where it is plain character data (no
// markup, no numeric character references, no NUL) it is decoded here in one pass, and
// pugixml reads only the small rest of the page; everything else goes to pugixml whole.

/// Where the one <text> element's content lies in a page chunk.
struct PlainText {
  std::size_t tag = 0;      ///< the '<' of <text
  std::size_t begin = 0;    ///< first content byte (after the start tag's '>')
  std::size_t end = 0;      ///< the '<' of </text>
};

/// `lt`: the offset of every '<' in `chunk`, ascending (the reader notes them while it
/// looks for the page's end, so the text is not searched again).
std::optional<PlainText> find_plain_text(std::string_view chunk, const std::vector<std::size_t>& lt) {
  PlainText t;
  bool found = false;
  for (std::size_t i : lt) {
    if (chunk.compare(i, 5, "<text") != 0 || i + 5 >= chunk.size() || !is_tag_end(chunk[i + 5])) continue;
    if (found) return std::nullopt;  // several revisions with text: pugixml decides
    found = true;
    t.tag = i;
  }
  if (!found) return std::nullopt;
  // The start tag ends at the first '>' outside quoted attribute values.
  char quote = 0;
  std::size_t j = t.tag + 5;
  for (; j < chunk.size(); ++j) {
    char c = chunk[j];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '>' || c == '<') {
      break;
    }
  }
  if (j >= chunk.size() || chunk[j] != '>' || chunk[j - 1] == '/') return std::nullopt;
  t.begin = j + 1;
  auto next = std::lower_bound(lt.begin(), lt.end(), t.begin);
  if (next == lt.end()) return std::nullopt;
  t.end = *next;
  if (chunk.compare(t.end, 6, "</text") != 0) return std::nullopt;
  std::size_t k = t.end + 6;
  while (k < chunk.size() && is_xml_space(chunk[k])) ++k;
  if (k >= chunk.size() || chunk[k] != '>') return std::nullopt;
  return t;
}

enum class Decoded { text, for_pugixml, invalid_utf8 };

/// Decodes character data as pugixml's parse_default does: the five predefined
/// entities, CR LF and a lone CR as LF, any other '&' literal, and checks it for UTF-8 on
/// the way. `for_pugixml` (pugixml takes the page) on a numeric reference "&#" or a NUL
/// byte; `invalid_utf8` (the page is read again the way such a page is) on a byte that
/// is no UTF-8. The result is the first `length` bytes of `out`, a scratch buffer kept
/// between pages. `notes`: what the decoder sees on the way that another pass over the
/// text would have to search for.
struct DecodeNotes {
  std::size_t lone_crs = 0;  ///< CRs without an LF, each a newline of its own (the reader knows the LFs)
  bool translate = false;    ///< a "<translate" (every '<' of a plain text is an "&lt;" decoded here)
};
Decoded decode_plain_text(std::string_view in, std::string& out, std::size_t& length, DecodeNotes& notes) {
  // Escapes are dense in wikitext (every tag is &lt;…&gt;, every attribute &quot;…&quot;:
  // one '&' per dozen bytes on the seed page), so the cost is per escape, not per byte:
  // each is recognised by compares of its first four bytes (and its last two) with
  // constants, and the bytes up to the next one are copied sixteen at a time, into a
  // buffer sized for the worst case (decoding never lengthens the text). Bytes from
  // 0x80 up stop the copy too: the page's bytes must be checked for UTF-8, and a run of
  // them checked here, where the block's high bits come for free, spares a pass of its
  // own over the text.
  // (Validity is a property of each run of such bytes alone: a sequence is made of them
  // only, and ASCII bytes are valid.)
  const char* p = in.data();
  const std::size_t n = in.size();
  if (out.size() < n) out.resize(n);  // a scratch buffer: only growth is zero-filled
  char* w = out.data();
  std::size_t i = 0;
  notes = {};
  // Whether the "&lt;" at q starts "&lt;translate", with the bytes it needs in the text.
  auto translate_at = [&](const char* q) {
    constexpr std::string_view tag = "&lt;translate";
    return static_cast<std::size_t>(p + n - q) >= tag.size() && std::memcmp(q, tag.data(), tag.size()) == 0;
  };
  auto check_run = [&](std::size_t& k) {
    std::size_t end = k;
    while (end < n && static_cast<unsigned char>(p[end]) >= 0x80) ++end;
    if (support::find_invalid_utf8(in.substr(k, end - k)) != std::string_view::npos) return false;
    for (; k < end; ++k) *w++ = p[k];
    return true;
  };
  // The escapes as little-endian words: the first four bytes tell the five apart, and
  // a compare of a word with a constant takes its load along, where a masked compare
  // needs the load, the mask and the compare.
  auto word4 = [](const char* text) {
    std::uint32_t value;
    std::memcpy(&value, text, 4);
    return value;
  };
  auto word2 = [](const char* text) {
    std::uint16_t value;
    std::memcpy(&value, text, 2);
    return value;
  };
  const std::uint32_t lt = word4("&lt;"), gt = word4("&gt;"), amp_head = word4("&amp"),
                      quot_head = word4("&quo"), apos_head = word4("&apo");
  const std::uint16_t quot_tail = word2("t;"), apos_tail = word2("s;");
  // "&lt;tran", eight bytes an "&lt;" found in a block always has behind it: one compare
  // per tag start (a few thousand a page) rules out "<translate" for nearly all.
  std::uint64_t lt_tran;
  std::memcpy(&lt_tran, "&lt;tran", 8);
  for (;;) {
#ifdef __SSE2__
    // Sixteen bytes are stored before they are checked: the write position never runs
    // ahead of the read position, so the store stays inside the buffer. Blocks are taken
    // while 24 bytes are left, so an escape found in one has its six bytes to look at.
    // CR and NUL are one compare: a byte ORed with 0x0D is 0x0D only for them and for
    // the control bytes 0x01, 0x04, 0x05, 0x08, 0x09 (tab) and 0x0C, which are rare in
    // a page and copied one by one below ('\n' is not among them). Any other ASCII byte
    // ORed with 0x0D is above it and the bytes from 0x80 up stay negative, so one signed
    // saturating subtraction of 0x0E leaves the sign bit set exactly on these stops and
    // the non-ASCII ones, without a compare of its own for each.
    const __m128i amp_v = _mm_set1_epi8('&'), cr_v = _mm_set1_epi8('\r'), above_cr_v = _mm_set1_epi8(0x0E);
    {
      // Pointers rather than offsets from here to the next stop: one register each for
      // the read and write positions and no address sums, in a loop that runs once per
      // escape.
      const char* r = p + i;
      // The last place a block may start, as a number: zero, below any pointer, when
      // the text is too short for one.
      const std::uintptr_t last_block = n >= 24 ? reinterpret_cast<std::uintptr_t>(p + n - 24) : 0;
      for (;;) {
        for (;;) {
          if (reinterpret_cast<std::uintptr_t>(r) > last_block) {
            i = static_cast<std::size_t>(r - p);
            goto tail;
          }
          __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(r));
          _mm_storeu_si128(reinterpret_cast<__m128i*>(w), v);
          __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(v, amp_v), _mm_subs_epi8(_mm_or_si128(v, cr_v), above_cr_v));
          if (int mask = _mm_movemask_epi8(hit)) {
            auto skip = static_cast<std::size_t>(__builtin_ctz(mask));
            r += skip;
            w += skip;
            break;
          }
          r += 16;
          w += 16;
        }
        // The escapes are compared before the byte is known to be '&': each word holds
        // the '&', so any other stop fails them all, and the common case (an escape)
        // spares the test.
        std::uint32_t head = word4(r);
        if (head == quot_head && word2(r + 4) == quot_tail) { *w++ = '"'; r += 6; }
        else if (head == lt) {
          std::uint64_t eight;
          std::memcpy(&eight, r, 8);
          if (eight == lt_tran && translate_at(r)) [[unlikely]] notes.translate = true;
          *w++ = '<';
          r += 4;
        }
        else if (head == gt) { *w++ = '>'; r += 4; }
        else if (head == amp_head && r[4] == ';') { *w++ = '&'; r += 5; }
        else if (head == apos_head && word2(r + 4) == apos_tail) { *w++ = '\''; r += 6; }
        else if (*r != '&') break;
        else if (r[1] == '#') return Decoded::for_pugixml;
        else { *w++ = '&'; r += 1; }
      }
      i = static_cast<std::size_t>(r - p);
    }
    if (static_cast<unsigned char>(p[i]) >= 0x80) {
      if (!check_run(i)) return Decoded::invalid_utf8;
      continue;
    }
    if (p[i] != '\r' && p[i] != '\0') {  // a tab or another control byte: text
      *w++ = p[i++];
      continue;
    }
  tail:
#endif
    while (i < n && p[i] != '&' && p[i] != '\r' && p[i] != '\0' && static_cast<unsigned char>(p[i]) < 0x80)
      *w++ = p[i++];
    if (i >= n) break;
    auto at = [&](std::size_t k, char c) { return i + k < n && p[i + k] == c; };
    char c = p[i];
    if (static_cast<unsigned char>(c) >= 0x80) {
      if (!check_run(i)) return Decoded::invalid_utf8;
      continue;
    }
    if (c == '\0') return Decoded::for_pugixml;
    if (c == '\r') {
      *w++ = '\n';
      if (at(1, '\n')) {
        i += 2;
      } else {
        ++notes.lone_crs;
        i += 1;
      }
    } else if (at(1, '#')) {
      return Decoded::for_pugixml;
    } else if (at(1, 'l') && at(2, 't') && at(3, ';')) {
      if (translate_at(p + i)) notes.translate = true;
      *w++ = '<';
      i += 4;
    } else if (at(1, 'g') && at(2, 't') && at(3, ';')) {
      *w++ = '>';
      i += 4;
    } else if (at(1, 'a') && at(2, 'm') && at(3, 'p') && at(4, ';')) {
      *w++ = '&';
      i += 5;
    } else if (at(1, 'q') && at(2, 'u') && at(3, 'o') && at(4, 't') && at(5, ';')) {
      *w++ = '"';
      i += 6;
    } else if (at(1, 'a') && at(2, 'p') && at(3, 'o') && at(4, 's') && at(5, ';')) {
      *w++ = '\'';
      i += 6;
    } else {
      *w++ = '&';
      i += 1;
    }
  }
  length = static_cast<std::size_t>(w - out.data());
  return Decoded::text;
}

std::uint64_t to_u64(const char* s) {
  char* end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(s, &end, 10);
  return (errno != 0 || end == s) ? 0 : v;
}
}  // namespace

PageIndex::File& PageIndex::file(const struct stat& st) {
  auto same = [&](const File& f) { return f.device == st.st_dev && f.inode == st.st_ino; };
  auto it = std::find_if(files_.begin(), files_.end(), [&](const auto& f) { return same(*f); });
  if (it == files_.end()) {
    files_.push_back(std::make_unique<File>());
    it = files_.end() - 1;
  }
  File& f = **it;
  if (f.device != st.st_dev || f.inode != st.st_ino || f.size != st.st_size ||
      f.modified.tv_sec != st.st_mtim.tv_sec || f.modified.tv_nsec != st.st_mtim.tv_nsec) {
    bytes_ -= f.pages.size() * sizeof(PageBounds) + f.lt.size() * sizeof(std::uint32_t);
    f = File{st.st_dev, st.st_ino, st.st_size, st.st_mtim, {}, {}};
  }
  return f;
}

void PageIndex::note(File& file, std::uint64_t open, std::uint64_t close, std::uint64_t newlines,
                     const std::vector<std::size_t>& lt) {
  std::size_t bytes = sizeof(PageBounds) + lt.size() * sizeof(std::uint32_t);
  if (bytes_ + bytes > kMaxBytes || close - open > UINT32_MAX || file.lt.size() + lt.size() > UINT32_MAX) return;
  bytes_ += bytes;
  auto begin = static_cast<std::uint32_t>(file.lt.size());
  file.lt.insert(file.lt.end(), lt.begin(), lt.end());
  file.pages.push_back({open, close, newlines, begin, static_cast<std::uint32_t>(file.lt.size())});
}

ExportReader::ExportReader(int fd, std::string name, support::DiagnosticSink& sink, Access access)
    : fd_(fd), name_(std::move(name)), sink_(sink) {
  if (access == Access::map && mapped_.map(fd)) {
    buf_.view(mapped_.data(), mapped_.size());
    eof_ = true;  // the whole file is in view: nothing is left to read
  }
}

char* ExportReader::Buffer::reserve_tail(std::size_t n) {
  if (capacity_ - size_ < n) {
    std::size_t capacity = std::max(size_ + n, capacity_ * 2);
    auto grown = std::make_unique_for_overwrite<char[]>(capacity);
    if (size_ > 0) std::memcpy(grown.get(), data_.get(), size_);
    data_ = std::move(grown);
    ptr_ = data_.get();
    capacity_ = capacity;
  }
  return data_.get() + size_;
}

void ExportReader::Buffer::erase_front(std::size_t n) {
  std::memmove(data_.get(), data_.get() + n, size_ - n);
  size_ -= n;
}

bool ExportReader::fill() {
  if (eof_ || failed_) return false;
  // Consumed input is dropped here, when the next read would not fit, rather than
  // between pages: a read is needed just when the page being looked through runs past
  // the end of the buffer, so only that page's start moves, not the pages still ahead
  // of the cursor (moving those cost about a page copy per page). When the consumed part
  // is the smaller one, the buffer grows instead, which moves no more.
  if (buf_.room() < read_chunk_ && cur_ > base_ && (cur_ - base_) * 2 >= buf_.size()) {
    buf_.erase_front(cur_ - base_);
    base_ = cur_;
  }
  std::size_t old = buf_.size();
  char* tail = buf_.reserve_tail(read_chunk_);
  ssize_t n;
  do n = ::read(fd_, tail, read_chunk_);
  while (n < 0 && errno == EINTR);
  if (n < 0) {
    sink_.error(name_, support::nowhere, std::string("read failed: ") + std::strerror(errno));
    failed_ = true;
    return false;
  }
  buf_.set_size(old + static_cast<std::size_t>(n));
  total_read_ += static_cast<std::uint64_t>(n);
  peak_ = std::max(peak_, buf_.size());
  if (n == 0) eof_ = true;
  return n > 0;
}

std::size_t ExportReader::find_in_buffer(std::string_view needle, std::size_t from) {
  for (;;) {
    std::size_t i = std::string_view(buf_).find(needle, from - base_);
    if (i != std::string_view::npos) {
      touch(base_ + i + needle.size());
      return base_ + i;
    }
    touch(end());
    // Resume just before the old end so a needle split across reads is still found.
    from = std::max(from, end() >= needle.size() ? end() - needle.size() + 1 : 0);
    if (!fill()) return std::string_view::npos;
  }
}

std::size_t ExportReader::find_tag(std::string_view name, std::size_t from) {
  std::string open = "<" + std::string(name);
  for (;;) {
    std::size_t i = find_in_buffer(open, from);
    if (i == std::string_view::npos) return i;
    while (i + open.size() >= end() && fill()) {}
    if (i + open.size() < end() && is_tag_end(byte(i + open.size()))) return i;
    if (i + open.size() >= end()) return std::string_view::npos;
    from = i + 1;
  }
}

void ExportReader::touch(std::size_t to) {
  if (!mapped_.active()) return;
  touched_ = std::max(touched_, to);
  peak_ = std::max(peak_, mapped_.held(touched_));
}

struct ExportReader::PageEnd {
  std::size_t close = std::string_view::npos;   ///< the '<' of </page>
  std::size_t reopen = std::string_view::npos;  ///< the '<' of a <page> before it
  std::size_t newlines = 0;                     ///< in the page, up to `close`
};

// One pass from the page's start to the first </page> or <page> (the same boundaries
// as searching for each: inside text both are escaped), counting lines and noting
// every '<' on the way for find_plain_text.
ExportReader::PageEnd ExportReader::find_page_end(std::size_t open) {
  PageEnd out;
  lt_.clear();
  lt_.push_back(0);
  for (std::size_t from = open + 1;;) {
    std::size_t k = base_ + support::scan_counting_lines<'<'>(buf_.data(), from - base_, buf_.size(), out.newlines);
    if (k == end()) {
      from = k;
      if (!fill()) break;
      continue;
    }
    while (k + 7 > end() && fill()) {}
    std::string_view tag = input(k, std::min(k + 7, end()));
    if (tag == "</page>") {
      out.close = k;
      lt_.push_back(k - open);
      break;
    }
    if (tag.size() > 5 && tag.starts_with("<page") && is_tag_end(tag[5])) {
      out.reopen = k;
      break;
    }
    lt_.push_back(k - open);
    from = k + 1;
  }
  touch(out.close != std::string_view::npos ? out.close + 7
                                            : out.reopen != std::string_view::npos ? out.reopen + 6 : end());
  return out;
}

// find_page_end's answer for a page an earlier reading of this unchanged file noted,
// checked against the bytes where it matters to read_page: a file rewritten between the
// readings with the same size and time is no reason to misread a page.
bool ExportReader::noted_page_end(std::size_t open, PageEnd& out) {
  if (!index_file_ || noting_ || !mapped_.active()) return false;
  const auto& pages = index_file_->pages;
  while (index_next_ < pages.size() && pages[index_next_].open < open) ++index_next_;
  if (index_next_ == pages.size() || pages[index_next_].open != open) return false;
  const PageIndex::PageBounds& page = pages[index_next_++];
  if (page.close + 7 > end() || input(page.close, page.close + 7) != "</page>") return false;
  lt_.assign(index_file_->lt.begin() + page.lt_begin, index_file_->lt.begin() + page.lt_end);
  for (std::size_t k : lt_)
    if (byte(open + k) != '<') return false;
  out.close = page.close;
  out.newlines = page.newlines;
  touch(page.close + 7);
  index_->count_followed();
  return true;
}

bool ExportReader::input_changed() {
  if (failed_ || !mapped_.shrunk()) return false;
  sink_.error(name_, cur_at_,
              "the file became shorter while it was read (another process truncated or rewrote it); "
              "the rest is not read");
  failed_ = true;
  return true;
}

void ExportReader::move_cursor(std::size_t to) {
  cur_at_ = support::advance(cur_at_, input(cur_, to));
  cur_ = to;
}

support::Position ExportReader::position_in(std::string_view chunk, support::Position chunk_at,
                                            std::size_t offset) const {
  return support::advance(chunk_at, chunk.substr(0, std::min(offset, chunk.size())));
}

void ExportReader::report_eof(const std::string& message) {
  move_cursor(end());
  if (input_changed()) return;
  sink_.error(name_, cur_at_, message);
}

bool ExportReader::start() {
  std::size_t root = std::string_view::npos;
  for (std::size_t from = 0;;) {
    root = find_in_buffer("<mediawiki", from);
    if (root == std::string_view::npos || root > header_limit) break;
    while (root + 10 >= end() && fill()) {}
    if (root + 10 < end() && is_tag_end(byte(root + 10))) break;
    from = root + 1;
  }
  if (root == std::string_view::npos || root > header_limit) {
    if (!failed_)
      sink_.error(name_, {1, 1}, "not a MediaWiki export: no <mediawiki> element found");
    return false;
  }
  std::size_t tag_end = find_in_buffer(">", root);
  if (tag_end == std::string_view::npos) {
    report_eof("unexpected end of file inside the <mediawiki> start tag");
    return false;
  }
  move_cursor(root);
  std::string_view tag = input(root, tag_end);
  auto version = attribute(tag, "version");
  if (!version) {
    sink_.warning(name_, cur_at_, "<mediawiki> has no version attribute; reading it as export schema 0.11");
    version = "0.11";
  } else if (std::find(std::begin(known_versions), std::end(known_versions), *version) ==
             std::end(known_versions)) {
    sink_.error(name_, cur_at_,
                "unsupported export schema version '" + *version +
                    "' (wikic reads 0.10 and 0.11); reading it as 0.11");
  }
  std::string language = attribute(tag, "xml:lang").value_or("");
  move_cursor(tag_end + 1);

  std::size_t info = find_tag("siteinfo", cur_);
  std::size_t first_page = info == std::string_view::npos ? find_tag("page", cur_) : std::string_view::npos;
  if (info != std::string_view::npos) {
    std::size_t info_end = find_in_buffer("</siteinfo>", info);
    if (info_end == std::string_view::npos) {
      report_eof("unexpected end of file inside <siteinfo>");
      return false;
    }
    move_cursor(info);
    info_end += std::strlen("</siteinfo>");
    read_siteinfo(input(info, info_end), cur_at_);
    move_cursor(info_end);
  } else {
    site_ = default_site();
    if (first_page != std::string_view::npos)
      sink_.warning(name_, cur_at_, "export has no <siteinfo>; assuming the site of schema/site.yaml");
  }
  site_.schema_version = *version;
  if (!language.empty()) site_.language = language;
  return true;
}

void ExportReader::read_siteinfo(std::string_view chunk, support::Position at) {
  site_ = default_site();
  pugi::xml_document doc;
  auto result = doc.load_buffer(chunk.data(), chunk.size(), pugi::parse_default, pugi::encoding_utf8);
  if (!result) {
    sink_.error(name_, position_in(chunk, at, static_cast<std::size_t>(result.offset)),
                std::string("malformed <siteinfo>: ") + result.description() +
                    "; assuming the site of schema/site.yaml");
    return;
  }
  auto info = doc.child("siteinfo");
  site_.sitename = info.child_value("sitename");
  site_.dbname = info.child_value("dbname");
  site_.base = info.child_value("base");
  site_.generator = info.child_value("generator");
  if (*info.child_value("case")) site_.case_rule = info.child_value("case");
  if (auto list = info.child("namespaces")) {
    site_.namespaces.clear();
    for (auto ns : list.children("namespace"))
      site_.namespaces.push_back({ns.attribute("key").as_int(), ns.child_value(),
                                  ns.attribute("case").as_string(site_.case_rule.c_str())});
  }
}

std::optional<Page> ExportReader::next() {
  while (!failed_) {
    std::size_t open = find_tag("page", cur_);
    std::string_view gap = input(cur_, open == std::string_view::npos ? end() : open);
    if (gap.find("</mediawiki>") != std::string_view::npos) closed_ = true;
    if (open == std::string_view::npos) {
      if (!closed_ && !failed_)
        report_eof("unexpected end of file: </mediawiki> is missing (truncated export?)");
      move_cursor(end());
      return std::nullopt;
    }
    move_cursor(open);
    support::Position page_at = cur_at_;
    PageEnd page_end;
    if (!noted_page_end(open, page_end)) {
      page_end = find_page_end(open);
      if (noting_ && mapped_.active() && page_end.close != std::string_view::npos)
        index_->note(*index_file_, open, page_end.close, page_end.newlines, lt_);
    }
    if (page_end.reopen != std::string_view::npos) {
      sink_.error(name_, page_at, "<page> opened here is never closed; skipped up to the next <page>");
      move_cursor(page_end.reopen);
      continue;
    }
    std::size_t close = page_end.close;
    if (close == std::string_view::npos) {
      report_eof("unexpected end of file inside <page> opened at line " + std::to_string(page_at.line) +
                 ":" + std::to_string(page_at.column) + " (truncated export?)");
      return std::nullopt;
    }
    close += std::strlen("</page>");
    std::string_view chunk = input(open, close);
    // Zeros that replaced a truncated file's pages are neither reported on nor handed on.
    if (mapped_.faulted() && input_changed()) return std::nullopt;
    auto page = read_page(chunk, page_at, page_end.newlines);
    if (mapped_.faulted() && input_changed()) return std::nullopt;
    cur_at_ = support::advance(cur_at_, chunk, page_end.newlines);
    cur_ = close;
    mapped_.release(cur_);
    if (page) return page;
  }
  return std::nullopt;
}

void ExportReader::done_with(Page& page) {
  if (!lent_) return;
  std::string& text = page.revision.text;
  // Moved away (an empty string without its buffer): the handler keeps pages. A text
  // the handler rewrote in a buffer of its own is as good a scratch buffer.
  if (text.capacity() < lent_) {
    lend_text_ = false;
  } else {
    plain_text_ = std::move(text);
    text.clear();
  }
  lent_ = 0;
}

namespace {
/// <ns>, or for an export without it, the namespace its title prefix names.
int namespace_of(const pugi::xml_node& page, const SiteInfo& site) {
  if (auto ns = page.child("ns")) return ns.text().as_int();
  return site.split_title(page.child_value("title")).first;
}
}  // namespace

std::optional<Page> ExportReader::read_page(std::string_view chunk, support::Position at, std::size_t newlines,
                                            std::optional<bool> wanted, bool check_text) {
  const std::string_view as_read = chunk;
  std::optional<PlainText> plain = find_plain_text(chunk, lt_);
  // A plain text is checked for UTF-8 only once it is wanted, and then while it is
  // decoded; the markup around it is checked now (its ends are ASCII, so no sequence
  // spans them).
  bool text_unchecked = false;
  std::size_t bad = std::string_view::npos;
  if (plain && !check_text) {
    text_unchecked = support::find_invalid_utf8(chunk.substr(0, plain->begin)) == std::string_view::npos &&
                     support::find_invalid_utf8(chunk.substr(plain->end)) == std::string_view::npos;
    if (!text_unchecked) bad = support::find_invalid_utf8(chunk);
  } else {
    bad = support::find_invalid_utf8(chunk);
  }
  std::string repaired;
  std::vector<std::size_t> repaired_lt;
  if (bad != std::string_view::npos) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(chunk[bad]));
    sink_.error(name_, position_in(chunk, at, bad),
                std::string("invalid UTF-8 (byte ") + hex + "); replaced by U+FFFD");
    repaired = support::replace_invalid_utf8(chunk);
    chunk = repaired;
    for (std::size_t i = 0; i < chunk.size(); ++i)
      if (chunk[i] == '<') repaired_lt.push_back(i);
    plain = find_plain_text(chunk, repaired_lt);
  }
  pugi::xml_document doc;
  // Fast path: pugixml parses the page without its text content (same offsets up to the
  // text), and the text is decoded by decode_plain_text. Any doubt (a parse error, the
  // <text> found is not the latest revision's) and the whole page goes to pugixml.
  bool plain_ws = false;  // content only XML whitespace: pugixml makes no text node
  bool skip_text = false;  // the text filter declined this page: its text is not decoded
  std::size_t plain_length = 0;
  DecodeNotes notes;
  if (plain) {
    outer_.assign(chunk.data(), plain->begin);
    outer_.append(chunk.substr(plain->end));
    auto result = doc.load_buffer_inplace(outer_.data(), outer_.size(), pugi::parse_default, pugi::encoding_utf8);
    auto text = doc.child("page");
    if (result) {
      pugi::xml_node latest;
      for (auto rev : text.children("revision"))
        if (!latest || std::strcmp(rev.child_value("timestamp"), latest.child_value("timestamp")) >= 0)
          latest = rev;
      text = latest.child("text");
    }
    if (!result || !text || text.offset_debug() != static_cast<std::ptrdiff_t>(plain->tag + 1)) {
      plain.reset();
      doc.reset();
    }
  }
  std::optional<bool> asked = wanted;  // the filter's answer, once it was asked
  if (plain) {
    // The metadata is known before the text is decoded, so a pass that wants only some
    // pages' texts (compile's template pass) does not decode the others.
    auto node = doc.child("page");
    bool want = wanted ? *wanted : !want_text_ || want_text_(namespace_of(node, site_), node.child_value("title"));
    asked = want;
    skip_text = !want;
    std::string_view content = chunk.substr(plain->begin, plain->end - plain->begin);
    plain_ws = std::all_of(content.begin(), content.end(), is_xml_space);
    if (plain_ws) text_unchecked = false;  // XML white space is ASCII
    if (!skip_text && !plain_ws) {
      Decoded decoded = decode_plain_text(content, plain_text_, plain_length, notes);
      // A text with a byte that is no UTF-8 is read again the way such a page is, with
      // the filter's answer kept.
      if (decoded == Decoded::invalid_utf8) return read_page(as_read, at, newlines, true, true);
      if (decoded == Decoded::text) {
        text_unchecked = false;
      } else {
        plain.reset();
        doc.reset();
      }
    }
  }
  // pugixml reads the whole page, text and all, only after every byte was checked.
  if (!plain && text_unchecked) return read_page(as_read, at, newlines, asked, true);
  if (!plain) {
    auto result = doc.load_buffer(chunk.data(), chunk.size(), pugi::parse_default, pugi::encoding_utf8);
    if (!result) {
      sink_.error(name_, position_in(chunk, at, static_cast<std::size_t>(result.offset)),
                  std::string("malformed XML in <page>: ") + result.description() + "; page skipped");
      return std::nullopt;
    }
  }
  auto node = doc.child("page");
  Page page;
  page.source = {name_, at, at};
  page.title = node.child_value("title");
  if (page.title.empty()) {
    sink_.error(name_, at, "<page> has no <title>; page skipped");
    return std::nullopt;
  }
  page.ns = namespace_of(node, site_);
  page.id = to_u64(node.child_value("id"));
  page.redirect = node.child("redirect").attribute("title").value();
  page.language = page_language(page.title, site_.language);

  // Special:Export lists a page's revisions oldest first; the latest one counts, by
  // timestamp, and by document order among equal timestamps.
  pugi::xml_node latest;
  for (auto rev : node.children("revision")) {
    ++page.revisions_in_input;
    if (!latest || std::strcmp(rev.child_value("timestamp"), latest.child_value("timestamp")) >= 0)
      latest = rev;
  }
  std::string where = "page '" + page.title + "'";
  if (!latest) {
    sink_.error(name_, at, where + " has no <revision>; page skipped");
    return std::nullopt;
  }
  Revision& rev = page.revision;
  rev.id = to_u64(latest.child_value("id"));
  rev.parent_id = to_u64(latest.child_value("parentid"));
  rev.timestamp = latest.child_value("timestamp");
  auto who = latest.child("contributor");
  rev.contributor = {who.child_value("username"), who.child_value("id"), who.child_value("ip")};
  if (*latest.child_value("model")) rev.model = latest.child_value("model");
  if (*latest.child_value("format")) rev.format = latest.child_value("format");
  auto text = latest.child("text");
  auto rev_at = position_in(chunk, at, static_cast<std::size_t>(latest.offset_debug()));
  if (!text) {
    sink_.error(name_, rev_at, where + ": revision " + std::to_string(rev.id) +
                                   " has no <text>; page skipped");
    return std::nullopt;
  }
  if (text.attribute("deleted")) {
    sink_.warning(name_, rev_at, where + ": the text of revision " + std::to_string(rev.id) +
                                     " is deleted in this export; page skipped");
    return std::nullopt;
  }
  if (plain) {
    page.source.text_at = position_in(chunk, at, plain_ws ? plain->tag + 1 : plain->begin);
    rev.text_skipped = skip_text;
    // The text's newlines are the page's but those of the markup around it (a few lines)
    // and one for each lone CR. (A repaired page's count is not the page's as read.)
    if (!skip_text && repaired.empty())
      rev.newlines = plain_ws ? 0
                              : newlines - support::count_newlines(chunk.substr(0, plain->begin)) -
                                    support::count_newlines(chunk.substr(plain->end)) + notes.lone_crs;
    if (!skip_text) rev.translate_tag = !plain_ws && notes.translate;
    if (plain_ws || skip_text) {
      rev.text.clear();
    } else if (lend_text_ && !lent_) {
      // The scratch buffer becomes the page's text and comes back when the page is
      // done: a copy of the whole text saved per page. Its slack (the escapes' bytes,
      // or a longer page's) stays with a page the handler keeps, but only the first.
      plain_text_.resize(plain_length);
      rev.text = std::move(plain_text_);
      plain_text_.clear();
      lent_ = plain_length;
    } else {
      // A page lent its text and not given back may be kept by the caller: from then on
      // texts are copied at their exact size.
      if (lent_) lend_text_ = false;
      rev.text.assign(plain_text_.data(), plain_length);  // exact size: pages may be kept
    }
  } else {
    auto content = text.first_child();
    page.source.text_at = position_in(
        chunk, at, static_cast<std::size_t>(content ? content.offset_debug() : text.offset_debug()));
    rev.text = text.child_value();
  }
  rev.sha1 = latest.child_value("sha1");
  if (rev.sha1.empty()) rev.sha1 = text.attribute("sha1").value();
  if (rev.sha1.empty() && !rev.text_skipped) {
    rev.sha1 = support::sha1_base36(rev.text);
    rev.sha1_computed = true;
  }
  return page;
}

}  // namespace wikic::ingest
