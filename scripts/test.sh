#!/usr/bin/env bash
# Installs what is missing, builds wikic with AddressSanitizer + UndefinedBehaviorSanitizer
# in build-test/ and the shipped Release build in build/ (checked against the golden
# output), prepares MediaWiki's answers for the parser-test differential suite, and runs
# every test through ctest; the last lines are ctest's summary.
# CI (.ci/run) calls exactly this. Warnings are errors when CI is set.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bash scripts/setup.sh --test
werror=OFF
[ -n "${CI:-}" ] && werror=ON
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWIKIC_SANITIZE=ON -DWIKIC_WERROR=$werror >/dev/null
cmake --build build-test -j2
# The binary users run (Release, mimalloc: what run.sh and bench.sh build) must write the
# reviewed golden output too: the suite below runs the sanitizer build, which keeps glibc's
# allocator and other optimisation, so golden_test runs once more against it.
source scripts/common.sh
build_release_wikic
echo "test.sh: golden_test against the Release build ($("$wikic" --version))"
WIKIC_TEST_BINARY="$wikic" build-test/tests/golden_test
# MediaWiki 1.39 from Debian expands the parser tests' template cases; the results stay
# in the build folder (the parser tests are GPL and never enter the repository).
bash scripts/parsertests-oracle.sh build-test/parsertests-oracle
cd build-test
# Here the parser-test suite must run: its answers were just made, so their absence is a
# failure, not the skip a developer's bare `ctest` gets.
WIKIC_PARSERTESTS_REQUIRED=1 ctest --output-on-failure -j2
