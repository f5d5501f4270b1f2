// POSIX implementation of whole-file reads and atomic, durable writes (files.hpp).
#include "support/files.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <mutex>
#include <new>
#include <signal.h>
#include <span>
#include <string_view>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <thread>
#include <unistd.h>

namespace wikic::support {

namespace {
std::string os_error(const std::string& path, int error = errno) { return path + ": " + std::strerror(error); }

/// Writes all of [p, p + n) to `fd`, across short writes and signals; the errno of a
/// failure, else 0.
int write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    ssize_t k = ::write(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) return errno;
    p += k;
    n -= static_cast<std::size_t>(k);
  }
  return 0;
}

/// One io_uring, made for a file's two blocks, through which a full block is written
/// with the blocks registered once (IORING_OP_WRITE_FIXED). A plain direct write(2)
/// pins every 4 KB page of its block for the length of the write and releases them
/// after: 1024 page pins per block, 2.6 % of a compile's CPU for the 1.2 GB of rule
/// files. Registered blocks are pinned once per file. One write is in flight at a
/// time, so the ring has one entry, and the raw system calls are enough (no liburing:
/// one dependency fewer, and nothing of it would be used but this).
class BlockRing {
public:
  BlockRing() = default;
  BlockRing(const BlockRing&) = delete;
  BlockRing& operator=(const BlockRing&) = delete;
  ~BlockRing() { close(); }

  /// Sets the ring up with `blocks` registered; false, and nothing kept, wherever the
  /// kernel says no: no io_uring (ENOSYS), a seccomp filter or io_uring_disabled
  /// (EPERM), RLIMIT_MEMLOCK or memory for the pinned blocks (ENOMEM), or a kernel
  /// before 5.6 that cannot write at the file's position.
  bool open(std::span<const iovec> blocks) {
    io_uring_params params{};
    int fd = static_cast<int>(::syscall(__NR_io_uring_setup, 1u, &params));
    if (fd < 0) return false;
    fd_ = fd;
    const std::uint32_t needed = IORING_FEAT_SINGLE_MMAP | IORING_FEAT_RW_CUR_POS;
    if ((params.features & needed) != needed) return close(), false;
    ring_size_ = std::max(params.sq_off.array + params.sq_entries * sizeof(std::uint32_t),
                          params.cq_off.cqes + params.cq_entries * sizeof(io_uring_cqe));
    void* ring = ::mmap(nullptr, ring_size_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd_, IORING_OFF_SQ_RING);
    if (ring == MAP_FAILED) return close(), false;
    ring_ = static_cast<char*>(ring);
    sqes_size_ = params.sq_entries * sizeof(io_uring_sqe);
    void* sqes = ::mmap(nullptr, sqes_size_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd_, IORING_OFF_SQES);
    if (sqes == MAP_FAILED) return close(), false;
    sqes_ = static_cast<io_uring_sqe*>(sqes);
    sq_head_ = field(params.sq_off.head);
    sq_tail_ = field(params.sq_off.tail);
    cq_head_ = field(params.cq_off.head);
    cq_tail_ = field(params.cq_off.tail);
    cqes_ = reinterpret_cast<io_uring_cqe*>(ring_ + params.cq_off.cqes);
    sq_mask_ = *field(params.sq_off.ring_mask);
    cq_mask_ = *field(params.cq_off.ring_mask);
    // Every submission uses entry 0 of the one-entry ring; the kernel reads the
    // indirection array but never writes it.
    for (std::uint32_t i = 0; i < params.sq_entries; ++i) field(params.sq_off.array)[i] = i;
    if (::syscall(__NR_io_uring_register, fd_, IORING_REGISTER_BUFFERS, blocks.data(), static_cast<unsigned>(blocks.size())) != 0)
      return close(), false;
    blocks_ = blocks.data();
    return true;
  }
  bool is_open() const { return blocks_ != nullptr; }
  /// Unregisters and unpins the blocks (the kernel does it as the ring goes).
  void close() {
    if (sqes_) ::munmap(sqes_, sqes_size_);
    if (ring_) ::munmap(ring_, ring_size_);
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    ring_ = nullptr;
    sqes_ = nullptr;
    blocks_ = nullptr;
  }

