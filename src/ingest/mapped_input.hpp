// A regular file's bytes mapped read-only into memory, for ExportReader: the input is
// read where the page cache holds it, with no copy into a buffer, and the part already
// consumed is handed back so resident memory stays flat however large the file.
#pragma once
#include <cstddef>
#include <sys/types.h>

namespace wikic::ingest {

class MappedInput {
public:
  /// Maps `fd` from its current offset to the size fstat gives now (bytes appended
  /// later are not seen); false (and nothing mapped) when it is no regular file, is
  /// empty or cannot be mapped: the caller then reads it with read(2).
  bool map(int fd);
  ~MappedInput();

  /// Whether map() succeeded: the file is read from data().
  bool active() const { return map_ != nullptr; }
  const char* data() const { return data_; }
  std::size_t size() const { return size_; }

  /// Drops the pages wholly before input offset `upto` from memory (they are never read
  /// again); cheap to call often, it acts only every few megabytes.
  void release(std::size_t upto);
  /// Bytes from the first byte not yet released up to `upto`: what is held in memory.
  std::size_t held(std::size_t upto) const { return upto > released_ ? upto - released_ : 0; }

  /// True once a read past the file's new end (another process truncated it) found
  /// zeros instead of ending the process with SIGBUS (see mapped_input.cpp). Cheap.
  bool faulted() const;
  /// faulted(), or the file is now shorter than when it was mapped (one fstat).
  bool shrunk() const;

private:
  char* map_ = nullptr;         ///< page-aligned start of the mapping
  std::size_t map_size_ = 0;
  const char* data_ = nullptr;  ///< the byte at the file offset the mapping was asked for
  std::size_t size_ = 0;
  std::size_t released_ = 0;    ///< input offset up to which pages were dropped
  int slot_ = -1;               ///< entry in the SIGBUS guard's table
  int fd_ = -1;
  long long file_size_ = 0;     ///< st_size when mapped
};

}  // namespace wikic::ingest
