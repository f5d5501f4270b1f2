#!/usr/bin/env bash
# Builds the fuzz target with clang 14 + libFuzzer (+ASan/UBSan) in build-fuzz/ and runs
# it on a copy of corpus/fuzz for the given number of seconds (default 60). New crashing
# inputs land in build-fuzz/; minimize them into corpus/fuzz (as regression seeds).
#   scripts/fuzz.sh [SECONDS]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
secs="${1:-60}"
bash "$root/scripts/setup.sh" --test
command -v clang++-14 >/dev/null || apt-get install -y -qq clang-14 libclang-rt-14-dev >/dev/null
cmake -S "$root" -B "$root/build-fuzz" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 \
  -DWIKIC_FUZZ=ON -DWIKIC_TESTS=OFF >/dev/null
cmake --build "$root/build-fuzz" -j2 --target fuzz_pipeline
mkdir -p "$root/build-fuzz/corpus"
cp -n "$root"/corpus/fuzz/* "$root/build-fuzz/corpus/" 2>/dev/null || true
cd "$root/build-fuzz"
./fuzz_pipeline -max_total_time="$secs" -max_len=65536 -dict="$root/tests/fuzz/wikitext.dict" corpus