  /// Writes the first `n` bytes of registered block `index` at `file`'s position,
  /// which the write advances as write(2) does, and waits for it: the bytes written,
  /// or -errno. A failure of the ring itself, before the write was taken, answers
  /// `kNotTaken` and leaves the file as it was.
  static constexpr long kNotTaken = -(1L << 40);
  long write(int file, unsigned index, std::size_t n) {
    const std::uint32_t tail = *sq_tail_;  // only this side moves it
    io_uring_sqe& sqe = sqes_[tail & sq_mask_];
    std::memset(&sqe, 0, sizeof sqe);
    sqe.opcode = IORING_OP_WRITE_FIXED;
    sqe.fd = file;
    sqe.addr = reinterpret_cast<std::uint64_t>(blocks_[index].iov_base);
    sqe.len = static_cast<std::uint32_t>(n);
    sqe.off = ~std::uint64_t{0};  // the file's position (IORING_FEAT_RW_CUR_POS)
    sqe.buf_index = static_cast<std::uint16_t>(index);
    // The entry's bytes must be visible to the kernel before the tail that hands it over.
    std::atomic_ref<std::uint32_t>(*sq_tail_).store(tail + 1, std::memory_order_release);
    long entered = enter(1, IORING_ENTER_GETEVENTS);
    if (entered < 0 && std::atomic_ref<std::uint32_t>(*sq_head_).load(std::memory_order_acquire) == tail) {
      // Refused before it was taken (out of memory, say): taken back, never written.
      std::atomic_ref<std::uint32_t>(*sq_tail_).store(tail, std::memory_order_release);
      return kNotTaken;
    }
    // Taken: the block is the kernel's until its completion, however long a signal or
    // anything else makes the wait.
    for (;;) {
      const std::uint32_t head = *cq_head_;
      if (std::atomic_ref<std::uint32_t>(*cq_tail_).load(std::memory_order_acquire) != head) {
        const long result = cqes_[head & cq_mask_].res;
        std::atomic_ref<std::uint32_t>(*cq_head_).store(head + 1, std::memory_order_release);
        return result;
      }
      if (enter(0, IORING_ENTER_GETEVENTS) < 0 && errno != EINTR && errno != EAGAIN && errno != EBUSY)
        return -errno;  // the ring itself is broken: nothing more can be learnt of the write
    }
  }

private:
  int fd_ = -1;
  char* ring_ = nullptr;
  std::size_t ring_size_ = 0;
  io_uring_sqe* sqes_ = nullptr;
  std::size_t sqes_size_ = 0;
  std::uint32_t *sq_head_ = nullptr, *sq_tail_ = nullptr, *cq_head_ = nullptr, *cq_tail_ = nullptr;
  std::uint32_t sq_mask_ = 0, cq_mask_ = 0;
  io_uring_cqe* cqes_ = nullptr;
  const iovec* blocks_ = nullptr;

  std::uint32_t* field(std::uint32_t offset) { return reinterpret_cast<std::uint32_t*>(ring_ + offset); }
  long enter(unsigned submit, unsigned flags) {
    return ::syscall(__NR_io_uring_enter, fd_, submit, 1u, flags, nullptr, std::size_t{0});
  }
};

/// Where the name of `path` starts, after its folder.
std::size_t name_start(const std::string& path) {
  std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? 0 : slash + 1;
}

/// What the name of every temporary of `path` starts with, `.NAME.tmp.`, before the
/// writer's process id and a count: hidden, so that a reader globbing the folder does
/// not pick it up. The one pattern temporary_for makes and remove_stale_temporaries reads.
std::string temporary_prefix(const std::string& path) { return "." + path.substr(name_start(path)) + ".tmp."; }

/// The temporary beside `path`, named by the process and a count within it, so that no
/// two writers (two runs, or two AtomicFiles of one path in one process) ever share one.
std::string temporary_for(const std::string& path) {
  static std::atomic<unsigned> made{0};
  return path.substr(0, name_start(path)) + temporary_prefix(path) + std::to_string(::getpid()) + "." +
         std::to_string(made.fetch_add(1, std::memory_order_relaxed));
}

