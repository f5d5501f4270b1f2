#!/usr/bin/env bash
# Where the time of `wikic compile` goes, sampled by the clock: perf's software
# cpu-clock event needs no hardware counters, so it works in VMs. Prints each stage's
# share of all samples (the kernel's share, writing the outputs, included) and the
# hottest functions. instructions.sh counts exactly, but memory stalls and the kernel
# do not show in instruction counts, and a change can cut instructions and no time.
#   scripts/profile.sh [--mb N] [--top K] [WIKIC]   (default: 20 MB export, Release build)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="${WIKIC_BENCH_DIR:-/tmp/wikic-bench}"
mb=20; top=25
while [ $# -gt 0 ]; do
  case "$1" in
    --mb) mb="$2"; shift 2 ;;
    --top) top="$2"; shift 2 ;;
    -*) echo "usage: scripts/profile.sh [--mb N] [--top K] [WIKIC]" >&2; exit 2 ;;
    *) break ;;
  esac
done
source "$root/scripts/common.sh"
command -v perf >/dev/null || { bash "$root/scripts/setup.sh"; apt-get install -y -qq linux-perf >/dev/null; }
if [ $# -gt 0 ]; then wikic="$(readlink -f "$1")"; else build_release_wikic; fi
seed_export "$mb" "$work"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# A first, unsampled run into the same folder: the kernel's cost of writing depends on
# whether this VM's memory was touched lately (the first 1.6 GB written after a pause
# took ten times the system time of the next), and the sampled run should see the
# steady state a nightly run sees, not that.
"$wikic" compile "$export_xml" -o "$tmp/out" >/dev/null 2>&1 || true
if ! perf record -q -e cpu-clock -F 2000 -o "$tmp/perf.data" "$wikic" compile "$export_xml" -o "$tmp/out" \
     >/dev/null 2>"$tmp/stderr"; then
  echo "perf record failed (perf_event_paranoid is $(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo ?)):" >&2
  tail -3 "$tmp/stderr" >&2
  exit 2
fi
perf report -i "$tmp/perf.data" --no-children --sort dso,symbol --percent-limit 0 --stdio 2>/dev/null \
  | grep -v '^#' | grep '%' > "$tmp/report.txt"
python3 - "$tmp/report.txt" "$top" "$export_xml" "$copies" <<'PY'
import re, sys
path, top, export, copies = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
# Self time by where the code lives: a stage's own namespace, the X3 rules (grammar/,
# shared by several stages), the allocator, libc's memcpy and friends, the kernel.
GROUPS = [
    ("kernel (writing the outputs)", lambda dso, sym: dso.startswith("[kernel")),
    ("allocator", lambda dso, sym: "malloc" in dso or sym.startswith(("operator new", "operator delete"))),
    ("libc (memcpy, memcmp, ...)", lambda dso, sym: dso.startswith("libc")),
    ("read the export", lambda dso, sym: "wikic::ingest::" in sym or "pugi" in dso),
    ("restore + preprocess", lambda dso, sym: "wikic::preprocess::" in sym),
    ("expand", lambda dso, sym: "wikic::expand::" in sym),
    ("parse", lambda dso, sym: "wikic::parse::" in sym),
    ("select", lambda dso, sym: "wikic::select::" in sym),
    ("extract", lambda dso, sym: "wikic::extract::" in sym),
    ("emit", lambda dso, sym: "wikic::emit::" in sym),
    ("grammar (X3 rules)", lambda dso, sym: "wikic::grammar::" in sym or "boost::spirit" in sym),
    ("support (line index, scans)", lambda dso, sym: "wikic::support::" in sym),
]
rows = []
for line in open(path):
    m = re.match(r"\s*([\d.]+)%\s+(\S+)\s+\[[.k]\]\s+(.*?)\s*$", line)
    if m: rows.append((float(m.group(1)), m.group(2), m.group(3)))
share = {name: 0.0 for name, _ in GROUPS}
share["other"] = 0.0
for pct, dso, sym in rows:
    share[next((name for name, test in GROUPS if test(dso, sym)), "other")] += pct
print(f"time profile of wikic compile {export} ({copies} pages), perf cpu-clock samples, self time")
print(f"{'where':32s} {'share':>7s}")
for name, pct in sorted(share.items(), key=lambda kv: -kv[1]):
    print(f"{name:32s} {pct:6.1f}%")
print()
print(f"hottest {top} functions")
for pct, dso, sym in rows[:top]:
    print(f"{pct:6.2f}%  {sym[:110]}")
PY
