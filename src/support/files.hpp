// File I/O with the guarantees the nightly regeneration relies on: reads report the
// OS error text, and writes replace a file only once it is whole and on disk (a
// temporary in the same folder, fsync, rename), so a reader of out/ never sees a
// half-written file, not even after a crash, and two runs into one folder do not mix.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "support/output.hpp"

namespace wikic::support {

/// Whole file into a string; on failure nullopt and `error` holds "path: reason".
std::optional<std::string> read_file(const std::string& path, std::string& error);

/// A file that replaces `path` only when it is complete. Its bytes go to a temporary
/// beside it, `.NAME.tmp.PID.N` (its own for each writer, so two runs into one folder
/// cannot write into each other's), and commit() renames that over `path`: of two
/// writers, the last to commit wins whole. Destroyed without a commit, the temporary is
/// removed and `path` keeps what it had. open() also removes the temporaries of `path`
/// whose writer process is gone (killed, crashed), so they do not pile up.
class AtomicFile {
public:
  /// Whether blocks of a large file may bypass the page cache (files.cpp): `never` is
  /// for a caller that reads the file back at once, and for tests of the other path;
  /// `without_ring` writes them by write(2) alone, as where io_uring is not to be had
  /// (for tests of that path).
  enum class DirectIo { when_possible, without_ring, never };
  explicit AtomicFile(std::string path, DirectIo direct = DirectIo::when_possible);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();

  /// Creates the temporary; false and `error` ("temp: reason") if it cannot.
  bool open(std::string& error);
  /// Where the content goes. A failed write (disk full) sets badbit; sync() reports it.
  std::ostream& stream() { return stream_; }
  /// The same content, written in place (see output.hpp); from open() to sync(). A
  /// window must be advanced before the next stream() write, which would overwrite it.
  OutputWindow& output();
  /// Writes out what is buffered and waits until the disk has it (fsync): after a crash
  /// a renamed file must not turn out empty. False and `error` on any failure so far.
  bool sync(std::string& error);
  /// sync() if not done, then renames the temporary over `path`.
  bool commit(std::string& error);
  /// Removes the temporary; `path` is left alone.
  void discard();

  const std::string& path() const { return path_; }
  const std::string& temporary() const { return temporary_; }
  /// Bytes of the synced file that went to the disk by direct I/O, bypassing the page
  /// cache (see files.cpp): 0 for a file under 4 MB or on a file system without it.
  std::uint64_t direct_bytes() const { return direct_bytes_; }
  /// Of those, the bytes that went through io_uring (files.cpp): 0 where the kernel or
  /// its limits do not allow it.
  std::uint64_t ring_bytes() const { return ring_bytes_; }

private:
  class Buffer;
  std::string path_, temporary_;
  int fd_ = -1;
  bool synced_ = false;
  DirectIo direct_io_;
  std::uint64_t direct_bytes_ = 0, ring_bytes_ = 0;
  std::unique_ptr<Buffer> buffer_;
  std::ostream stream_;

  /// Renames the synced temporary over `path` (the temporary is gone either way).
  bool place(std::string& error);
  friend bool commit_together(const std::vector<AtomicFile*>& files, std::vector<std::string>& errors);
};

/// Replaces a set of files together: every file is synced before any is renamed, so a
/// failure (disk full, a vanished folder) leaves all of them as they were rather than
/// a new rules.yaml beside an old rules.xml. The folders' entries are synced last.
/// False and one "path: reason" per failure in `errors`.
bool commit_together(const std::vector<AtomicFile*>& files, std::vector<std::string>& errors);

/// Writes `content` to `path` atomically (one AtomicFile); false and `error` on failure.
bool write_file_atomic(const std::string& path, std::string_view content, std::string& error);

}  // namespace wikic::support
