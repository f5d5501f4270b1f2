#!/usr/bin/env bash
# Instructions per page of `wikic compile`, stage by stage, counted by callgrind: the
# cost of compiling 13 copies of the seed page minus 3 copies, divided by 10, so start-up
# and first-page work (templates, memos) drop out. Exact and unaffected by machine load,
# unlike bench.sh's timings: the number to compare before and after a speed change.
#   scripts/instructions.sh [--base OTHER_WIKIC] [WIKIC]   (default: build/wikic, Release)
# With --base, both binaries are counted side by side and their outputs compared byte
# for byte, since a speed change must not change a single output byte.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="${WIKIC_BENCH_DIR:-/tmp/wikic-bench}"
base=""
while [ $# -gt 0 ]; do
  case "$1" in
    --base) base="$(readlink -f "$2")"; shift 2 ;;
    -*) echo "usage: scripts/instructions.sh [--base OTHER_WIKIC] [WIKIC]" >&2; exit 2 ;;
    *) break ;;
  esac
done
source "$root/scripts/common.sh"
command -v valgrind >/dev/null || { bash "$root/scripts/setup.sh"; apt-get install -y -qq valgrind >/dev/null; }
if [ $# -gt 0 ]; then
  wikic="$(readlink -f "$1")"
else
  build_release_wikic
fi
mkdir -p "$work"
page="$work/seed.wiki"
seed_page "$page"
for n in 3 13; do
  [ -f "$work/copies-$n.xml" ] || python3 "$root/scripts/export_xml.py" "$work/copies-$n.xml" --repeat "$n" \
    --title "Carcassonne Scoring During Turn Sequence" --file "$page"
done
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# count TAG BINARY: callgrind profiles of both exports, then the per-page table as JSON.
count() {
  local tag="$1" bin="$2"
  # Without debug information: with it, callgrind_annotate lists a function once per
  # source file its inlined code came from, and a stage's row would be one of those parts.
  strip --strip-debug -o "$tmp/$tag.wikic" "$bin"
  bin="$tmp/$tag.wikic"
  for n in 3 13; do
    valgrind --tool=callgrind --callgrind-out-file="$tmp/$tag.$n.cg" \
      "$bin" compile "$work/copies-$n.xml" -o "$tmp/$tag.$n.out" >/dev/null 2>&1
  done
  python3 - "$tmp/$tag.3.cg" "$tmp/$tag.13.cg" > "$tmp/$tag.json" <<'PY'
import json, re, subprocess, sys
# Each stage by the function that runs it once per page, as cli::Pipeline calls them.
STAGES = [
    ("read the export", "wikic::ingest::ExportReader::next()"),
    ("restore lines", "wikic::preprocess::restore_lines_in_place("),
    ("expand", "wikic::expand::Expander::expand_page("),
    ("parse", "wikic::parse::parse_expansion("),
    ("select", "wikic::select::tree_conditions("),
    ("extract", "wikic::extract::extract_rules("),
    ("emit rules", "wikic::emit::RulesWriter::page("),
    ("emit manifest", "wikic::emit::Manifest::to_"),
]
def inclusive(path):
    out = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", path],
                         capture_output=True, text=True, check=True).stdout
    total, rows = 0, {}
    for line in out.splitlines():
        m = re.match(r"\s*([\d,]+)\s+\(.*?\)\s+PROGRAM TOTALS", line)
        if m: total = int(m.group(1).replace(",", ""))
        m = re.match(r"\s*([\d,]+) \([^)]*\)\s+\S*?:(.*?) \[", line)
        if m:
            name, value = m.group(2), int(m.group(1).replace(",", ""))
            # A function's .cold clone jumps back into the function, and callgrind books
            # each jump as a recursive call: its inclusive count can exceed the program's.
            if "[clone .cold]" in line: continue
            for stage, prefix in STAGES:
                # Overloads and recursion ('2) list a function more than once: the
                # largest entry is the one that holds the others.
                if name.startswith(prefix): rows[stage] = max(rows.get(stage, 0), value)
    return total, rows
(t3, r3), (t13, r13) = inclusive(sys.argv[1]), inclusive(sys.argv[2])
per_page = {stage: (r13.get(stage, 0) - r3.get(stage, 0)) / 10 for stage, _ in STAGES}
per_page["whole compile"] = (t13 - t3) / 10
print(json.dumps(per_page))
PY
}

count new "$wikic"
[ -z "$base" ] || count base "$base"
page_bytes=$(stat -c %s "$page")
python3 - "$tmp" "$page_bytes" "$([ -n "$base" ] && echo 1 || echo 0)" <<'PY'
import json, sys
tmp, page_bytes, with_base = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
new = json.load(open(f"{tmp}/new.json"))
base = json.load(open(f"{tmp}/base.json")) if with_base else None
print(f"instructions per seed page ({page_bytes} bytes of page text), callgrind, (13 copies - 3 copies) / 10")
head = f"{'stage':16s} {'M instr':>9s} {'per byte':>9s}"
print(head + (f" {'base M':>9s} {'change':>8s}" if base else ""))
for stage, value in new.items():
    line = f"{stage:16s} {value / 1e6:9.2f} {value / page_bytes:9.1f}"
    if base:
        b = base[stage]
        line += f" {b / 1e6:9.2f} {((value - b) / b * 100 if b else 0):+7.1f}%"
    print(line)
PY
if [ -n "$base" ]; then
  same=1
  for f in rules.json rules.yaml rules.xml pages.yaml pages.xml diagnostics.txt; do
    cmp -s "$tmp/new.13.out/$f" "$tmp/base.13.out/$f" || { echo "output differs from the base: $f"; same=0; }
  done
  [ "$same" = 0 ] || echo "outputs byte-identical to the base (13 copies: rules, pages, diagnostics)"
fi
