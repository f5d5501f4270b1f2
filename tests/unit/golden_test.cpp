// The reviewed output of the shipped corpus: `wikic compile corpus/wica` must give
// exactly tests/golden/wica/ (regenerate with scripts/update-golden.sh and review the
// diff). Also checks that the YAML reads back with the types a consumer expects.
#include <doctest/doctest.h>
#include <yaml-cpp/yaml.h>

#include "util/run.hpp"

using namespace wikic::test;

TEST_CASE("compile of corpus/wica equals the reviewed golden output") {
  ScratchDir dir;
  // Paths in the output are as given on the command line: run from the repository.
  std::string cmd = "cd " + std::string(WIKIC_SOURCE_DIR) + " && " + wikic_binary() + " compile corpus/wica --out " +
                    (dir / "out").string() + " 2>/dev/null";
  REQUIRE(std::system(cmd.c_str()) == 0);
  for (const auto& entry : std::filesystem::directory_iterator(source_path("tests/golden/wica"))) {
    INFO("golden file " << entry.path().filename().string());
    auto produced = dir / "out" / entry.path().filename();
    REQUIRE(std::filesystem::exists(produced));
    CHECK(slurp(produced) == slurp(entry.path()));
  }
}

TEST_CASE("pages.yaml reads back with strings kept as strings") {
  auto doc = YAML::LoadFile(source_path("tests/golden/wica/pages.yaml"));
  CHECK(doc["inputs"][0]["schema-version"].as<std::string>() == "0.11");
  auto page = doc["pages"][0];
  CHECK(page["title"].as<std::string>() == "Carcassonne Scoring During Turn Sequence");
  CHECK(page["bytes"].as<int>() == 179452);
  CHECK(page["timestamp"].Tag() == "!");  // quoted: not a YAML timestamp
}
