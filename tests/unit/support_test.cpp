// Unit tests of src/support: line index, positions, SHA-1 in MediaWiki's base 36,
// UTF-8 validation, atomic writes, the byte scans and the shared objects' counts.
#include <doctest/doctest.h>

#include <algorithm>
#include <span>
#include <cstdlib>
#include <cstring>
#include <csignal>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "support/diagnostic.hpp"
#include "support/files.hpp"
#include "support/ref_count.hpp"
#include "support/scan.hpp"
#include "support/sha1.hpp"
#include "support/source.hpp"
#include "support/utf8.hpp"
#include "util/run.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace wikic::support;

TEST_CASE("line index maps byte offsets to 1-based line and code-point column") {
  std::string text = "ab\nc\xC3\xA9" "d\n\nx";
  LineIndex idx(text);
  CHECK(idx.line_count() == 4);
  CHECK(idx.position(0) == Position{1, 1});
  CHECK(idx.position(2) == Position{1, 3});
  CHECK(idx.position(3) == Position{2, 1});
  CHECK(idx.position(6) == Position{2, 3});  // after the two-byte é: column counts code points
  CHECK(idx.position(8) == Position{3, 1});
  CHECK(idx.position(9) == Position{4, 1});
  CHECK(idx.position(1000) == Position{4, 2});  // clamped to the end
}

TEST_CASE("a line index copied or moved before its first query answers like the original") {
  std::string text = "one\ntwo\n\nfour";
  LineIndex original(text);
  LineIndex copy = original;  // neither has looked at the text yet
  LineIndex moved = std::move(original);
  CHECK(copy.position(8) == Position{3, 1});  // the empty third line
  CHECK(moved.position(10) == Position{4, 2});
  CHECK(copy.line_count() == 4);
  CHECK(moved.line_start(4) == 9);
  CHECK(copy.offset({2, 3}) == 6);
  LineIndex empty;
  CHECK(empty.line_count() == 1);
  CHECK(empty.position(5) == Position{1, 1});
}

TEST_CASE("advance() agrees with the line index") {
  std::string text = "<page>\n  <title>\xC3\xA9t\xC3\xA9</title>\n";
  LineIndex idx(text);
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
    CHECK(advance({1, 1}, std::string_view(text).substr(0, i)) == idx.position(i));
  }
  CHECK(count_newlines(text) == 2);
}

TEST_CASE("long texts: line index, newline count and columns agree with a byte-by-byte count") {
  // Longer than the blocks the counting works in (16 bytes, sums every 255 blocks), with
  // lines from empty to thousands of bytes and multi-byte characters across blocks.
  std::string text;
  unsigned seed = 7;
  while (text.size() < 20000) {
    seed = seed * 1103515245u + 12345u;
    unsigned r = (seed >> 16) % 100;
    if (r < 10) text += '\n';
    else if (r < 15) text += "\xC3\xA9";
    else if (r == 99) text += std::string(5000, 'x');
    else text += static_cast<char>('a' + r % 26);
  }
  std::size_t newlines = 0, line_start = 0, line = 1;
  LineIndex idx(text);
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
    if (i % 97 == 0 || i == text.size()) {
      std::uint32_t column = 1;
      for (std::size_t k = line_start; k < i; ++k) column += (static_cast<unsigned char>(text[k]) & 0xC0) != 0x80;
      Position expected{static_cast<std::uint32_t>(line), column};
      CHECK(idx.position(i) == expected);
      CHECK(advance({1, 1}, std::string_view(text).substr(0, i)) == expected);
      CHECK(count_newlines(std::string_view(text).substr(0, i)) == newlines);
    }
    if (i < text.size() && text[i] == '\n') {
      ++newlines;
      ++line;
      line_start = i + 1;
    }
  }
  CHECK(idx.line_count() == newlines + 1);
}

