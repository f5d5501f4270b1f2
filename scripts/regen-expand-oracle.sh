#!/usr/bin/env bash
# Refills the "!! expanded" sections of corpus/expand/*.txt with MediaWiki 1.39's own
# Parser::preprocess output. The fixtures' articles are imported into a private copy of
# the peer wiki (../shared/peers/setup.sh installs Debian's mediawiki on SQLite), so the
# peers' own wiki is never changed. Review the result with `git diff corpus/expand`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
state="${PEERS_STATE:-/tmp/peers}"
export MW_CONFIG_FILE="${MW_CONFIG_FILE:-$state/mw/LocalSettings.php}"
[ -f "$MW_CONFIG_FILE" ] || { echo "regen-expand-oracle.sh: run ../shared/peers/setup.sh first" >&2; exit 2; }
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
# A fresh wiki with only MediaWiki's own pages: the peers' stand-in templates are removed
# by giving every fixture article a revision, and no fixture relies on pages it lacks.
cp -a "$state/mw/data.templates-only" "$work/data"
export PEER_MW_DATA="$work/data"
python3 "$root/scripts/expand_fixtures.py" export "$work/articles.xml" "$root"/corpus/expand/*.txt
php /usr/share/mediawiki/maintenance/importDump.php --quiet "$work/articles.xml"
python3 "$root/scripts/expand_fixtures.py" cases "$root"/corpus/expand/*.txt > "$work/cases.json"
php "$root/scripts/oracle/expand-batch.php" < "$work/cases.json" > "$work/results.json"
python3 "$root/scripts/expand_fixtures.py" fill "$work/results.json" "$root"/corpus/expand/*.txt