std::string folder_of(const std::string& path) {
  std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// A rename is durable only once the folder's entry is on disk too. Some file systems
// refuse fsync on a folder (EINVAL); the rename has happened by then, so that is not
// an error of the run.
void sync_folder(const std::string& folder) {
  int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}
}  // namespace

std::optional<std::string> read_file(const std::string& path, std::string& error) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = os_error(path);
    return std::nullopt;
  }
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    error = path + ": is a directory";
    return std::nullopt;
  }
  std::string out;
  if (st.st_size > 0) out.reserve(static_cast<std::size_t>(st.st_size));
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      error = os_error(path);
      ::close(fd);
      return std::nullopt;
    }
    if (n == 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return out;
}

// The stream's buffer. Small files are gathered in 64 KB and written at sync(). A file
// that outgrows that (the rule files: about 1.2 GB for a 180 MB export) is gathered in
// blocks of 4 MB, and each full block is written with direct I/O (O_DIRECT) where the
// file system allows it: the bytes go from the block to the disk without being copied
// into the page cache. Those files are fsynced and not read back by this process, so
// the page cache's copy only cost kernel time (a third of a compile's CPU on a machine
// whose memory was not touched before) and evicted what other readers had cached.
// A direct write returns only once the disk has the block, so a thread of the file's
// own writes each full block while the caller fills the next one: the disk's time
// (0.7 s for those 1.2 GB) overlaps the compile's instead of adding to it.
// Blocks are aligned in memory and in the file, as O_DIRECT requires; the last part of
// a file, under a block, is written through the page cache. A file system that refuses
// O_DIRECT (tmpfs before Linux 6.6, some network file systems) gets every block through
// the page cache.
// Where io_uring can be had, the full blocks go through a ring that has both blocks
// registered (BlockRing): the same direct writes, without pinning each block's pages
// anew for every write. Where it cannot (no io_uring, a container's filter, too little
// lockable memory), or once the ring fails in any way, the blocks go by write(2).
// After a failed write every later one fails too, so a full disk stops the file where
// it broke.
// The printers of the rule files write into the block itself (OutputWindow), not through
// the stream: a window may run past the block's end into its spill, whose bytes start
// the next block once the full one is handed over.
class AtomicFile::Buffer : public std::streambuf, public OutputWindow {
public:
  static constexpr std::size_t kSmall = std::size_t{1} << 16;
  static constexpr std::size_t kBlock = std::size_t{1} << 22;
  /// Room past a block's end, for a window lent near it: a printer asks for the most
  /// one event can write, a few KB for the texts of the seed page.
  static constexpr std::size_t kSpill = std::size_t{1} << 18;
  /// Direct I/O wants buffer addresses, sizes and file offsets in multiples of the
  /// device's logical block size: 4096 covers the 512 and 4096 of today's disks.
  static constexpr std::size_t kAlign = 4096;

  Buffer(int fd, DirectIo direct)
      : fd_(fd), direct_tried_(direct == DirectIo::never), may_use_ring_(direct == DirectIo::when_possible) {
    take(allocate(kSmall), kSmall, 0);
  }
  ~Buffer() override {
    stop_writer();
    ring_.close();  // before the blocks it has pinned go
    release(space_);
    release(spare_);
  }
  /// The first failed write's errno, else 0. Complete once finish() has returned.
  int error() const { return error_; }
  std::uint64_t direct_bytes() const { return direct_bytes_; }
  std::uint64_t ring_bytes() const { return ring_bytes_; }

  std::span<char> window(std::size_t n) override {
    lent_scratch_ = false;
    std::size_t room = static_cast<std::size_t>(epptr() - pptr());
    if (room < n && size_ < kBlock) {
      make_room();  // the small buffer becomes a block (nothing was written, nothing failed)
      room = static_cast<std::size_t>(epptr() - pptr());
    }
    if (size_ == kBlock) room += kSpill;
    if (room >= n) return {pptr(), room};
    // More than a block's spill: lent from elsewhere and copied in.
    scratch_.resize(n);
    lent_scratch_ = true;
    return scratch_;
  }
  void advance(std::size_t n) override {
    if (lent_scratch_) {
      lent_scratch_ = false;
      xsputn(scratch_.data(), static_cast<std::streamsize>(n));
      return;
    }
    const std::size_t room = static_cast<std::size_t>(epptr() - pptr());
    if (n <= room) {
      pbump(static_cast<int>(n));
      return;
    }
    // The window ran into the spill: the block is full, and the spilled bytes begin the
    // next. The writer thread reads only the full block's first kBlock bytes, so they
    // can be copied while it writes; without a thread the block is written first.
    pbump(static_cast<int>(room));
    const char* full = space_;
    if (!make_room()) return;  // a failed file: the bytes are dropped with the rest
    std::memcpy(pptr(), full + kBlock, n - room);
    pbump(static_cast<int>(n - room));
  }