TEST_CASE("sha1 in hex and in MediaWiki's base 36") {
  CHECK(sha1_hex("abc") == "a9993e364706816aba3e25717850c26c9cd0d89d");
  CHECK(sha1_hex("") == "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  // MediaWiki's well-known sha1 of the empty revision text.
  CHECK(sha1_base36("") == "phoiac9h4m842xq45sp7s6u21eteeq1");
  CHECK(sha1_base36("abc") == "jt72fo5t4yobf0qugwuczbwj07max7h");
  // Multi-block input crosses the 64-byte padding boundaries.
  CHECK(sha1_base36(std::string(1000, 'a')) == "4swz3iqrpqx5kayv7dstpy3kas16bp6");
  for (std::size_t n : {55u, 56u, 63u, 64u, 65u})
    CHECK(sha1_hex(std::string(n, 'x')).size() == 40);
}

TEST_CASE("UTF-8 validation finds the first bad byte and repairs with U+FFFD") {
  CHECK(find_invalid_utf8("plain ascii") == std::string::npos);
  CHECK(find_invalid_utf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80") == std::string::npos);
  CHECK(find_invalid_utf8("ab\xFF" "cd") == 2);
  CHECK(find_invalid_utf8("\xC0\xAF") == 0);          // overlong
  CHECK(find_invalid_utf8("x\xED\xA0\x80") == 1);      // surrogate
  CHECK(find_invalid_utf8("\xE2\x82") == 0);           // truncated sequence
  // Past the sixteen-byte ASCII blocks: a bad byte at every offset of a long text, and
  // a valid sequence across a block boundary.
  for (std::size_t at = 0; at < 70; ++at) {
    std::string text(80, 'a');
    text[at] = '\xFF';
    CHECK(find_invalid_utf8(text) == at);
  }
  std::string across = std::string(15, 'a') + "\xE2\x82\xAC" + std::string(30, 'b') + "\xC3\xA9";
  CHECK(find_invalid_utf8(across) == std::string::npos);
  CHECK(find_invalid_utf8(across + std::string(20, 'c') + "\xC3") == across.size() + 20);
  CHECK(replace_invalid_utf8("ab\xFF" "cd") == "ab\xEF\xBF\xBD" "cd");
  CHECK(replace_invalid_utf8("\xE2\x82") == "\xEF\xBF\xBD");
}

TEST_CASE("diagnostics print GNU style and are counted") {
  DiagnosticSink sink;
  sink.error("dump.xml", {3, 7}, "bad thing");
  sink.warning("dump.xml", nowhere, "no position");
  CHECK(sink.errors() == 1);
  CHECK(sink.warnings() == 1);
  CHECK(sink.all()[0].format() == "dump.xml:3:7: error: bad thing");
  CHECK(sink.all()[1].format() == "dump.xml: warning: no position");
  // format_to appends to what the string holds (a page's lines gathered in one string).
  std::string lines = "earlier\n";
  sink.all()[0].format_to(lines);
  lines += '\n';
  sink.all()[1].format_to(lines);
  CHECK(lines == "earlier\ndump.xml:3:7: error: bad thing\ndump.xml: warning: no position");
}

TEST_CASE("atomic write replaces a file whole and reports failures") {
  wikic::test::ScratchDir dir;
  std::string error;
  auto path = (dir / "a.txt").string();
  REQUIRE(write_file_atomic(path, "first", error));
  REQUIRE(write_file_atomic(path, "second", error));
  CHECK(wikic::test::slurp(path) == "second");
  CHECK(std::distance(std::filesystem::directory_iterator(dir.path), {}) == 1);  // no temp left
  CHECK_FALSE(write_file_atomic((dir / "missing/a.txt").string(), "x", error));
  CHECK(error.find("No such file or directory") != std::string::npos);
  auto back = read_file(path, error);
  REQUIRE(back);
  CHECK(*back == "second");
  CHECK_FALSE(read_file((dir / "nope").string(), error));
}

namespace {
std::vector<std::string> folder_entries(const std::filesystem::path& folder) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(folder)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}
}  // namespace

TEST_CASE("an atomic file holds every byte written, in small pieces and in blocks larger than its buffer") {
  wikic::test::ScratchDir dir;
  auto path = (dir / "rules.json").string();
  AtomicFile file(path);
  std::string error;
  REQUIRE(file.open(error));
  CHECK(file.temporary().find("/.rules.json.tmp.") != std::string::npos);
  std::string expected;
  std::uint32_t seed = 7;
  for (int i = 0; i < 400; ++i) {
    seed = seed * 1103515245u + 12345u;
    // Sizes from one byte to three times the 64 KB buffer, so every path of the buffer
    // (gather, drain then gather, drain then write straight) is taken many times.
    std::size_t n = i % 7 == 0 ? 200000 + seed % 9000 : i % 3 == 0 ? 65536 - seed % 50 : 1 + seed % 3000;
    std::string piece(n, static_cast<char>('a' + i % 26));
    piece[0] = '\n';
    if (i % 2) file.stream() << piece;
    else
      for (char c : piece.substr(0, 64)) file.stream().put(c), expected += c;
    if (i % 2) expected += piece;
  }
  CHECK(std::filesystem::exists(file.temporary()));
  CHECK_FALSE(std::filesystem::exists(path));  // nothing replaces the path before commit
  REQUIRE(file.commit(error));
  CHECK(wikic::test::slurp(path) == expected);
  CHECK(folder_entries(dir.path) == std::vector<std::string>{"rules.json"});
}

namespace {
// Whether `folder`'s file system takes direct I/O (the kernel decides per file system;
// tmpfs does since Linux 6.6): what an atomic file there should have done with it.
bool takes_direct_io(const std::filesystem::path& folder) {
  std::string probe = (folder / "probe").string();
  int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_DIRECT, 0644);
  bool ok = false;
  if (fd >= 0) {
    void* block = nullptr;
    ok = ::posix_memalign(&block, 4096, 4096) == 0 && ::write(fd, std::memset(block, 'p', 4096), 4096) == 4096;
    std::free(block);
    ::close(fd);
  }
  ::unlink(probe.c_str());
  return ok;
}

// What direct_bytes() must say of a file of `size` bytes written in `folder`: every full
// 4 MB block that more bytes follow, and only those (the rest, even a whole block at the
// end, goes through the page cache at sync), and nothing when direct I/O is off or the
// file system refuses it.
std::uint64_t expected_direct_bytes(std::size_t size, AtomicFile::DirectIo mode, const std::filesystem::path& folder) {
  if (mode == AtomicFile::DirectIo::never || !takes_direct_io(folder)) return 0;
  return size == 0 ? 0 : (size - 1) / (std::size_t{1} << 22) * (std::size_t{1} << 22);
}

// Every way a large file's blocks can go: through io_uring where the kernel allows it,
// by write(2) as where it does not (a container's filter, an old kernel), and through
// the page cache.
constexpr AtomicFile::DirectIo kEveryPath[] = {AtomicFile::DirectIo::when_possible, AtomicFile::DirectIo::without_ring,
                                               AtomicFile::DirectIo::never};

// What ring_bytes() may say: all the direct bytes where io_uring could be had, none
// where it could not, and none at all on the paths without it.
void check_ring_bytes(const AtomicFile& file, AtomicFile::DirectIo mode) {
  if (mode == AtomicFile::DirectIo::when_possible && file.ring_bytes() != 0) CHECK(file.ring_bytes() == file.direct_bytes());
  else CHECK(file.ring_bytes() == 0);
}

// 13 MB in pieces of every kind: single characters, short writes, writes larger than a
// 4 MB block, and an end that falls inside a block. Returns what was written.
std::string write_large(AtomicFile& file) {
  std::string expected;
  std::uint32_t seed = 11;
  for (int i = 0; expected.size() < 13'000'000; ++i) {
    seed = seed * 1103515245u + 12345u;
    std::size_t n = i % 11 == 0 ? 4'500'000 + seed % 9000 : i % 3 == 0 ? 65536 + seed % 50 : 1 + seed % 3000;
    std::string piece(n, static_cast<char>('a' + i % 26));
    piece[n / 2] = '\n';
    if (i % 5 == 4) {
      for (char c : piece.substr(0, 100)) file.stream().put(c);
      expected += piece.substr(0, 100);
    } else {
      file.stream() << piece;
      expected += piece;
    }
  }
  return expected;
}
}  // namespace

