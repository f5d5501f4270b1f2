// The closing summary line shared by every command.
#include <iostream>

#include "cli/commands.hpp"

namespace wikic::cli {

namespace {
std::string count(std::size_t n, const char* what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}
}  // namespace

int finish(const support::DiagnosticSink& sink, std::size_t pages, bool io_failure) {
  return finish(sink.warnings(), sink.errors(), pages, io_failure);
}

int finish(std::size_t warnings, std::size_t errors, std::size_t pages, bool io_failure) {
  std::cerr << "wikic: " << count(pages, "page") << ", " << count(warnings, "warning") << ", " << count(errors, "error")
            << '\n';
  if (io_failure) return Exit::usage_or_io;
  return errors > 0 ? Exit::input_errors : Exit::ok;
}

}  // namespace wikic::cli
