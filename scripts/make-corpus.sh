#!/usr/bin/env bash
# Regenerates corpus/wica/ from the seed: the text of "Carcassonne Scoring During Turn
# Sequence" is line 1219 of ../shared/seeds/000_a6dbca89aa6bac8f.txt, taken exactly as
# captured (newlines collapsed to spaces), without the line's own terminating newline.
#   scripts/make-corpus.sh [SEED [OUT]]   (OUT defaults to corpus/wica/scoring-during-turn-sequence.xml)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seed="${1:-$root/../shared/seeds/000_a6dbca89aa6bac8f.txt}"
[ -f "$seed" ] || { echo "make-corpus.sh: seed not found: $seed" >&2; exit 2; }
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
source "$root/scripts/common.sh"
seed_page "$tmp/page.wiki" "$seed"
out="${2:-$root/corpus/wica/scoring-during-turn-sequence.xml}"
mkdir -p "$(dirname "$out")"
# Revision metadata from the page history as far as the seeds show it (see corpus/README.md).
python3 "$root/scripts/export_xml.py" "$out" \
  "{\"title\": \"Carcassonne Scoring During Turn Sequence\", \"file\": \"$tmp/page.wiki\",
    \"id\": 0, \"revision\": 325554, \"timestamp\": \"2024-01-21T22:36:00Z\",
    \"user\": \"Bumsakalaka\", \"userid\": 0}"
echo "make-corpus.sh: wrote $out ($(wc -c < "$tmp/page.wiki") bytes of text)"
