// `wikic query rules.yaml|rules.json --edition C2 --with Inns,Cathedrals [--page T]
// [--format text|yaml|json]`: the rules a reader with that Expansion Selector selection
// sees, in the edition's wording, grouped by phase, round, step and block.
#include <iostream>
#include <map>
#include <string_view>
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "cli/commands.hpp"
#include "select/vocabulary.hpp"
#include "wikic/db.hpp"

namespace wikic::cli {
namespace {

// The canonical DNF text of select::to_string read back: `A & !B | C`, `true`, `false`.
select::Condition condition_of(const std::string& text) {
  if (text.empty() || text == "true") return select::Condition();
  if (text == "false") return select::Condition::never();
  std::vector<select::Term> terms;
  std::size_t b = 0;
  while (b <= text.size()) {
    std::size_t e = text.find(" | ", b);
    std::string term = text.substr(b, e == std::string::npos ? std::string::npos : e - b);
    select::Term t;
    std::size_t lb = 0;
    while (lb <= term.size()) {
      std::size_t le = term.find(" & ", lb);
      std::string lit = term.substr(lb, le == std::string::npos ? std::string::npos : le - lb);
      bool negated = !lit.empty() && lit[0] == '!';
      if (negated) lit.erase(0, 1);
      if (!lit.empty()) t.push_back({lit, negated});
      if (le == std::string::npos) break;
      lb = le + 3;
    }
    terms.push_back(std::move(t));
    if (e == std::string::npos) break;
    b = e + 3;
  }
  return select::Condition::from_terms(std::move(terms));
}

}  // namespace

Runner add_query(CLI::App& app) {
  struct Options {
    std::string database;
    std::string edition = "C2";
    std::vector<std::string> with;
    std::string page;
    std::string format = "text";
    bool all_expansions = false;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("query", "List the rules a reader with an Expansion Selector selection sees");
  cmd->add_option("DATABASE", opt->database, "rules.yaml or rules.json written by `wikic compile`")->required();
  cmd->add_option("--edition", opt->edition, "Preferred edition")
      ->check(CLI::IsMember({"C1", "C2", "C3", "WE"}))
      ->capture_default_str();
  cmd->add_option("--with", opt->with, "Selected expansions and parts (Inns,Wells,…)")->delimiter(',');
  cmd->add_flag("--all-expansions", opt->all_expansions, "Select every expansion");
  cmd->add_option("--page", opt->page, "Only the page with this title");
  cmd->add_option("--format", opt->format, "Output format")
      ->check(CLI::IsMember({"text", "yaml", "json"}))
      ->capture_default_str();
  return [opt] {
    support::DiagnosticSink sink(support::print_to(std::cerr));
    std::string error;
    auto db = db::load(opt->database, error);
    if (!db) {
      sink.error(opt->database, support::nowhere, error);
      return finish(sink, 0, true);
    }
    const auto& vocabulary = select::Vocabulary::builtin();
    select::Selection selection;
    selection.edition = select::parse_edition(opt->edition).value_or(vocabulary.default_edition());
    selection.all_expansions = opt->all_expansions;
    for (std::string id : opt->with) {
      if (id.rfind("show", 0) == 0) id.erase(0, 4);
      if (id.empty()) continue;
      if (!vocabulary.find_atom(id)) sink.warning("--with", support::nowhere, "unknown expansion id '" + id + "'");
      selection.expansions.insert(id);
    }
    std::string ed = select::to_string(selection.edition);
    auto shown = [&](const std::string& when) { return select::evaluate(condition_of(when), selection, vocabulary); };
    // The text the selection reads: with parts, those whose condition holds (the rule's
    // own `when` already does), joined with a space as cleaning joins a cell's runs
    // (none before closing punctuation); without parts, the whole text.
    auto reading = [&](const db::Text& whole, const std::vector<db::Part>& parts) {
      if (parts.empty()) return whole.in(ed);
      std::string out;
      for (const auto& p : parts) {
        if (!shown(p.when)) continue;
        const std::string& t = p.text.in(ed);
        if (t.empty()) continue;
        if (!out.empty() && std::string_view(".,;:!?)").find(t.front()) == std::string_view::npos) out += ' ';
        out += t;
      }
      return out;
    };
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    std::string text;
    std::size_t pages = 0;
    for (const auto& page : db->pages) {
      if (!opt->page.empty() && page.title != opt->page) continue;
      ++pages;
      text += "# " + page.title + "\n";
      std::string phase = "\x01", round = "\x01", step = "\x01", block = "\x01";
      // Nesting depth of each listed rule: a sub-rule comes after its parent, and the
      // text output indents it one level deeper (catapult → playing catch → caught).
      std::map<std::string_view, std::size_t> depth;
      for (const auto& r : page.rules) {
        if (!shown(r.when)) continue;
        std::size_t level = 0;
        if (!r.parent.empty()) {
          auto up = depth.find(r.parent);
          level = up == depth.end() ? 1 : up->second + 1;
        }
        depth.emplace(r.id, level);
        nlohmann::ordered_json j;
        j["id"] = r.id;
        if (!r.parent.empty()) j["parent"] = r.parent;
        j["phase"] = r.phase;
        j["round"] = r.round;
        j["step"] = r.step;
        j["block"] = r.block;
        j["kind"] = r.kind;
        j["core"] = r.core;
        j["when"] = r.when;
        j["triggers"] = r.triggers;
        const std::string description = reading(r.description, r.description_parts);
        const std::string rules = reading(r.rules, r.rules_parts);
        j["description"] = description;
        j["rules"] = rules;
        nlohmann::ordered_json notes = nlohmann::ordered_json::array();
        for (const auto& n : r.notes)
          if (shown(n.when) && !n.text.in(ed).empty()) notes.push_back(n.text.in(ed));
        j["notes"] = notes;
        nlohmann::ordered_json points = nlohmann::ordered_json::array();
        for (const auto& p : r.points)
          if (shown(p.when) && (p.editions.empty() || std::count(p.editions.begin(), p.editions.end(), ed)))
            points.push_back(p.text);
        if (r.points_unparsed) j["points"] = "unparsed";
        else j["points"] = points;
        // Text output: a heading whenever the grouping changes, then one line per rule.
        if (r.phase != phase || r.round != round) {
          phase = r.phase;
          round = r.round;
          std::string h = phase + (phase.empty() || round.empty() ? "" : " / ") + round;
          text += "## " + (h.empty() ? std::string("(page)") : h) + "\n";
          step = block = "\x01";
        }
        if (r.step != step) {
          step = r.step;
          if (!step.empty()) text += "### " + step + "\n";
          block = "\x01";
        }
        if (r.block != block) {
          block = r.block;
          if (!block.empty()) text += "#### " + block + "\n";
        }
        // A rule whose text is all in its sub-rules ("Depends on the outcome" aside) has
        // no text of its own to follow the colon.
        text += std::string(2 * level, ' ') + "- [" + r.kind + (r.core ? ", core" : "") + "] " + description +
                (rules.empty() ? "" : ": " + rules) + "\n";
        for (const auto& n : notes) text += std::string(2 * level + 4, ' ') + "* " + n.get<std::string>() + "\n";
        out.push_back(std::move(j));
      }
    }
    if (!opt->page.empty() && pages == 0) sink.warning(opt->database, support::nowhere, "no page titled '" + opt->page + "'");
    if (opt->format == "json") {
      std::cout << out.dump(2) << '\n';
    } else if (opt->format == "yaml") {
      YAML::Emitter y;
      y << YAML::BeginSeq;
      for (const auto& j : out) {
        y << YAML::BeginMap;
        for (const auto& [k, v] : j.items()) {
          y << YAML::Key << k << YAML::Value;
          if (v.is_string()) y << YAML::DoubleQuoted << v.get<std::string>();
          else if (v.is_boolean()) y << v.get<bool>();
          else {
            y << YAML::Flow << YAML::BeginSeq;
            for (const auto& s : v) y << YAML::DoubleQuoted << s.get<std::string>();
            y << YAML::EndSeq;
          }
        }
        y << YAML::EndMap;
      }
      y << YAML::EndSeq;
      std::cout << y.c_str() << '\n';
    } else {
      std::cout << text;
    }
    std::cout.flush();
    return finish(sink, pages, false);
  };
}

}  // namespace wikic::cli
