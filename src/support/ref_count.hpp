// RefCount: the reference count of the immutable objects that records share (extract's
// SharedText, SharedList, select's Condition), atomic unless the program declared that
// those objects never leave the thread that made them: a locked add or subtract costs
// about twenty cycles, and a compile updated such counts about 12.5 K times a page.
// CountedRef holds such an object for all of them; SharedConst is shared_ptr<const T>'s.
#pragma once
#include <atomic>
#include <cstddef>
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

/// A counted reference to a `Block` made with a count of 1 in its member `refs` and
/// freed by `Block::destroy`: the holding side of every shared record object, so that
/// copies, moves and assignments count alike in all of them. Copies are inline, and an
/// assignment between holders of the same block touches no count (a rule takes about
/// ten texts from the block around it and the memos); the release is out of line (a
/// rule holds about sixteen texts, many of them empty, and inlined releases made each
/// of its fields' destructors a copy of the count's code).
template <class Block>
class CountedRef {
public:
  CountedRef() = default;
  /// Takes over the count of 1 that `block` was made with.
  explicit CountedRef(Block* block) noexcept : block_(block) {}
  CountedRef(const CountedRef& o) noexcept : block_(o.block_) {
    if (block_) block_->refs.add();
  }
  CountedRef(CountedRef&& o) noexcept : block_(std::exchange(o.block_, nullptr)) {}
  CountedRef& operator=(const CountedRef& o) noexcept {
    Block* const kept = block_;
    if (kept == o.block_) return *this;
    block_ = o.block_;
    if (block_) block_->refs.add();
    if (kept) release(kept);
    return *this;
  }
  CountedRef& operator=(CountedRef&& o) noexcept {
    std::swap(block_, o.block_);
    return *this;
  }
  ~CountedRef() {
    if (block_) release(block_);
  }

  Block* operator->() const noexcept { return block_; }
  explicit operator bool() const noexcept { return block_ != nullptr; }
  friend bool operator==(const CountedRef& a, const CountedRef& b) noexcept { return a.block_ == b.block_; }

private:
  [[gnu::noinline]] static void release(Block* block) noexcept {
    if (block->refs.drop()) Block::destroy(block);
  }
  Block* block_ = nullptr;
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
    p.ref_ = CountedRef<Block>(new Block{RefCount(1), T(std::forward<Args>(args)...)});
    return p;
  }

  const T* get() const noexcept { return ref_ ? &ref_->value : nullptr; }
  const T& operator*() const noexcept { return ref_->value; }
  const T* operator->() const noexcept { return &ref_->value; }
  explicit operator bool() const noexcept { return static_cast<bool>(ref_); }
  friend bool operator==(const SharedConst& a, const SharedConst& b) noexcept { return a.ref_ == b.ref_; }

private:
  struct Block {
    RefCount refs;
    T value;
    static void destroy(Block* block) noexcept { delete block; }
  };
  CountedRef<Block> ref_;
};

}  // namespace wikic::support