  /// Writes what is gathered, the last part through the page cache; false after any
  /// failed write. The file has every byte once this returns.
  bool finish() {
    stop_writer();
    ring_.close();
    std::size_t n = static_cast<std::size_t>(pptr() - pbase());
    setp(space_, space_ + size_);
    if (direct_ && !set_direct(false) && error_ == 0) error_ = errno;
    direct_ = false;
    if (error_ == 0 && n > 0) error_ = write_all(fd_, space_, n);
    return error_ == 0;
  }

protected:
  int_type overflow(int_type c) override {
    if (!make_room()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize count) override {
    std::size_t n = static_cast<std::size_t>(count), done = 0;
    while (done < n) {
      if (pptr() == epptr() && !make_room()) break;
      std::size_t k = std::min(n - done, static_cast<std::size_t>(epptr() - pptr()));
      std::memcpy(pptr(), s + done, k);
      pbump(static_cast<int>(k));
      done += k;
    }
    return static_cast<std::streamsize>(done);
  }
  // A flush keeps the bytes here: writing part of a block would leave the file's end
  // unaligned for the next block's direct write. Nobody reads the temporary anyway.
  int sync() override { return seen_error_ == 0 ? 0 : -1; }

private:
  int fd_;
  char* space_ = nullptr;  ///< the block being filled
  std::size_t size_ = 0;
  char* spare_ = nullptr;  ///< the block the writer thread writes, or the next to fill
  // Touched by the writer thread while it holds a block, by the caller otherwise: the
  // mutex hand-over orders the two.
  int error_ = 0;
  int seen_error_ = 0;  ///< error_ as the caller last saw it, to stop filling after a failure
  bool direct_tried_ = false, direct_ = false;
  std::uint64_t direct_bytes_ = 0;
  // The ring for the two blocks, set up with the writer thread and used by it alone.
  bool may_use_ring_;
  BlockRing ring_;
  iovec registered_[2]{};
  std::uint64_t ring_bytes_ = 0;
  // The writer thread, started at the first full block.
  std::thread writer_;
  std::mutex mutex_;
  std::condition_variable changed_;
  const char* job_ = nullptr;  ///< a full block handed to the writer, until written
  bool stop_ = false;
  // A window too large for the spill.
  std::vector<char> scratch_;
  bool lent_scratch_ = false;

  static char* allocate(std::size_t n) { return static_cast<char*>(::operator new(n, std::align_val_t{kAlign})); }
  static void release(char*& block) {
    if (block) ::operator delete(block, std::align_val_t{kAlign});
    block = nullptr;
  }
  /// Makes `space` of `size` bytes the buffer, its first `used` bytes already written.
  void take(char* space, std::size_t size, std::size_t used) {
    space_ = space;
    size_ = size;
    setp(space_, space_ + size_);
    pbump(static_cast<int>(used));
  }
  bool set_direct(bool on) {
    int flags = ::fcntl(fd_, F_GETFL);
    return flags >= 0 && ::fcntl(fd_, F_SETFL, on ? flags | O_DIRECT : flags & ~O_DIRECT) == 0;
  }
  /// The buffer is full: a small one becomes a block, a full block goes to the writer.
  bool make_room() {
    if (size_ < kBlock) {  // nothing was written yet, so nothing has failed
      char* block = allocate(kBlock + kSpill);
      std::size_t used = static_cast<std::size_t>(pptr() - pbase());  // all of it, unless window() asks
      std::memcpy(block, space_, used);
      release(space_);
      take(block, kBlock, used);
      return true;
    }
    int failed = hand_over();
    if (failed < 0) {  // no thread to be had: written here
      write_block(space_);
      failed = error_;
    }
    setp(space_, space_ + size_);
    seen_error_ = failed;
    return failed == 0;
  }
  /// Gives the full block to the writer thread and takes the spare to fill, unless an
  /// earlier block failed: that block's errno, else 0; -1 if no thread could be started.
  int hand_over() {
    if (!writer_.joinable()) {
      try {
        spare_ = allocate(kBlock + kSpill);
        if (may_use_ring_) {
          registered_[0] = {space_, kBlock};
          registered_[1] = {spare_, kBlock};
          ring_.open(registered_);
        }
        writer_ = std::thread([this] { write_blocks(); });
      } catch (const std::exception&) {
        ring_.close();
        release(spare_);
        return -1;
      }
    }
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return job_ == nullptr; });
    if (error_ == 0) {
      job_ = space_;
      std::swap(space_, spare_);
      changed_.notify_all();
    }
    return error_;
  }
  void write_blocks() {
    std::unique_lock lock(mutex_);
    for (;;) {
      changed_.wait(lock, [this] { return job_ != nullptr || stop_; });
      if (job_ == nullptr) return;  // stopped, nothing left to write
      const char* block = job_;
      lock.unlock();
      write_block(block);
      lock.lock();
      job_ = nullptr;
      changed_.notify_all();
    }
  }
  /// Waits for the block in hand to be written and ends the writer thread.
  void stop_writer() {
    if (!writer_.joinable()) return;
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
      changed_.notify_all();
    }
    writer_.join();
  }
  void write_block(const char* p) {
    if (!direct_tried_) {
      direct_tried_ = true;
      direct_ = set_direct(true);
    }
    std::size_t n = kBlock;
    if (direct_) {
      ssize_t k = ring_write(p);
      if (k == BlockRing::kNotTaken) {
        do k = ::write(fd_, p, n);
        while (k < 0 && errno == EINTR);
      }
      if (k < 0 && errno != EINVAL) {
        error_ = errno;
        return;
      }
      if (k > 0) {
        p += k;
        n -= static_cast<std::size_t>(k);
        direct_bytes_ += static_cast<std::uint64_t>(k);
      }
      // Refused (EINVAL: this file system or device wants other alignment) or cut short,
      // which may leave the file's end unaligned: the rest goes through the page cache.
      if (n > 0) {
        direct_ = false;
        ring_.close();
        if (!set_direct(false)) {
          error_ = errno;
          return;
        }
      }
    }
    if (n > 0) error_ = write_all(fd_, p, n);
  }
  /// A direct write of the full block `p` through the ring, as write(2) answers (bytes
  /// written, or -1 and errno), or kNotTaken when it is for write(2) to do: no ring,
  /// or a ring that failed (it is not used again). A write the file refused (EFBIG,
  /// ENOSPC, EINVAL) is also given to write(2), which gets the same answer and makes
  /// the error the one the caller would have seen without a ring.
  ssize_t ring_write(const char* p) {
    if (!ring_.is_open()) return BlockRing::kNotTaken;
    const long k = ring_.write(fd_, p == registered_[0].iov_base ? 0 : 1, kBlock);
    if (k >= 0) {
      ring_bytes_ += static_cast<std::uint64_t>(k);
      return k;
    }
    ring_.close();
    return BlockRing::kNotTaken;
  }
};

