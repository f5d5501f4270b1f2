// mmap of a regular input file, with a SIGBUS guard. Only the size fstat reports at
// open is mapped, so the reader never touches a page the file did not have. A file
// that another process truncates while we read it is the one danger left: touching a
// mapped page past its new end raises SIGBUS, which would end the process. Reading
// with read(2) instead would be safe (a shorter file is just an earlier end of file)
// but costs a copy of every byte into user memory, so the mapping is kept and guarded:
// a SIGBUS inside a guarded mapping replaces the rest of it with zero pages and marks
// it, the reader sees the mark and reports that the file changed under it. Faults
// anywhere else go to the handler that was installed before ours (the sanitizers').
// The cost: a process-wide handler, installed at the first mapping and kept. A file
// rewritten in place at the same size gives mixed bytes either way; read(2) cannot
// tell either.
#include "ingest/mapped_input.hpp"

#include <atomic>
#include <csignal>
#include <cstdint>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace wikic::ingest {

namespace {
/// Pages already read are dropped once this much has been consumed past them: a few
/// hundred madvise calls per 100 MB, and about a megabyte held behind the reader (the
/// kernel maps some ahead of it, whole large folios of the page cache: ~2 MB more).
constexpr std::size_t release_step = 1u << 20;

struct Guard {
  std::atomic<bool> used{false};
  std::atomic<std::uintptr_t> begin{0}, end{0};
  std::atomic<bool> faulted{false};
};
// Fixed storage: the handler may look only at memory that exists without allocation.
constexpr int guard_slots = 16;
Guard guards[guard_slots];
std::uintptr_t page_mask = ~std::uintptr_t{4095};
struct sigaction previous_action;
std::atomic<bool> handler_installed{false};

void on_sigbus(int sig, siginfo_t* info, void* context) {
  auto addr = reinterpret_cast<std::uintptr_t>(info->si_addr);
  for (auto& g : guards) {
    std::uintptr_t begin = g.begin.load(), end = g.end.load();
    if (addr < begin || addr >= end) continue;
    // mmap is a plain system call on Linux, safe here though POSIX does not list it.
    std::uintptr_t page = addr & page_mask;
    void* zeros = ::mmap(reinterpret_cast<void*>(page), end - page, PROT_READ,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (zeros != MAP_FAILED) {
      g.faulted.store(true);
      return;  // the faulting read runs again and finds a zero
    }
  }
  if (previous_action.sa_flags & SA_SIGINFO) {
    previous_action.sa_sigaction(sig, info, context);
  } else if (previous_action.sa_handler != SIG_DFL && previous_action.sa_handler != SIG_IGN) {
    previous_action.sa_handler(sig);
  } else {
    // What would have happened without us: the default action, once this handler returns.
    ::signal(SIGBUS, SIG_DFL);
    ::raise(SIGBUS);
  }
}

void install_handler() {
  if (handler_installed.exchange(true)) return;
  struct sigaction action {};
  action.sa_sigaction = on_sigbus;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGBUS, &action, &previous_action);
}
}  // namespace

bool MappedInput::map(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return false;
  off_t at = ::lseek(fd, 0, SEEK_CUR);
  if (at < 0 || at >= st.st_size) return false;
  int slot = -1;
  for (int i = 0; i < guard_slots && slot < 0; ++i)
    if (!guards[i].used.exchange(true)) slot = i;
  if (slot < 0) return false;  // unguarded mapping could crash: read(2) instead
  auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  page_mask = ~static_cast<std::uintptr_t>(page - 1);
  auto start = static_cast<std::size_t>(at) & ~(page - 1);
  std::size_t length = static_cast<std::size_t>(st.st_size) - start;
  void* p = ::mmap(nullptr, length, PROT_READ, MAP_PRIVATE, fd, static_cast<off_t>(start));
  if (p == MAP_FAILED) {
    guards[slot].used.store(false);
    return false;
  }
  install_handler();
  map_ = static_cast<char*>(p);
  map_size_ = length;
  data_ = map_ + (static_cast<std::size_t>(at) - start);
  size_ = static_cast<std::size_t>(st.st_size - at);
  slot_ = slot;
  fd_ = fd;
  file_size_ = st.st_size;
  Guard& g = guards[slot];
  g.faulted.store(false);
  g.end.store(0);
  g.begin.store(reinterpret_cast<std::uintptr_t>(map_));
  g.end.store((reinterpret_cast<std::uintptr_t>(map_) + length + page - 1) & page_mask);
  ::madvise(map_, length, MADV_SEQUENTIAL);
  return true;
}

MappedInput::~MappedInput() {
  if (!map_) return;
  Guard& g = guards[slot_];
  g.end.store(0);
  g.begin.store(0);
  ::munmap(map_, map_size_);
  g.used.store(false);
}

void MappedInput::release(std::size_t upto) {
  if (!map_ || upto < released_ + release_step) return;
  auto from = reinterpret_cast<std::uintptr_t>(data_ + released_) & page_mask;
  auto to = reinterpret_cast<std::uintptr_t>(data_ + upto) & page_mask;
  if (to > from) ::madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
  released_ = upto;
}

bool MappedInput::faulted() const { return map_ && guards[slot_].faulted.load(); }

bool MappedInput::shrunk() const {
  if (!map_) return false;
  if (faulted()) return true;
  // A file cut inside its last page reads zeros there without any fault.
  struct stat st {};
  return ::fstat(fd_, &st) == 0 && st.st_size < file_size_;
}

}  // namespace wikic::ingest
