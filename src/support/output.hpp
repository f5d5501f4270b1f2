// Output that a printer writes straight into: the destination lends writable memory at
// its end and is told how much of it was filled. The rule files are 1.2 GB for a 180 MB
// export; a printer's own buffer copied into the file's would move every byte twice.
#pragma once
#include <cstddef>
#include <ostream>
#include <span>
#include <vector>

namespace wikic::support {

/// The end of an output, lent out a window at a time.
class OutputWindow {
public:
  virtual ~OutputWindow() = default;
  /// At least `n` writable bytes that continue the output (usually more). Replaces any
  /// window lent before, whose bytes are lost unless advance() took them.
  virtual std::span<char> window(std::size_t n) = 0;
  /// The first `n` bytes of the current window are output now; the window is spent.
  virtual void advance(std::size_t n) = 0;
};

/// Windows on a std::ostream (a string in tests, a small file): lent from a buffer of its
/// own and written to the stream at each advance(), the one copy the files avoid.
class StreamWindow final : public OutputWindow {
public:
  explicit StreamWindow(std::ostream& os) : os_(os) {}
  std::span<char> window(std::size_t n) override {
    if (buffer_.size() < n) buffer_.resize(n < 65536 ? 65536 : n);
    return buffer_;
  }
  void advance(std::size_t n) override { os_.write(buffer_.data(), static_cast<std::streamsize>(n)); }

private:
  std::ostream& os_;
  std::vector<char> buffer_;
};

}  // namespace wikic::support
