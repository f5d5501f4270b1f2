// Every resource limit of the document parser, in one place. Hitting a limit is a
// diagnostic and a graceful degradation (deeper markup stays text, the rest of the page
// becomes one text node), never a crash or super-linear time.
#pragma once
#include <cstddef>

namespace wikic::parse {

/// Open nodes on the tree builder's stack (elements, tables, lists, …). Every search down
/// the stack is bounded by this, which keeps the parser linear in the input size.
inline constexpr std::size_t kMaxNestingDepth = 256;
/// Nodes per document; past it the rest of the page is kept as one text node.
inline constexpr std::size_t kMaxNodes = 16'000'000;
/// Links inside links (only file captions nest) and link texts parsed recursively.
inline constexpr std::size_t kMaxInlineDepth = 8;
/// Diagnostics per page; one more says the rest were suppressed. Also keeps the cost of
/// line:col lookups on pathological one-line pages bounded.
inline constexpr std::size_t kMaxDiagnostics = 1000;
/// Attributes kept per element; the rest are dropped with a diagnostic.
inline constexpr std::size_t kMaxAttributes = 128;

}  // namespace wikic::parse
