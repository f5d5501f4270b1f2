#!/usr/bin/env bash
# The maintainer's one command: installs what is missing (Debian packages), builds
# wikic in Release mode, compiles the shipped corpus (corpus/wica) into out/, writes the
# translation report of the shipped Translate fixtures (corpus/l10n) into out/l10n/, and
# prints a short summary. Exit status is wikic's own (0 ok, 1 input errors, 2 I/O).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/common.sh
build_release_wikic
mkdir -p out
start=$(date +%s.%N)
status=0
# Every diagnostic is in out/diagnostics.txt; the terminal gets wikic's summary lines.
build/wikic compile corpus/wica --out out 2> out/.stderr || status=$?
grep '^wikic: ' out/.stderr || true
# The Translate fixtures are a report of their own: one of them reuses the turn-sequence
# page's title, so compiling them with corpus/wica would make two pages of one title.
l10n_status=0
build/wikic l10n corpus/l10n/scoring-after-the-game.xml corpus/l10n/turn-sequence-multilingual.xml \
  --out out 2> out/.stderr || l10n_status=$?
grep '^wikic: ' out/.stderr || true
[ "$status" -ne 0 ] || status=$l10n_status
rm -f out/.stderr
end=$(date +%s.%N)
bytes=$(find corpus/wica -name '*.xml' -printf '%s\n' | awk '{s += $1} END {print s + 0}')
python3 - "$start" "$end" "$bytes" <<'PY'
import os, sys
start, end, size = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
files = sorted(f for f in os.listdir('out') if not f.startswith('.') and f != 'README.md' and f != 'l10n')
print(f"run.sh: compiled corpus/wica ({size / 1e6:.2f} MB of export) in {end - start:.2f} s")
print("run.sh: out/ holds " + ", ".join(f"{f} ({os.path.getsize(os.path.join('out', f))} bytes)" for f in files))
if os.path.isdir('out/l10n'):
    print("run.sh: out/l10n/ holds " + ", ".join(sorted(os.listdir('out/l10n'))) + " (open out/l10n/index.html)")
PY
exit $status
