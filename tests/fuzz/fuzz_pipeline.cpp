// Fuzz target over the front end: the first byte picks the path (preprocess in page or
// transclusion mode, line restoration, document parse, template expansion, #expr), the
// rest is the input. Every path must terminate without a crash or sanitizer report, and
// the preprocessor tree must print back the input byte for byte.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "expand/expander.hpp"
#include "expand/expr.hpp"
#include "ingest/input.hpp"
#include "parse/parser.hpp"
#include "preprocess/preprocessor.hpp"
#include "preprocess/printers.hpp"
#include "preprocess/restore_lines.hpp"

namespace {
void check(bool ok) {
  if (!ok) std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace wikic;
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  support::DiagnosticSink sink;
  switch (data[0] % 6) {
  case 0:
  case 1: {
    preprocess::Options options;
    options.for_inclusion = data[0] % 6 == 1;
    auto tree = preprocess::preprocess(text, options, {&sink, "fuzz"});
    check(preprocess::to_wikitext(tree) == text);
    (void)preprocess::to_xml(tree);
    break;
  }
  case 2: {
    auto restored = preprocess::restore_lines(text, preprocess::RestoreMode::Always, {}, {&sink, "fuzz"});
    auto tree = preprocess::preprocess(restored.text);
    check(preprocess::to_wikitext(tree) == restored.text);
    break;
  }
  case 3: {
    auto doc = parse::parse_document(text, sink, {});
    (void)doc.size();
    break;
  }
  case 4: {
    // The input is split at the first NUL into a template and a page that calls it.
    auto nul = text.find('\0');
    std::string_view tpl = nul == std::string_view::npos ? text : text.substr(0, nul);
    std::string_view page = nul == std::string_view::npos ? std::string_view("{{F|a|b=c}}") : text.substr(nul + 1);
    const auto& site = ingest::default_site();
    expand::TemplateStore store(site);
    store.add(ingest::page_from_wikitext("Template:F", std::string(tpl), "fuzz", site));
    expand::Expander expander(store, {}, sink);
    auto result = expander.expand_page(ingest::page_from_wikitext("Fuzz", std::string(page), "fuzz", site));
    (void)result.text_with_semantic_calls();
    break;
  }
  case 5: (void)expand::expr_function(text); break;
  }
  return 0;
}
