#!/usr/bin/env bash
# Rewrites tests/golden/wica/ from the current build's output on corpus/wica, for review:
# the golden test fails on any difference, and `git diff tests/golden` shows what changed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
wikic="${WIKIC:-build/wikic}"
[ -x "$wikic" ] || { echo "update-golden.sh: build wikic first (scripts/run.sh)" >&2; exit 2; }
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
"$wikic" compile corpus/wica --out "$tmp" || true
rm -rf tests/golden/wica && mkdir -p tests/golden/wica
cp "$tmp"/* tests/golden/wica/
echo "update-golden.sh: tests/golden/wica/ rewritten; review with: git diff tests/golden"
