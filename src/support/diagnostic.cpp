// GNU-style formatting and counting of diagnostics.
#include "support/diagnostic.hpp"

#include <charconv>
#include <ostream>

namespace wikic::support {

const char* to_string(Severity s) {
  switch (s) {
  case Severity::note: return "note";
  case Severity::warning: return "warning";
  case Severity::error: return "error";
  }
  return "error";
}

std::string Diagnostic::format() const {
  std::string out;
  format_to(out);
  return out;
}

void Diagnostic::format_to(std::string& out) const {
  // Sized once: every warning of a run is formatted, and growing the line piecewise
  // cost three allocations each.
  out.reserve(out.size() + file.size() + message.size() + 40);
  out += file;
  if (where.line > 0) {
    char digits[32];
    auto r = std::to_chars(digits, digits + sizeof digits, where.line);
    out += ':';
    out.append(digits, r.ptr);
    r = std::to_chars(digits, digits + sizeof digits, where.column);
    out += ':';
    out.append(digits, r.ptr);
  }
  out += ": ";
  out += to_string(severity);
  out += ": ";
  out += message;
}

void DiagnosticSink::report(Diagnostic d) {
  if (d.severity == Severity::error) ++errors_;
  if (d.severity == Severity::warning) ++warnings_;
  if (printer_) printer_(d);
  all_.push_back(std::move(d));
}

void DiagnosticSink::error(std::string file, Position at, std::string message) {
  report({Severity::error, std::move(file), at, std::move(message)});
}
void DiagnosticSink::warning(std::string file, Position at, std::string message) {
  report({Severity::warning, std::move(file), at, std::move(message)});
}
void DiagnosticSink::note(std::string file, Position at, std::string message) {
  report({Severity::note, std::move(file), at, std::move(message)});
}

DiagnosticSink::Printer print_to(std::ostream& out) {
  // One insertion per line: std::cerr is unbuffered, so each << is a write(2), and a
  // page with many warnings would otherwise cost two system calls per diagnostic.
  return [&out](const Diagnostic& d) {
    std::string line = d.format();
    line += '\n';
    out << line;
  };
}

}  // namespace wikic::support
