// Test helper: the rule records of a one-page input as the compile pipeline extracts them
// (cli::Pipeline), for tests that inspect extract::PageRules rather than the files
// `wikic compile` writes.
#pragma once
#include <optional>
#include <string>

#include <doctest/doctest.h>

#include "cli/pipeline.hpp"
#include "extract/rules.hpp"
#include "ingest/input.hpp"

namespace wikic::test {

/// The last page of `path` (an export or a .wiki file), compiled.
inline extract::PageRules compile_page(const std::string& path) {
  support::DiagnosticSink sink;
  std::optional<extract::PageRules> out;
  ingest::read_inputs({path}, {}, sink, [&](const ingest::SiteInfo& site, ingest::Page&& page) {
    expand::TemplateStore store(site);
    out = cli::Pipeline(store, sink).compile(page);
  });
  REQUIRE(out);
  return *out;
}

}  // namespace wikic::test
