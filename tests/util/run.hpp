// Test helpers: run the built `wikic` binary, capture its output and exit code, and
// make scratch files. Tests of the command line go through the real executable so the
// wiring is tested as a user meets it.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace wikic::test {

struct RunResult {
  int status = -1;
  std::string out;  ///< stdout
  std::string err;  ///< stderr
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void spit(const std::filesystem::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

/// A fresh scratch folder per test, removed at the end of the scope.
struct ScratchDir {
  std::filesystem::path path;
  ScratchDir() {
    char tmpl[] = "/tmp/wikic-test-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::filesystem::path operator/(const std::string& name) const { return path / name; }
};

/// The `wikic` the tests run: the one built beside them, or WIKIC_TEST_BINARY when set
/// (scripts/test.sh points it at the Release build, which the sanitizer build's tests
/// would otherwise never run).
inline std::string wikic_binary() {
  const char* other = std::getenv("WIKIC_TEST_BINARY");
  return other && *other ? other : WIKIC_BINARY;
}

/// Runs `wikic ARGS` through the shell with stdout and stderr captured separately; with
/// `piped`, its standard input is a pipe that `cat` fills with that file.
inline RunResult run_wikic(const std::string& args, const std::string& piped = {}) {
  ScratchDir scratch;
  std::string cmd = (piped.empty() ? std::string() : "cat '" + piped + "' | ") + wikic_binary() + " " + args +
                    " >" + (scratch / "out").string() + " 2>" + (scratch / "err").string();
  RunResult r;
  int raw = std::system(cmd.c_str());
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = slurp(scratch / "out");
  r.err = slurp(scratch / "err");
  return r;
}

inline std::string source_path(const std::string& rel) { return std::string(WIKIC_SOURCE_DIR) + "/" + rel; }

/// A file of the shared material (seeds, peers, parsertests) beside the repository.
inline std::string shared_path(const std::string& rel) { return std::string(WIKIC_SHARED_DIR) + "/" + rel; }

}  // namespace wikic::test
