// Streaming reader of MediaWiki Special:Export XML (export schema 0.10 and 0.11).
// The input is split at <page> boundaries and each page alone is parsed with pugixml,
// so memory stays at one page plus one read chunk (or a few mapped megabytes) however
// large the dump is.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <sys/stat.h>

#include "ingest/mapped_input.hpp"
#include "ingest/page.hpp"
#include "support/diagnostic.hpp"

namespace wikic::ingest {

/// Where the pages of mapped exports lie, as one reading found them, so that a later
/// reading of the same unchanged file (compile's second pass, after its template pass)
/// goes from page to page without searching each page for its end again. A file counts
/// as unchanged while its device, inode, size and modification time are; a page is also
/// checked where it is used (its "</page>" and every '<' noted in it), and one that is
/// not in the index, or fails the check, is searched for as usual. Bounded: past
/// `kMaxBytes` of entries the rest of the pages are not noted.
class PageIndex {
public:
  static constexpr std::size_t kMaxBytes = std::size_t{64} << 20;
  struct PageBounds {
    std::uint64_t open = 0;      ///< input offset of the '<' of <page>
    std::uint64_t close = 0;     ///< input offset of the '<' of </page>
    std::uint64_t newlines = 0;  ///< '\n' bytes between them
    std::uint32_t lt_begin = 0, lt_end = 0;  ///< its '<' offsets (from `open`) in `lt`
  };
  struct File {
    dev_t device = 0;
    ino_t inode = 0;
    off_t size = 0;
    struct timespec modified {};
    std::vector<PageBounds> pages;  ///< in input order
    std::vector<std::uint32_t> lt;
  };
  /// The entry of the file `st` describes: the pages noted by an earlier reading when it
  /// is unchanged since, else an empty entry to note them in.
  File& file(const struct stat& st);
  /// Notes a page of `file`, unless the index is full.
  void note(File& file, std::uint64_t open, std::uint64_t close, std::uint64_t newlines,
            const std::vector<std::size_t>& lt);
  /// How many pages' ends readers took from the index rather than searching for them.
  std::size_t followed() const { return followed_; }
  void count_followed() { ++followed_; }

private:
  std::vector<std::unique_ptr<File>> files_;
  std::size_t bytes_ = 0;
  std::size_t followed_ = 0;
};

class ExportReader {
public:
  /// How the input's bytes reach memory. `map`: a regular file is mapped (read(2) when
  /// it cannot be); `read`: always read(2), as for a pipe. Both give the same pages and
  /// diagnostics.
  enum class Access { map, read };
  /// Reads from the open descriptor `fd` (not owned) from its current offset; `name` is
  /// used in diagnostics.
  ExportReader(int fd, std::string name, support::DiagnosticSink& sink, Access access = Access::map);

  /// Reads the <mediawiki> element and <siteinfo>; false when the input is no export.
  bool start();
  const SiteInfo& site() const { return site_; }

  /// The next page with its latest revision; nullopt at the end of the export or when
  /// the rest of the input cannot be read (the reason has been reported).
  std::optional<Page> next();

  /// Decides, from a page's namespace and title, whether its text is wanted; a page
  /// declined keeps its metadata, with `revision.text` empty and `text_skipped` set.
  /// A page whose markup only pugixml can read whole is read whole, text and all, without
  /// asking. The default (none) reads every text. A declined text is passed over once to
  /// find its end and count its lines, never checked for UTF-8 (so invalid bytes in it
  /// are not reported), decoded or copied.
  using TextFilter = std::function<bool(int ns, std::string_view title)>;
  void set_text_filter(TextFilter filter) { want_text_ = std::move(filter); }

  /// Pages of this input as an earlier reading noted them (`file` from index.file()), or
  /// an empty entry that this reading fills. Used only while the input is mapped; an
  /// input read with read(2) may be a stream that differs from one reading to the next.
  void set_page_index(PageIndex& index, PageIndex::File& file) {
    index_ = &index;
    index_file_ = &file;
    noting_ = file.pages.empty();
  }

  /// Largest amount of input held in memory at once (the streaming guarantee): the read
  /// buffer, or of a mapped file the part looked at and not yet released.
  std::size_t peak_buffer_bytes() const { return peak_; }
  /// Bytes read(2) into the buffer, or of a mapped file the bytes looked at.
  std::uint64_t bytes_read() const { return mapped_.active() ? touched_ : total_read_; }
  bool mapped() const { return mapped_.active(); }
  /// Size of each read(2) (1 MiB); tests make it small to put a read boundary anywhere.
  void set_read_chunk(std::size_t bytes) { read_chunk_ = bytes > 0 ? bytes : 1; }

