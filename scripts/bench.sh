#!/usr/bin/env bash
# Benchmarks wikic against the peer tools on the same generated export, in one run,
# and prints MB/s (page-text MB, 10^6 bytes, per second of wall time, process start-up
# included) and peak RSS side by side with each peer's ratio to wikic.
#   scripts/bench.sh [--mb N] [--no-peers]      (default: 200 MB of page text)
# Peers come from ../shared/peers (installed by its setup.sh); a missing peer is skipped
# with a note, never silently.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
peers="$root/../shared/peers"
work="${WIKIC_BENCH_DIR:-/tmp/wikic-bench}"
mb=200; with_peers=1
while [ $# -gt 0 ]; do
  case "$1" in
    --mb) mb="$2"; shift 2 ;;
    --no-peers) with_peers=0; shift ;;
    *) echo "usage: scripts/bench.sh [--mb N] [--no-peers]" >&2; exit 2 ;;
  esac
done
# Per-run scratch files, and the last compile's 1.6 GB of output, go when the script
# ends (also on failure or ^C): a nightly bench must not fill /tmp run after run.
trap 'rm -f "$work/time.$$" "$work/stderr.$$" "$work/floor.$$"; rm -rf "$work/compile-out"' EXIT
command -v /usr/bin/time >/dev/null || { bash "$root/scripts/setup.sh"; apt-get install -y -qq time >/dev/null; }
source "$root/scripts/common.sh"
build_release_wikic

# The seed page as captured (collapsed newlines), repeated to the requested size.
seed_export "$mb" "$work"
text_mb=$(python3 -c "print($copies * $page_bytes / 1e6)")
xml_mb=$(python3 -c "print($(stat -c %s "$export_xml") / 1e6)")
printf 'corpus: %s (%d pages, %.1f MB of page text, %.1f MB of XML)\n' "$export_xml" "$copies" "$text_mb" "$xml_mb"

wikic_rate=""
# Every tool reads the same files from the page cache: the first one measured must not
# pay for the disk.
cat "$export_xml" > /dev/null
# measure LABEL COMMAND...: one run, wall seconds and peak RSS from GNU time.
measure() {
  local label="$1"; shift
  local t="$work/time.$$"
  if ! /usr/bin/time -f '%e %M' -o "$t" "$@" >/dev/null 2>"$work/stderr.$$"; then
    printf '%-34s failed: %s\n' "$label" "$(tail -1 "$work/stderr.$$")"; return 0
  fi
  read -r secs kb < "$t"
  rate=$(python3 -c "print($text_mb / max($secs, 0.01))")
  python3 - "$label" "$secs" "$kb" "$rate" "${wikic_rate:-$rate}" <<'PY'
import sys
label, secs, kb, rate, ref = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
print(f"{label:34s} {max(secs, 0.01):8.2f} s {rate:9.1f} MB/s {kb / 1024:8.1f} MB RSS   wikic is {ref / max(rate, 1e-9):6.1f}x faster")
PY
  [ -n "$wikic_rate" ] || wikic_rate="$rate"
}

echo
echo "== read the export (every page's title and text) =="
printf '%-34s %10s %14s %14s\n' tool wall throughput "peak RSS"
measure "wikic pages" "$wikic" pages "$export_xml"
if [ "$with_peers" = 1 ]; then
  if [ -f "$peers/drivers/pages.py" ]; then
    measure "python ElementTree iterparse" python3 -c "
import sys; sys.path.insert(0, '$peers/drivers')
from pages import pages
n = sum(len(t) for _, t in pages(sys.argv[1]))" "$export_xml"
  else echo "python ElementTree iterparse       skipped: $peers/drivers/pages.py not found"; fi
  if command -v node >/dev/null && [ -f "$peers/drivers/pages.js" ]; then
    measure "node streaming reader (peers)" node -e "
const { pages } = require('$peers/drivers/pages.js'); let n = 0;
for (const [t, x] of pages(process.argv[1])) n += x.length;" "$export_xml"
  else echo "node streaming reader (peers)      skipped: node or $peers/drivers/pages.js not found"; fi
fi

