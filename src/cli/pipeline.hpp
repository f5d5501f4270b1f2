// One page through the stages, in the one order every command uses: restore lines →
// expand (semantic templates kept) → parse → selector conditions → extract rules.
// `wikic parse --tree doc`, `wikic select` and `wikic compile` call it (and whatever
// else needs "this page, compiled"), so a page reads, and is reported, the same everywhere.
#pragma once
#include <chrono>
#include <memory>
#include <string>

#include "expand/expander.hpp"
#include "extract/rules.hpp"
#include "ingest/page.hpp"
#include "parse/tree.hpp"
#include "preprocess/preprocessor.hpp"
#include "preprocess/restore_lines.hpp"
#include "select/tree_conditions.hpp"
#include "support/diagnostic.hpp"

namespace wikic::cli {

/// Seconds spent in each stage, summed over the pages a Pipeline compiled (`--timings`):
/// the nightly run's breakdown, and where a speed-up has to come from.
struct StageTimes {
  double templates = 0;  ///< compile's first pass over the input, for the Template pages
  double restore = 0, expand = 0, parse = 0, select = 0, extract = 0;
  double emit = 0;  ///< writing the rule files
  double sum() const { return templates + restore + expand + parse + select + extract + emit; }
};

/// Adds the time from construction (or the last lap) to the stage a lap() names; with
/// no StageTimes it does nothing and reads no clock.
class Stopwatch {
public:
  explicit Stopwatch(StageTimes* times) : times_(times) {
    if (times_) last_ = std::chrono::steady_clock::now();
  }
  void lap(double StageTimes::*stage) {
    if (!times_) return;
    auto now = std::chrono::steady_clock::now();
    times_->*stage += std::chrono::duration<double>(now - last_).count();
    last_ = now;
  }

private:
  StageTimes* times_;
  std::chrono::steady_clock::time_point last_;
};

struct PipelineOptions {
  preprocess::RestoreMode restore = preprocess::RestoreMode::Auto;
  preprocess::Options preprocess;  ///< extension tags seen by line restoration
  expand::ExpandOptions expand;
  bool lint_redundant = false;     ///< `--lint redundant`: classes repeating their ancestors
  StageTimes* times = nullptr;     ///< when set, each stage's time is added to it
};

/// One page after the front end. It views the page (whose text restoration replaced)
/// and the template store: both must outlive it. Not copyable or movable: the
/// Expansion's and the locator's views point into it.
struct PageTrees {
  PageTrees() = default;
  PageTrees(const PageTrees&) = delete;
  PageTrees& operator=(const PageTrees&) = delete;

  std::string file;                   ///< "file#Title", the diagnostics' file
  preprocess::RestoreResult restored; ///< what restoration did (its text moved into the page)
  expand::Expansion expansion;
  parse::Document doc;
  select::TreeConditions conditions;  ///< filled by Pipeline::select and compile
  /// Document positions (page text or parameter Fragment) → where in the page or
  /// template that byte came from, with the template chain.
  select::Locate locate;
};

class Pipeline {
public:
  /// `store` holds the templates (may be empty); diagnostics of every stage go to `sink`.
  Pipeline(expand::TemplateStore& store, support::DiagnosticSink& sink, PipelineOptions options = {});
  ~Pipeline();

  /// Restores the page's lines (in place: `page.revision.text` becomes the restored text),
  /// expands and parses it.
  std::unique_ptr<PageTrees> parse(ingest::Page& page);
  /// parse() and every node's selector condition, with the selector lints.
  std::unique_ptr<PageTrees> select(ingest::Page& page);
  /// One page in, its rules out (diagnostics to the sink). The page's text is restored
  /// in place as by parse().
  extract::PageRules compile(ingest::Page& page);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace wikic::cli
