// Throughput of the document parser alone: `parse_bench FILE [MB]` repeats FILE to about
// MB megabytes (default 180) and reports MB/s on one core, parsed page by page (as an
// export is) and as one document. Not a ctest entry; scripts/bench.sh may call it.
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "parse/parser.hpp"

int main(int argc, char** argv) {
  using namespace wikic;
  if (argc < 2) {
    std::cerr << "usage: parse_bench FILE [MB]\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string page = buf.str();
  if (page.empty()) return 2;
  double mb = argc > 2 ? std::atof(argv[2]) : 180.0;
  auto repeat = static_cast<std::size_t>(mb * 1e6 / static_cast<double>(page.size()) + 0.5);
  if (repeat == 0) repeat = 1;
  auto now = [] { return std::chrono::steady_clock::now(); };
  auto secs = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };

  // CPU time as well as wall time: the build machine is shared, CPU time is the number
  // that does not move with other people's compiles.
  auto cpu = [] { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; };
  std::size_t nodes = 0;
  double c0 = cpu();
  auto t0 = now();
  for (std::size_t i = 0; i < repeat; ++i) {
    support::DiagnosticSink sink;
    nodes += parse::parse_document(page, sink).size();
  }
  auto t1 = now();
  double c1 = cpu();
  double total = static_cast<double>(page.size() * repeat) / 1e6;
  std::cout << "pages: " << repeat << " x " << page.size() << " B = " << total << " MB, "
            << nodes << " nodes, " << total / secs(t0, t1) << " MB/s wall, " << total / (c1 - c0)
            << " MB/s CPU (page by page)\n";

  std::string big;
  big.reserve(page.size() * repeat + repeat);
  for (std::size_t i = 0; i < repeat; ++i) (big += page) += '\n';
  support::DiagnosticSink sink;
  double c2 = cpu();
  auto t2 = now();
  auto doc = parse::parse_document(big, sink);
  auto t3 = now();
  double c3 = cpu();
  std::cout << "one document: " << big.size() / 1e6 << " MB, " << doc.size() << " nodes, "
            << big.size() / 1e6 / secs(t2, t3) << " MB/s wall, " << big.size() / 1e6 / (c3 - c2)
            << " MB/s CPU (unclosed tags accumulate across the copies)\n";
  return 0;
}