AtomicFile::AtomicFile(std::string path, DirectIo direct)
    : path_(std::move(path)), temporary_(temporary_for(path_)), direct_io_(direct), stream_(nullptr) {}

AtomicFile::~AtomicFile() { discard(); }

OutputWindow& AtomicFile::output() { return *buffer_; }

namespace {
// Temporaries that a killed or crashed writer left: `.NAME.tmp.PID.N` beside `path`
// whose process no longer exists. Unlike one fixed temporary name, which the next run
// simply overwrote, a name per writer would otherwise pile up run after run (a nightly
// job stopped by a timeout leaves half a gigabyte each time). A live process's are
// left alone, whatever it is; so is anything not named exactly so.
void remove_stale_temporaries(const std::string& path) {
  const std::string prefix = temporary_prefix(path);
  DIR* dir = ::opendir(folder_of(path).c_str());
  if (!dir) return;
  while (const dirent* entry = ::readdir(dir)) {
    std::string_view name = entry->d_name;
    if (!name.starts_with(prefix)) continue;
    std::string_view rest = name.substr(prefix.size());  // PID.N
    std::size_t dot = rest.find('.');
    if (dot == 0 || dot == std::string_view::npos || dot + 1 == rest.size()) continue;
    auto digits = [](std::string_view s) { return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }); };
    if (!digits(rest.substr(0, dot)) || !digits(rest.substr(dot + 1)) || dot > 9) continue;
    pid_t pid = static_cast<pid_t>(std::stol(std::string(rest.substr(0, dot))));
    if (pid == ::getpid() || ::kill(pid, 0) == 0 || errno != ESRCH) continue;
    ::unlinkat(::dirfd(dir), entry->d_name, 0);
  }
  ::closedir(dir);
}
}  // namespace