echo
echo "== expand templates (MediaWiki's Parser::preprocess against the same stand-in templates) =="
# The peers' stand-in templates (ScoringRow, Feature, Figure, ColorYellow, ColorGreen) as
# an export, so wikic expands what MediaWiki expands: --expand-all, nothing kept semantic.
tpl_args=()
for f in "$peers"/mw/templates/*.wiki; do
  [ -f "$f" ] || continue
  n="$(basename "$f" .wiki)"
  tpl_args+=("{\"title\": \"Template:$n\", \"ns\": 10, \"file\": \"$f\"}")
done
if [ ${#tpl_args[@]} -gt 0 ]; then
  python3 "$root/scripts/export_xml.py" "$work/templates.xml" "${tpl_args[@]}"
  wikic_rate=""
  printf '%-34s %10s %14s %14s\n' tool wall throughput "peak RSS"
  measure "wikic expand --expand-all" "$wikic" expand "$export_xml" --expand-all --templates "$work/templates.xml"
  if [ "$with_peers" = 1 ] && [ -f "${PEERS_STATE:-/tmp/peers}/mw/LocalSettings.php" ]; then
    measure "MediaWiki Parser::preprocess" env MW_CONFIG_FILE="${PEERS_STATE:-/tmp/peers}/mw/LocalSettings.php" \
      php "$peers/mw/bench.php" --mode expand "$export_xml"
  else
    echo "MediaWiki Parser::preprocess        skipped: run $peers/setup.sh to install the oracle wiki"
  fi
else
  echo "skipped: no stand-in templates in $peers/mw/templates"
fi


echo
echo "== preprocess + parse the restored page (wikic: restore check, regions, document tree; templates opaque) =="
restored="$work/seed.restored.wiki"
"$wikic" parse "$root/corpus/wica/scoring-during-turn-sequence.xml" --print-restored 2>/dev/null | head -c -1 > "$restored"
restored_xml="$work/restored-${mb}mb.xml"
[ -f "$restored_xml" ] || python3 "$root/scripts/export_xml.py" "$restored_xml" --repeat "$copies" \
  --title "Carcassonne Scoring During Turn Sequence" --file "$restored"
# The slow peers parse a 10-page sample of the same export; MB/s compares either way.
sample_xml="$work/restored-sample.xml"
[ -f "$sample_xml" ] || python3 "$root/scripts/export_xml.py" "$sample_xml" --repeat 10 \
  --title "Carcassonne Scoring During Turn Sequence" --file "$restored"
sample_mb=$(python3 -c "print(10 * $page_bytes / 1e6)")
cat "$restored_xml" "$sample_xml" > /dev/null
wikic_rate=""
printf '%-34s %10s %14s %14s\n' tool wall throughput "peak RSS"
measure "wikic parse --tree doc --no-expand" "$wikic" parse "$restored_xml" --tree doc --no-expand --stats
full_mb="$text_mb"
# For information: the same with template expansion first (what `wikic compile` parses);
# the ratio column compares it with the line above.
measure "  (with expansion: --tree doc)" "$wikic" parse "$restored_xml" --tree doc --stats
if [ "$with_peers" = 1 ]; then
  if [ -f "${PEERS_STATE:-/tmp/peers}/mw/LocalSettings.php" ]; then
    measure "MediaWiki preprocessToDom" env MW_CONFIG_FILE="${PEERS_STATE:-/tmp/peers}/mw/LocalSettings.php" \
      php "$peers/mw/bench.php" --mode dom "$restored_xml"
  else
    echo "MediaWiki preprocessToDom           skipped: run $peers/setup.sh"
  fi
  text_mb="$sample_mb"
  # Debian's python3-mwparserfromhell is installed for the system interpreter.
  if /usr/bin/python3 -c "import mwparserfromhell" 2>/dev/null; then
    measure "mwparserfromhell (10-page sample)" /usr/bin/python3 "$peers/drivers/mwph.py" "$sample_xml"
  else
    echo "mwparserfromhell                    skipped: python3-mwparserfromhell not installed"
  fi
  text_mb="$full_mb"
fi

echo
echo "targets: wikic reads >= 300 MB/s with peak RSS < 100 MB on a >= 200 MB export;"
echo "         wikic expands >= 20x faster than MediaWiki's Parser::preprocess;"
echo "         preprocess + parse >= 100 MB/s (the ratio column compares MB/s, also for samples)"

echo
echo "== compile (wikic: restore, expand, parse, select, extract, write rules.yaml/xml/json) =="
# The first section's export (the seed as captured, newlines collapsed). No peer turns
# wikitext into rule records, so the peers here do the nearest whole job on the same
# page: MediaWiki renders it to HTML (Parser::parse, what a reader sees; fed the
# line-restored text, which it needs) and mwparserfromhell builds its tree. Both run on
# a 10-page sample; MB/s compares either way. CPU is user+sys seconds, start-up included.
compile_out="$work/compile-out"
compile_restored="$work/compile-restored.wiki"
"$wikic" parse "$root/corpus/wica/scoring-during-turn-sequence.xml" --print-restored 2>/dev/null | head -c -1 > "$compile_restored"
compile_sample="$work/compile-sample.xml"
[ -f "$compile_sample" ] || python3 "$root/scripts/export_xml.py" "$compile_sample" --repeat 10 \
  --title "Carcassonne Scoring During Turn Sequence" --file "$compile_restored"
compile_sample_mb=$(python3 -c "print(10 * $page_bytes / 1e6)")
cat "$export_xml" "$compile_sample" > /dev/null
# measure_cpu LABEL MB COMMAND...: wall and CPU MB/s and peak RSS of one run.
compile_ref=""
measure_cpu() {
  local label="$1" mbytes="$2"; shift 2
  local t="$work/time.$$"
  if ! /usr/bin/time -f '%e %U %S %M' -o "$t" "$@" >/dev/null 2>"$work/stderr.$$"; then
    printf '%-36s failed: %s\n' "$label" "$(tail -1 "$work/stderr.$$")"; return 0
  fi
  read -r secs user sys kb < "$t"
  python3 - "$label" "$mbytes" "$secs" "$user" "$sys" "$kb" "${compile_ref:-}" <<'PY'
import sys
label, mb, wall, user, sys_, kb = sys.argv[1], float(sys.argv[2]), *map(float, sys.argv[3:6]), int(sys.argv[6])
cpu = max(user + sys_, 0.01); wall = max(wall, 0.01)
ref = float(sys.argv[7]) if sys.argv[7] else mb / cpu
print(f"{label:36s} {wall:7.2f} s {mb / wall:7.1f} MB/s {cpu:7.2f} s {mb / cpu:7.1f} MB/s {kb / 1024:7.1f} MB"
      f"   wikic is {ref / (mb / cpu):6.1f}x (CPU)")
PY
  [ -n "$compile_ref" ] || compile_ref=$(python3 -c "print($mbytes / max($(awk '{print $2 + $3}' "$t"), 0.01))")
}
printf '%-36s %9s %12s %9s %12s %10s\n' tool wall "wall rate" cpu "cpu rate" "peak RSS"
# Each compile writes into an empty folder: replacing the previous run's 1.5 GB of files
# would add the kernel's work of freeing them to the measured sys time.
rm -rf "$compile_out"
measure_cpu "wikic compile" "$text_mb" "$wikic" compile "$export_xml" --out "$compile_out" --timings
# Where that run spent its time, stage by stage (wall seconds, from --timings).
grep '^wikic: time:' "$work/stderr.$$" | sed 's/^wikic: time: /  stages: /' || true
read -r _ compile_user compile_sys _ < "$work/time.$$"
out_bytes=$(stat -c %s "$compile_out"/rules.* "$compile_out"/diagnostics.txt "$compile_out"/pages.* | awk '{n += $1} END {print n}')
python3 - "$out_bytes" "$text_mb" "$compile_user" "$compile_sys" <<'PY'
import sys
out, mb, user, sys_ = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
# The rule files go to the disk by direct I/O in 4 MiB blocks (support/files.cpp), so
# sys is small: mapping the export in, and the files' last partial blocks.
print(f"  output: {out / 1e6:.0f} MB written ({out / (mb * 1e6):.1f} bytes per page byte); "
      f"CPU: user {user:.2f} s, sys {sys_:.2f} s")
PY
# The floor under the writing: the same number of bytes written by dd as the compile
# writes them (4 MiB blocks, direct I/O), nothing computed. Its wall time is what the
# disk needs; its CPU time is what no amount of compiler work can win back. (Through the
# page cache, as before the compile used direct I/O, the same bytes cost this VM's kernel
# 0.3-3.9 s of CPU depending on what memory it had touched before.)
rm -rf "$compile_out"
mkdir -p "$compile_out"
floor_file="$compile_out/write-floor.$$"
if /usr/bin/time -f '%e %U %S' -o "$work/floor.$$" dd if=/dev/zero of="$floor_file" bs=4M oflag=direct \
     count=$(( (out_bytes + 4194303) / 4194304 )) status=none 2>/dev/null; then
  read -r floor_wall floor_user floor_sys < "$work/floor.$$"
  python3 - "$out_bytes" "$text_mb" "$floor_wall" "$floor_user" "$floor_sys" <<'PY'
import sys
out, mb, wall, user, sys_ = int(sys.argv[1]), float(sys.argv[2]), *map(float, sys.argv[3:6])
print(f"  write floor: the same {out / 1e6:.0f} MB written by dd (direct I/O) take {wall:.2f} s wall, "
      f"CPU {user + sys_:.2f} s")
PY
fi
rm -f "$floor_file" "$work/floor.$$"
# Real exports keep their newlines, so line restoration has nothing to do: the same
# pages as restored text.
rm -rf "$compile_out"
measure_cpu "wikic compile (newlines kept)" "$text_mb" "$wikic" compile "$restored_xml" --out "$compile_out"
if [ "$with_peers" = 1 ]; then
  if [ -f "${PEERS_STATE:-/tmp/peers}/mw/LocalSettings.php" ]; then
    measure_cpu "MediaWiki Parser::parse (10 pages)" "$compile_sample_mb" \
      env MW_CONFIG_FILE="${PEERS_STATE:-/tmp/peers}/mw/LocalSettings.php" php "$peers/mw/bench.php" --mode html "$compile_sample"
  else
    echo "MediaWiki Parser::parse              skipped: run $peers/setup.sh"
  fi
  if /usr/bin/python3 -c "import mwparserfromhell" 2>/dev/null; then
    measure_cpu "mwparserfromhell (10 pages)" "$compile_sample_mb" /usr/bin/python3 "$peers/drivers/mwph.py" "$compile_sample"
  else
    echo "mwparserfromhell                     skipped: python3-mwparserfromhell not installed"
  fi
fi
echo "target: wikic compile >= 100 MB/s on one core with peak RSS < 100 MB on a >= 180 MB export"
