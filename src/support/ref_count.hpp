// RefCount: the reference count of the immutable objects that records share (extract's
// SharedText, SharedList, select's Condition), atomic unless the program declared that
// those objects never leave the thread that made them: a locked add or subtract costs
// about twenty cycles, and a compile updated such counts about 12.5 K times a page.
#pragma once
#include <atomic>
#include <cstddef>
#include <new>
#include <utility>
#ifdef _GLIBCXX_ASSERTIONS
#include <cstdio>
#include <cstdlib>
#include <thread>
#endif

namespace wikic::support {

class RefCount {
public:
  /// For a program whose counted objects all stay on one thread (the wikic executable:
  /// its only other thread writes finished bytes to disk). Called first thing in main,
  /// before any counted object exists and before any other thread starts; a library
  /// whose user may hand records to other threads never calls it, and its counts stay
  /// atomic. The choice is the program's, as libstdc++'s shared_ptr counts without
  /// locked instructions while a program has not started a thread.
  /// Checked builds (_GLIBCXX_ASSERTIONS) stop with a message when a count is updated
  /// on another thread afterwards.
  static void confine_to_this_thread() noexcept {
    one_thread_ = true;
#ifdef _GLIBCXX_ASSERTIONS
    owner_ = std::this_thread::get_id();
#endif
  }

  explicit RefCount(std::size_t n) noexcept : n_(n) {}

  void add() noexcept {
    check_thread();
    // Relaxed: a new holder copies from an existing one, which keeps the object alive.
    if (one_thread_) n_.store(n_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    else n_.fetch_add(1, std::memory_order_relaxed);
  }

  /// Drops one holder; true when it was the last, and the object is to be freed.
  bool drop() noexcept {
    check_thread();
    // A count of 1 is the caller's own: no other holder exists that could copy the
    // object meanwhile, so the last holder frees it without a locked subtract. The
    // acquire load pairs with the release half of other holders' earlier subtracts.
    std::size_t n = n_.load(std::memory_order_acquire);
    if (n == 1) return true;
    if (one_thread_) {
      n_.store(n - 1, std::memory_order_relaxed);
      return false;
    }
    return n_.fetch_sub(1, std::memory_order_acq_rel) == 1;
  }

private:
  static void check_thread() noexcept {
#ifdef _GLIBCXX_ASSERTIONS
    if (one_thread_ && std::this_thread::get_id() != owner_) {
      std::fputs("wikic: a reference count confined to one thread was updated on another\n", stderr);
      std::abort();
    }
#endif
  }

  std::atomic<std::size_t> n_;
  inline static bool one_thread_ = false;
#ifdef _GLIBCXX_ASSERTIONS
  inline static std::thread::id owner_;
#endif
};

/// A shared_ptr<const T> for objects made once and then only read, with the count in
/// the object's own allocation and kept by RefCount (shared_ptr's is always atomic once
/// a program has started a thread, and the block writer is one).
template <class T>
class SharedConst {
public:
  SharedConst() = default;
  template <class... Args>
  static SharedConst make(Args&&... args) {
    SharedConst p;
    p.block_ = new Block{RefCount(1), T(std::forward<Args>(args)...)};
    return p;
  }
  SharedConst(const SharedConst& o) noexcept : block_(o.block_) {
    if (block_) block_->refs.add();
  }
  SharedConst(SharedConst&& o) noexcept : block_(std::exchange(o.block_, nullptr)) {}
  SharedConst& operator=(const SharedConst& o) noexcept {
    Block* const kept = block_;
    if (kept == o.block_) return *this;
    block_ = o.block_;
    if (block_) block_->refs.add();
    if (kept) release(kept);
    return *this;
  }
  SharedConst& operator=(SharedConst&& o) noexcept {
    std::swap(block_, o.block_);
    return *this;
  }
  ~SharedConst() {
    if (block_) release(block_);
  }

  const T* get() const noexcept { return block_ ? &block_->value : nullptr; }
  const T& operator*() const noexcept { return block_->value; }
  const T* operator->() const noexcept { return &block_->value; }
  explicit operator bool() const noexcept { return block_ != nullptr; }
  friend bool operator==(const SharedConst& a, const SharedConst& b) noexcept { return a.block_ == b.block_; }

private:
  struct Block {
    RefCount refs;
    T value;
  };
  static void release(Block* block) noexcept {
    if (block->refs.drop()) delete block;
  }
  Block* block_ = nullptr;
};

}  // namespace wikic::support