bool AtomicFile::open(std::string& error) {
  discard();
  remove_stale_temporaries(path_);
  fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    error = os_error(path_);
    return false;
  }
  synced_ = false;
  direct_bytes_ = ring_bytes_ = 0;
  buffer_ = std::make_unique<Buffer>(fd_, direct_io_);
  stream_.rdbuf(buffer_.get());
  stream_.clear();
  return true;
}

bool AtomicFile::sync(std::string& error) {
  if (synced_) return true;
  if (fd_ < 0 || !buffer_) {
    error = path_ + ": not open for writing";
    return false;
  }
  buffer_->finish();
  direct_bytes_ = buffer_->direct_bytes();
  ring_bytes_ = buffer_->ring_bytes();
  int failed = buffer_->error();
  if (failed == 0 && !stream_) failed = EIO;
  if (failed == 0 && ::fsync(fd_) != 0) failed = errno;
  if (failed == 0 && ::close(fd_) != 0) failed = errno;
  else if (failed != 0) ::close(fd_);
  fd_ = -1;
  stream_.rdbuf(nullptr);
  buffer_.reset();
  if (failed != 0) {
    error = os_error(path_, failed);
    ::unlink(temporary_.c_str());
    return false;
  }
  synced_ = true;
  return true;
}

void AtomicFile::discard() {
  // The buffer first: its writer thread may still be writing to the descriptor.
  stream_.rdbuf(nullptr);
  buffer_.reset();
  if (fd_ >= 0) ::close(fd_);
  if (fd_ >= 0 || synced_) ::unlink(temporary_.c_str());
  fd_ = -1;
  synced_ = false;
}

bool AtomicFile::place(std::string& error) {
  synced_ = false;  // renamed or removed below: nothing is left for discard()
  if (std::rename(temporary_.c_str(), path_.c_str()) == 0) return true;
  error = os_error(path_);
  ::unlink(temporary_.c_str());
  return false;
}

bool AtomicFile::commit(std::string& error) {
  if (!sync(error) || !place(error)) return false;
  sync_folder(folder_of(path_));
  return true;
}

bool commit_together(const std::vector<AtomicFile*>& files, std::vector<std::string>& errors) {
  std::size_t before = errors.size();
  for (AtomicFile* f : files) {
    std::string error;
    if (!f->sync(error)) errors.push_back(error);
  }
  if (errors.size() != before) {
    for (AtomicFile* f : files) f->discard();
    return false;
  }
  std::vector<std::string> folders;
  for (AtomicFile* f : files) {
    std::string error;
    if (!f->place(error)) errors.push_back(error);
    std::string folder = folder_of(f->path());
    if (std::find(folders.begin(), folders.end(), folder) == folders.end()) folders.push_back(folder);
  }
  for (const auto& folder : folders) sync_folder(folder);
  return errors.size() == before;
}

bool write_file_atomic(const std::string& path, std::string_view content, std::string& error) {
  AtomicFile file(path);
  if (!file.open(error)) return false;
  file.stream().write(content.data(), static_cast<std::streamsize>(content.size()));
  return file.commit(error);
}

}  // namespace wikic::support
