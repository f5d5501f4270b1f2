// Dynamic selectors: `['OR','showInns',['NOT','showWells']]` as a template parameter or a
// data-dynamic-selector attribute (notes §3.4: single quotes on Template:OtherExpansionRule,
// an unquoted operator and double quotes in a To-Do, so all three are accepted).
// Hand-written recursive descent rather than Spirit X3: the language is five productions,
// every error needs its exact column and a message in our words, and the depth limit is
// one counter; X3 would add an expectation-exception path and a dependency on grammar/.
#include <cctype>

#include "select/classes.hpp"

namespace wikic::select {

namespace {

struct ParseError {
  std::size_t offset;
  std::string message;
};

class SelectorParser {
public:
  SelectorParser(std::string_view text, const Where& where, support::DiagnosticSink& sink, const Vocabulary& v)
      : text_(text), where_(where), sink_(sink), vocabulary_(v) {}

  std::optional<Condition> run() {
    skip_space();
    Condition c;
    if (!array(0, c)) return fail();
    skip_space();
    if (pos_ != text_.size()) {
      error_ = {pos_, "unexpected text after the closing ']'"};
      return fail();
    }
    return vocabulary_.simplify(c);
  }

private:
  std::optional<Condition> fail() {
    where_.warn(sink_, where_.after(text_.substr(0, error_.offset)),
                  "dynamic selector does not parse: " + error_.message);
    return std::nullopt;
  }

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  bool expect(char c, const char* what) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    error_ = {pos_, std::string("expected ") + what};
    return false;
  }

  static bool word_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  }

  // A quoted ('…' or "…") or bare word; `start` gets the offset of its first character.
  bool word(std::string_view& out, std::size_t& start) {
    skip_space();
    if (pos_ >= text_.size()) {
      error_ = {pos_, "unexpected end of selector"};
      return false;
    }
    char q = text_[pos_];
    if (q == '\'' || q == '"') {
      std::size_t close = text_.find(q, pos_ + 1);
      if (close == std::string_view::npos) {
        error_ = {pos_, std::string("unterminated string (missing ") + q + ")"};
        return false;
      }
      start = pos_ + 1;
      out = text_.substr(start, close - start);
      pos_ = close + 1;
      return true;
    }
    start = pos_;
    while (pos_ < text_.size() && word_char(text_[pos_])) ++pos_;
    if (start == pos_) {
      error_ = {pos_, std::string("unexpected '") + q + "'"};
      return false;
    }
    out = text_.substr(start, pos_ - start);
    return true;
  }

  Condition operand_condition(std::string_view id, std::size_t start) {
    Where at{where_.file, where_.after(text_.substr(0, start)), where_.chain};
    ClassMeaning m = classify_class(id, at, sink_, vocabulary_);
    switch (m.kind) {
    case ClassKind::condition:
    case ClassKind::unknown: return m.condition;
    case ClassKind::structural: return Condition::always();
    case ClassKind::mark:
    case ClassKind::non_selector: break;
    }
    // Not even `show…` (`shwGifts` in a To-Do): still an id the script would look up.
    std::string message = "unknown selector id '" + std::string(id) + "'";
    auto near = vocabulary_.closest_ids(id);
    if (!near.empty()) {
      message += " (closest known: ";
      for (std::size_t i = 0; i < near.size(); ++i) message += (i ? ", " : "") + near[i];
      message += ')';
    }
    at.warn(sink_, at.at, std::move(message));
    return Condition::atom(std::string(id));
  }

  bool array(std::size_t depth, Condition& out) {
    if (depth >= kMaxSelectorDepth) {
      error_ = {pos_, "nested deeper than " + std::to_string(kMaxSelectorDepth) + " levels"};
      return false;
    }
    if (!expect('[', "'['")) return false;
    std::string_view op;
    std::size_t op_start = 0;
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == ']') {
      error_ = {pos_, "missing operator (OR, AND, NOT or XOR)"};
      return false;
    }
    if (!word(op, op_start)) return false;
    if (op != "OR" && op != "AND" && op != "NOT" && op != "XOR") {
      error_ = {op_start, "unknown operator '" + std::string(op) + "' (expected OR, AND, NOT or XOR)"};
      return false;
    }
    std::vector<Condition> operands;
    while (true) {
      skip_space();
      if (pos_ < text_.size() && text_[pos_] == ']') {
        ++pos_;
        break;
      }
      if (!expect(',', "',' or ']'")) return false;
      skip_space();
      // A trailing comma before ']' is valid in a JavaScript array literal.
      if (pos_ < text_.size() && text_[pos_] == ']') {
        ++pos_;
        break;
      }
      if (pos_ < text_.size() && text_[pos_] == '[') {
        Condition nested;
        if (!array(depth + 1, nested)) return false;
        operands.push_back(std::move(nested));
      } else {
        std::string_view id;
        std::size_t start = 0;
        if (!word(id, start)) return false;
        operands.push_back(operand_condition(id, start));
      }
    }
    if (op == "OR") {
      out = disjoin_all(operands);
    } else if (op == "AND") {
      out = conjoin_all(operands);
    } else if (op == "NOT") {
      if (operands.empty()) {
        error_ = {op_start, "NOT needs an operand"};
        return false;
      }
      // Several operands: none of them may hold (schema assumption `not_many: none_of`).
      out = negate(disjoin_all(operands));
    } else {
      out = exclusive_or(operands);
    }
    return true;
  }

  Condition exclusive_or(const std::vector<Condition>& operands) const {
    if (vocabulary_.xor_mode() == XorMode::parity) {
      Condition acc = Condition::never();
      for (const auto& o : operands)
        acc = disjoin(conjoin(acc, negate(o)), conjoin(negate(acc), o));
      return acc;
    }
    std::vector<Condition> alternatives;
    for (std::size_t i = 0; i < operands.size(); ++i) {
      Condition one = operands[i];
      for (std::size_t j = 0; j < operands.size(); ++j)
        if (j != i) one = conjoin(one, negate(operands[j]));
      alternatives.push_back(std::move(one));
    }
    return disjoin_all(alternatives);
  }

  std::string_view text_;
  const Where& where_;
  support::DiagnosticSink& sink_;
  const Vocabulary& vocabulary_;
  std::size_t pos_ = 0;
  ParseError error_{0, {}};
};

}  // namespace

std::optional<Condition> parse_dynamic_selector(std::string_view text, const Where& where,
                                                support::DiagnosticSink& sink, const Vocabulary& v) {
  SelectorParser parser(text, where, sink, v);
  auto result = parser.run();
  if (result && result->overflowed())
    where.warn(sink, where.at,
                 "selector condition has more than " + std::to_string(kMaxDnfTerms) +
                     " terms; treated as unrestricted");
  return result;
}

}  // namespace wikic::select
