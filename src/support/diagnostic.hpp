// Diagnostics are values: a severity, a location and a message, printed GNU style
// (`file:line:col: warning: message`). Stages report into a sink and never exit;
// the command decides the exit code from the worst severity seen.
#pragma once
#include <cstddef>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "support/source.hpp"

namespace wikic::support {

enum class Severity { note, warning, error };

const char* to_string(Severity s);

struct Diagnostic {
  Severity severity = Severity::error;
  std::string file;        ///< file name, or `file#Page title` for wikitext positions
  Position where = nowhere;  ///< line 0 means "no position": printed as `file: …`
  std::string message;
  /// `file:line:col: severity: message`, without a trailing newline.
  std::string format() const;
  /// format() appended to `out`: a page's lines gathered in one string need no string
  /// of their own each.
  void format_to(std::string& out) const;
};

/// Collects diagnostics, counts them, and forwards each to an optional printer.
class DiagnosticSink {
public:
  using Printer = std::function<void(const Diagnostic&)>;
  DiagnosticSink() = default;
  explicit DiagnosticSink(Printer printer) : printer_(std::move(printer)) {}

  void report(Diagnostic d);
  void error(std::string file, Position at, std::string message);
  void warning(std::string file, Position at, std::string message);
  void note(std::string file, Position at, std::string message);

  std::size_t errors() const { return errors_; }
  std::size_t warnings() const { return warnings_; }
  const std::vector<Diagnostic>& all() const { return all_; }

private:
  Printer printer_;
  std::vector<Diagnostic> all_;
  std::size_t errors_ = 0;
  std::size_t warnings_ = 0;
};

/// A printer that writes each diagnostic as one line to `out`.
DiagnosticSink::Printer print_to(std::ostream& out);

}  // namespace wikic::support
