#!/usr/bin/env bash
# Runs MediaWiki 1.39's Parser::preprocess over the template and parser-function cases
# of ../shared/parsertests (selected by scripts/parsertests_oracle.py) and writes the
# results to OUTDIR/results.json, next to the cases; nothing of the GPL test files enters
# the repository. parsertests_expand_test compares wikic with these results.
#   scripts/parsertests-oracle.sh OUTDIR
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:?usage: scripts/parsertests-oracle.sh OUTDIR}"
shared="${WIKIC_SHARED_DIR:-$root/../shared}"
config="$(bash "$root/scripts/oracle/install-mw.sh" | tail -1)"
export MW_CONFIG_FILE="$config"
dir="$(dirname "$config")"
mkdir -p "$out"
python3 "$root/scripts/parsertests_oracle.py" "$out" "$shared/parsertests" /usr/share/mediawiki/languages/messages/MessagesEn.php
# A scratch copy of the pristine wiki, so earlier imports never leak into the results.
rm -rf "$out/wiki-data" && cp -a "$dir/data.pristine" "$out/wiki-data"
export WIKIC_ORACLE_DATA="$out/wiki-data"
php /usr/share/mediawiki/maintenance/importDump.php --quiet "$out/articles.xml" >/dev/null 2>&1
php "$root/scripts/oracle/expand-batch.php" < "$out/cases.json" > "$out/results.json"
echo "parsertests-oracle.sh: results in $out/results.json"
