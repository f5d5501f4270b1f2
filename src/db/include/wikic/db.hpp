// Loader of wikic's rule database (rules.json or rules.yaml, format version 1) into
// plain structs, for downstream C++ programs that must not parse wikitext or hand-walk
// JSON. Depends on nothing of wikic; link wikic_db (nlohmann-json, yaml-cpp).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wikic::db {

/// A text as each preferred edition reads it (all three equal when the wiki has one wording).
struct Text {
  std::string c1, c2, we;
  bool uniform = true;
  /// The wording for "C1", "C2", "WE" (anything else reads as C2).
  const std::string& in(std::string_view edition) const;
};

struct Note {
  std::string when;  ///< canonical condition, relative to the rule
  Text text;
};

/// A stretch of a rule's text under one condition (`rules-parts`, `description-parts`):
/// a reader sees the parts whose condition holds, in order.
struct Part {
  std::string when;  ///< canonical condition, relative to the rule, without edition classes
  Text text;
};

struct Points {
  std::string op;  ///< add, multiply, fraction, fixed
  std::optional<double> value;
  std::string quantity;  ///< a named amount instead of a value
  std::string basis;     ///< primary, feature, after-the-game: the score the amount is taken from; "" the rule's own
  double denominator = 1;
  std::string per, rounding, when, text;
  std::vector<std::string> editions;  ///< empty: every edition
};

struct Source {
  std::string page, file, origin;
  std::uint64_t revision = 0;
  std::uint32_t line = 0, column = 0;
  std::optional<std::uint64_t> offset;
  std::vector<std::string> chain;
};

struct Rule {
  std::string id, parent, section, phase, round, step, block, kind, when;
  bool core = false;
  std::vector<std::string> atoms, triggers, references;
  Text description, rules;
  /// Empty when the text has no stretch under another condition than edition classes.
  std::vector<Part> description_parts, rules_parts;
  std::vector<Note> notes;
  bool points_unparsed = false;
  std::vector<Points> points;
  Source source;
};

struct Page {
  std::string title, timestamp;
  std::uint64_t revision = 0;
  std::vector<Rule> rules;
};

struct Database {
  std::string format_version, sitename, dump_date;
  int vocabulary_version = 0;
  std::vector<Page> pages;
};

/// Loads a file; the format follows the extension (.json, else YAML). On failure returns
/// nullopt and sets `error` ("file: reason").
std::optional<Database> load(const std::string& path, std::string& error);
/// Parses text in the given format ("json" or "yaml").
std::optional<Database> parse(const std::string& text, const std::string& format, std::string& error);

}  // namespace wikic::db