TEST_CASE("a large atomic file is whole, its full blocks written past the page cache where the file system allows") {
  wikic::test::ScratchDir dir;
  std::string error;
  for (auto mode : kEveryPath) {
    auto path = (dir / "rules.xml").string();
    AtomicFile file(path, mode);
    REQUIRE(file.open(error));
    std::string expected = write_large(file);
    file.stream().flush();  // a flush in the middle must not break the blocks' alignment
    file.stream() << "tail\n";
    expected += "tail\n";
    REQUIRE(file.commit(error));
    CHECK(wikic::test::slurp(path) == expected);
    CHECK(file.direct_bytes() == expected_direct_bytes(expected.size(), mode, dir.path));
    check_ring_bytes(file, mode);
    CHECK(folder_entries(dir.path) == std::vector<std::string>{"rules.xml"});
  }
  // Under 64 KB nothing is written before sync(), and nothing directly.
  AtomicFile small((dir / "pages.yaml").string());
  REQUIRE(small.open(error));
  small.stream() << "pages: []\n";
  REQUIRE(small.commit(error));
  CHECK(small.direct_bytes() == 0);
  CHECK(wikic::test::slurp(dir / "pages.yaml") == "pages: []\n");
}

// A printer's way of writing (emit's Sink): windows asked for in assorted sizes, each
// filled only in part, some spilling past a 4 MB block's end, one larger than the spill,
// and stream writes in between. The file must hold exactly the advanced bytes.
TEST_CASE("an atomic file written in place through windows holds exactly the bytes advanced") {
  wikic::test::ScratchDir dir;
  std::string error;
  for (auto mode : kEveryPath) {
    auto path = (dir / "rules.yaml").string();
    AtomicFile file(path, mode);
    REQUIRE(file.open(error));
    std::string expected;
    std::uint32_t seed = 7;
    for (int i = 0; expected.size() < 11'000'000; ++i) {
      seed = seed * 1103515245u + 12345u;
      std::size_t ask = i == 40 ? 4'600'000 : i % 7 == 0 ? 300'000 + seed % 4000 : 1 + seed % 70'000;
      std::span<char> room = file.output().window(ask);
      REQUIRE(room.size() >= ask);
      std::size_t used = ask - (ask > 10 ? seed % (ask / 10) : 0);
      for (std::size_t k = 0; k < used; ++k) room[k] = static_cast<char>('A' + (i + k) % 26);
      expected.append(room.data(), used);
      file.output().advance(used);
      if (i % 9 == 8) {
        file.stream() << "stream " << i << '\n';
        expected += "stream " + std::to_string(i) + '\n';
      }
    }
    REQUIRE(file.commit(error));
    CHECK(wikic::test::slurp(path) == expected);
    CHECK(file.direct_bytes() == expected_direct_bytes(expected.size(), mode, dir.path));
    check_ring_bytes(file, mode);
  }
}