  /// The page next() returned, once its handler is done with it: a decoded text still
  /// in it is the buffer it was decoded in, and decodes the next page's text. A page
  /// the handler kept (its text moved away) makes the reader copy later texts at their
  /// exact size instead, as it does for a caller that never gives pages back.
  void done_with(Page& page);

private:
  bool fill();
  std::size_t find_in_buffer(std::string_view needle, std::size_t from);
  std::size_t find_tag(std::string_view name, std::size_t from);
  struct PageEnd;
  PageEnd find_page_end(std::size_t open);
  bool noted_page_end(std::size_t open, PageEnd& out);
  void touch(std::size_t to);
  bool input_changed();
  void move_cursor(std::size_t to);
  support::Position position_in(std::string_view chunk, support::Position chunk_at,
                                std::size_t offset) const;
  /// `newlines`: the '\n' bytes in `chunk`, as find_page_end counted them;
  /// `wanted`: the text filter's answer when it was already asked for this page;
  /// `check_text`: check the whole page for UTF-8 even if the filter might decline it.
  std::optional<Page> read_page(std::string_view chunk, support::Position at, std::size_t newlines,
                                std::optional<bool> wanted = std::nullopt, bool check_text = false);
  void read_siteinfo(std::string_view chunk, support::Position at);
  void report_eof(const std::string& message);

  int fd_;
  std::string name_;
  support::DiagnosticSink& sink_;
  SiteInfo site_;
  /// Input bytes read but not consumed, or a view of the whole mapped file. Not a
  /// std::string: growing one zero-fills the space that read(2) overwrites next, a
  /// second pass over every input byte.
  class Buffer {
  public:
    std::size_t size() const { return size_; }
    const char* data() const { return ptr_; }
    char operator[](std::size_t i) const { return ptr_[i]; }
    operator std::string_view() const { return {ptr_, size_}; }
    void view(const char* data, std::size_t size) { ptr_ = data; size_ = size; }
    /// Room for `n` more bytes after the end (uninitialised).
    char* reserve_tail(std::size_t n);
    void set_size(std::size_t n) { size_ = n; }
    std::size_t room() const { return capacity_ - size_; }
    void erase_front(std::size_t n);

  private:
    std::unique_ptr<char[]> data_;
    const char* ptr_ = nullptr;  ///< data_, or the mapped file
    std::size_t size_ = 0, capacity_ = 0;
  };
  Buffer buf_;
  // Offsets into the input are counted from its start, so they stay valid when fill()
  // drops consumed bytes from the front of the buffer.
  std::size_t base_ = 0;       ///< input offset of buf_[0]
  std::size_t cur_ = 0;        ///< input offset of the first unconsumed byte
  support::Position cur_at_;   ///< position of that byte in the input
  std::size_t end() const { return base_ + buf_.size(); }
  char byte(std::size_t at) const { return buf_[at - base_]; }
  std::string_view input(std::size_t from, std::size_t to) const {
    return std::string_view(buf_).substr(from - base_, to - from);
  }
  bool eof_ = false;
  bool failed_ = false;
  bool closed_ = false;        ///< </mediawiki> seen
  std::size_t peak_ = 0;
  std::uint64_t total_read_ = 0;
  std::size_t read_chunk_ = 1 << 20;
  MappedInput mapped_;
  std::size_t touched_ = 0;      ///< of a mapped file: input offset up to which it was looked at
  std::vector<std::size_t> lt_;  ///< offsets in the current page of every '<' in it
  TextFilter want_text_;
  PageIndex* index_ = nullptr;
  PageIndex::File* index_file_ = nullptr;
  bool noting_ = false;           ///< filling index_file_ (else following it)
  std::size_t index_next_ = 0;    ///< first entry of index_file_ not yet passed
  std::string outer_;       ///< a page without its text content, parsed in place by pugixml
  std::string plain_text_;  ///< scratch for the decoded text content (lent to the page or copied)
  /// Decoded texts go to their page in the scratch buffer (no copy) while every page
  /// lent one comes back through done_with().
  bool lend_text_ = true;
  std::size_t lent_ = 0;  ///< length of the text lent to the page out, 0 if none
};

}  // namespace wikic::ingest