// Files that end exactly at a block's end, just past one, and a byte or a page short of
// one: the last full block and the tail after it must meet without a gap or an overlap
// on every path. The bytes differ from block to block and from page to page, so a block
// written twice, in the wrong place or from the wrong buffer shows.
TEST_CASE("an atomic file of any size ends where its bytes end, on every path of its blocks") {
  wikic::test::ScratchDir dir;
  std::string error;
  constexpr std::size_t block = std::size_t{1} << 22;
  for (std::size_t size : {block, 2 * block + 1, 3 * block - 4096, 3 * block - 1, 2 * block + 4097}) {
    std::string expected(size, '\0');
    for (std::size_t i = 0; i < size; ++i) expected[i] = static_cast<char>('!' + (i / 4093 + i * 7) % 90);
    for (auto mode : kEveryPath) {
      CAPTURE(size);
      CAPTURE(static_cast<int>(mode));
      auto path = (dir / "rules.json").string();
      AtomicFile file(path, mode);
      REQUIRE(file.open(error));
      for (std::size_t at = 0; at < size; at += 100'003)
        file.stream().write(expected.data() + at, static_cast<std::streamsize>(std::min<std::size_t>(100'003, size - at)));
      REQUIRE(file.commit(error));
      CHECK(wikic::test::slurp(path) == expected);
      CHECK(file.direct_bytes() == expected_direct_bytes(size, mode, dir.path));
      check_ring_bytes(file, mode);
    }
  }
}

TEST_CASE("a write that fails in a direct block fails the file, and the old one stays") {
  for (auto mode : kEveryPath) {
    CAPTURE(static_cast<int>(mode));
    wikic::test::ScratchDir dir;
    std::string error;
    auto path = (dir / "rules.json").string();
    REQUIRE(write_file_atomic(path, "old rules\n", error));
    AtomicFile file(path, mode);
    REQUIRE(file.open(error));
    // As in the test of commit_together: a size limit stands in for a full disk, here
    // inside the second 4 MB block.
    struct rlimit old_limit {};
    REQUIRE(::getrlimit(RLIMIT_FSIZE, &old_limit) == 0);
    auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit limit = old_limit;
    limit.rlim_cur = 6'000'000;
    REQUIRE(::setrlimit(RLIMIT_FSIZE, &limit) == 0);
    file.stream() << std::string(9'000'000, 'j');
    bool committed = file.commit(error);
    ::setrlimit(RLIMIT_FSIZE, &old_limit);
    std::signal(SIGXFSZ, old_handler);
    CHECK_FALSE(committed);
    CHECK(error == path + ": File too large");
    CHECK(wikic::test::slurp(path) == "old rules\n");
    CHECK(folder_entries(dir.path) == std::vector<std::string>{"rules.json"});
  }
}

TEST_CASE("an atomic file dropped without commit leaves the old file and no temporary") {
  wikic::test::ScratchDir dir;
  auto path = (dir / "rules.yaml").string();
  std::string error;
  REQUIRE(write_file_atomic(path, "old database\n", error));
  {
    AtomicFile file(path);
    REQUIRE(file.open(error));
    file.stream() << "half a new datab";
  }
  CHECK(wikic::test::slurp(path) == "old database\n");
  CHECK(folder_entries(dir.path) == std::vector<std::string>{"rules.yaml"});
  // Dropped while its writer thread may still hold a full block: the thread finishes
  // before the temporary is closed and removed.
  {
    AtomicFile file(path);
    REQUIRE(file.open(error));
    file.stream() << std::string(9'000'000, 'h');
  }
  CHECK(wikic::test::slurp(path) == "old database\n");
  CHECK(folder_entries(dir.path) == std::vector<std::string>{"rules.yaml"});
}

TEST_CASE("two writers of one path never share a temporary: the last to commit wins whole") {
  wikic::test::ScratchDir dir;
  auto path = (dir / "rules.xml").string();
  AtomicFile first(path), second(path);
  std::string error;
  REQUIRE(first.open(error));
  REQUIRE(second.open(error));
  CHECK(first.temporary() != second.temporary());
  for (int i = 0; i < 1000; ++i) first.stream() << "first " << i << '\n', second.stream() << "second " << i << '\n';
  REQUIRE(second.commit(error));
  std::string second_text = wikic::test::slurp(path);
  REQUIRE(first.commit(error));
  std::string first_text = wikic::test::slurp(path);
  CHECK(second_text.rfind("second 0\n", 0) == 0);
  CHECK(second_text.find("first") == std::string::npos);
  CHECK(first_text.rfind("first 0\n", 0) == 0);
  CHECK(first_text.find("second") == std::string::npos);
  CHECK(first_text.size() == second_text.size() - 1000);
}

TEST_CASE("opening an atomic file removes the temporaries that dead writers of its path left") {
  wikic::test::ScratchDir dir;
  // A process id that is certainly gone: a child that has exited and been waited for.
  pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  REQUIRE(child > 0);
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  std::string dead = std::to_string(child);
  std::string error;
  for (const std::string& name : std::vector<std::string>{".rules.yaml.tmp." + dead + ".0", ".rules.yaml.tmp." + dead + ".7",  // stale
                           ".rules.yaml.tmp.1.0",                 // process 1 is alive: kept
                           ".rules.xml.tmp." + dead + ".0",       // another file's: kept
                           ".rules.yaml.tmp." + dead,             // not the writer's pattern: kept
                           ".rules.yaml.tmp.x" + dead + ".0", "rules.yaml.tmp." + dead + ".0"})
    REQUIRE(write_file_atomic((dir / name).string(), "x", error));
  AtomicFile file((dir / "rules.yaml").string());
  REQUIRE(file.open(error));
  file.stream() << "new";
  REQUIRE(file.commit(error));
  std::vector<std::string> kept{".rules.xml.tmp." + dead + ".0", ".rules.yaml.tmp." + dead, ".rules.yaml.tmp.1.0",
                                ".rules.yaml.tmp.x" + dead + ".0", "rules.yaml", "rules.yaml.tmp." + dead + ".0"};
  std::sort(kept.begin(), kept.end());
  CHECK(folder_entries(dir.path) == kept);
}

TEST_CASE("files committed together: a failed write replaces none of them") {
  wikic::test::ScratchDir dir;
  std::string error;
  auto small_path = (dir / "pages.yaml").string(), big_path = (dir / "rules.yaml").string();
  REQUIRE(write_file_atomic(small_path, "old pages\n", error));
  REQUIRE(write_file_atomic(big_path, "old rules\n", error));
  AtomicFile small(small_path), big(big_path);
  REQUIRE(small.open(error));
  REQUIRE(big.open(error));
  small.stream() << "new pages\n";
  // A file size limit makes write(2) fail with EFBIG, as a full disk fails it with
  // ENOSPC; the signal the limit would raise is ignored for the test.
  struct rlimit old_limit {};
  REQUIRE(::getrlimit(RLIMIT_FSIZE, &old_limit) == 0);
  auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit limit = old_limit;
  limit.rlim_cur = 100000;
  REQUIRE(::setrlimit(RLIMIT_FSIZE, &limit) == 0);
  big.stream() << std::string(300000, 'r');
  std::vector<std::string> errors;
  bool committed = commit_together({&small, &big}, errors);
  ::setrlimit(RLIMIT_FSIZE, &old_limit);
  std::signal(SIGXFSZ, old_handler);
  CHECK_FALSE(committed);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0] == big_path + ": File too large");
  CHECK(wikic::test::slurp(small_path) == "old pages\n");
  CHECK(wikic::test::slurp(big_path) == "old rules\n");
  CHECK(folder_entries(dir.path) == std::vector<std::string>{"pages.yaml", "rules.yaml"});

  // Without the limit both are replaced.
  AtomicFile small2(small_path), big2(big_path);
  REQUIRE(small2.open(error));
  REQUIRE(big2.open(error));
  small2.stream() << "new pages\n";
  big2.stream() << std::string(300000, 'r');
  REQUIRE(commit_together({&small2, &big2}, errors));
  CHECK(wikic::test::slurp(small_path) == "new pages\n");
  CHECK(wikic::test::slurp(big_path).size() == 300000);
  CHECK(folder_entries(dir.path) == std::vector<std::string>{"pages.yaml", "rules.yaml"});
}

TEST_CASE("byte scans find the same first byte as a byte-by-byte search, at every offset") {
  // Each byte value at each place of a buffer longer than two SSE2 steps, seen from
  // several starting points and ends: the vector loop and the tail must agree.
  std::string buf(40, 'a');
  for (int value = 0; value < 256; ++value) {
    for (std::size_t at = 0; at < buf.size(); ++at) {
      std::string s = buf;
      s[at] = static_cast<char>(value);
      auto c = static_cast<unsigned char>(value);
      for (std::size_t from : {std::size_t{0}, std::size_t{3}, at}) {
        for (std::size_t to : {s.size(), s.size() - 5}) {
          if (from > to) continue;
          CAPTURE(value);
          CAPTURE(at);
          CAPTURE(from);
          CAPTURE(to);
          auto expect = [&](bool special) { return from <= at && at < to && special ? at : to; };
          CHECK(scan_special<true, '"', '\\'>(s.data(), from, to) ==
                expect(c < 0x20 || c >= 0x80 || c == '"' || c == '\\'));
          CHECK(scan_special<false, '&', '<', '\x7f', '\xef'>(s.data(), from, to) ==
                expect(c < 0x20 || c == '&' || c == '<' || c == 0x7f || c == 0xef));
          auto f32 = static_cast<std::uint32_t>(from), t32 = static_cast<std::uint32_t>(to);
          CHECK(scan_for<'|', '\n', '\x80'>(s.data(), f32, t32) == expect(c == '|' || c == '\n' || c == 0x80));
          CHECK(scan_byte(s.data(), f32, t32, '=') == expect(c == '='));
        }
      }
    }
  }
}

TEST_CASE("find_text finds the first place of a text as std::string_view::find does") {
  // The needle, and decoys with its first and last byte but not its middle, at every
  // place of texts shorter than, across and past the 64- and 16-place steps, up to the last
  // place where the needle fits.
  for (std::string_view needle : {std::string_view("<"), std::string_view("<t"), std::string_view("<translate")}) {
    for (std::size_t size = 0; size < 150; ++size) {
      for (std::size_t at = 0; at <= size; ++at) {
        for (bool decoy : {false, true}) {
          std::string s(size, 'a');
          std::string put(needle);
          if (decoy && put.size() > 2) put[1] = 'x';
          s.replace(at, std::min(put.size(), size - at), put.substr(0, size - at));
          if (at + 40 < size) s.replace(at + 37, std::min(put.size(), size - at - 37), put.substr(0, size - at - 37));
          CAPTURE(needle);
          CAPTURE(s);
          CHECK(find_text(s, needle) == std::string_view(s).find(needle));
        }
      }
    }
  }
  CHECK(find_text("abc", "") == 0);
}

TEST_CASE("scan_counting_lines stops where a byte-by-byte search stops and counts the lines before it") {
  // Texts longer than the 64-byte steps and the 63-step sums, including one made only of
  // newlines (every byte lane at its most), with the stop bytes rare, dense or absent.
  auto naive = [](const std::string& s, std::size_t from, std::size_t to, std::size_t& newlines) {
    for (; from < to && s[from] != '<' && s[from] != '&'; ++from) newlines += s[from] == '\n';
    return from;
  };
  std::vector<std::string> texts{std::string(20000, '\n'), std::string(300, 'x')};
  unsigned seed = 11;
  for (unsigned stop_rate : {0u, 1u, 40u}) {
    std::string text;
    while (text.size() < 30000) {
      seed = seed * 1103515245u + 12345u;
      unsigned r = (seed >> 16) % 1000;
      if (r < stop_rate) text += (r % 2) ? '<' : '&';
      else if (r < 200) text += '\n';
      else text += static_cast<char>('a' + r % 26);
    }
    texts.push_back(text);
  }
  for (const std::string& s : texts) {
    for (std::size_t from = 0; from < s.size(); from += 1 + from / 3) {
      // The ends 15, 16, 17 and 31 bytes on test the last bytes of a count as a masked
      // step of sixteen, and as bytes when the whole range is shorter.
      for (std::size_t to : {s.size(), s.size() - 7, from + 70, from + 15, from + 16, from + 17, from + 31}) {
        if (to > s.size() || from > to) continue;
        CAPTURE(s.size());
        CAPTURE(from);
        CAPTURE(to);
        std::size_t got_lines = 3, want_lines = 3;  // adds to what the caller has
        CHECK(scan_counting_lines<'<', '&'>(s.data(), from, to, got_lines) == naive(s, from, to, want_lines));
        CHECK(got_lines == want_lines);
        std::size_t all = 0;
        CHECK(scan_counting_lines<>(s.data(), from, to, all) == to);
        CHECK(all == static_cast<std::size_t>(std::count(s.begin() + static_cast<std::ptrdiff_t>(from),
                                                          s.begin() + static_cast<std::ptrdiff_t>(to), '\n')));
      }
    }
  }
}

namespace {
// Counts its destructions, so that a test sees when the last holder let go.
struct Tracked {
  Tracked(int v, int* d) : value(v), destroyed(d) {}
  Tracked(const Tracked&) = delete;
  ~Tracked() { ++*destroyed; }
  int value;
  int* destroyed;
};
}  // namespace

TEST_CASE("SharedConst: copies share one object and the last holder frees it") {
  int destroyed = 0;
  {
    auto a = SharedConst<Tracked>::make(7, &destroyed);
    SharedConst<Tracked> b = a;
    CHECK(b == a);
    CHECK(b.get() == a.get());
    CHECK(b->value == 7);
    SharedConst<Tracked> c = std::move(b);
    CHECK_FALSE(b);
    CHECK(c == a);
    const SharedConst<Tracked>& same = c;
    c = same;  // assigning a holder its own object changes nothing
    CHECK(c == a);
    auto d = SharedConst<Tracked>::make(8, &destroyed);
    c = d;
    CHECK(destroyed == 0);  // `a` still holds the first object
    a = d;
    CHECK(destroyed == 1);
    CHECK(a->value == 8);
    SharedConst<Tracked> empty;
    a = empty;
    c = std::move(empty);
    CHECK_FALSE(a);
    CHECK(destroyed == 1);  // `d` still holds the second
  }
  CHECK(destroyed == 2);
}

TEST_CASE("RefCount: unconfined counts stay exact while threads copy and drop one object") {
  // A plain increment here loses updates between the threads: the object is then freed
  // early (a use after free under AddressSanitizer) or never.
  int destroyed = 0;
  {
    auto shared = SharedConst<Tracked>::make(1, &destroyed);
    std::vector<std::thread> threads;
    std::vector<long> seen(4);
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([&shared, &seen, t] {
        for (int i = 0; i < 200000; ++i) {
          SharedConst<Tracked> copy = shared;
          SharedConst<Tracked> other;
          other = copy;
          seen[t] += other->value;
        }
      });
    for (auto& t : threads) t.join();
    for (long n : seen) CHECK(n == 200000);
    CHECK(destroyed == 0);
  }
  CHECK(destroyed == 1);
}

TEST_CASE("RefCount: counts confined to one thread free on that thread, and another thread's update is stopped") {
  // Confinement is for the whole process, so it is tried in a child.
  auto run_child = [](bool other_thread) {
    pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      RefCount::confine_to_this_thread();
      int destroyed = 0;
      {
        auto a = SharedConst<Tracked>::make(3, &destroyed);
        SharedConst<Tracked> b = a, c;
        c = b;
        b = SharedConst<Tracked>();
        if (other_thread) std::thread([&a] { SharedConst<Tracked> copy = a; }).join();
      }
      ::_exit(destroyed == 1 ? 0 : 1);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    return status;
  };
  int status = run_child(false);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
#ifdef _GLIBCXX_ASSERTIONS
  status = run_child(true);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGABRT);
#endif
}
