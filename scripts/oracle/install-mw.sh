#!/usr/bin/env bash
# Installs MediaWiki 1.39 from Debian (php-cli + SQLite, ParserFunctions enabled) as
# wikic's oracle wiki in $WIKIC_ORACLE_DIR (default /tmp/wikic-oracle). Idempotent: quiet
# when everything is there. Used by the tests that compare with MediaWiki at test time.
set -euo pipefail
dir="${WIKIC_ORACLE_DIR:-/tmp/wikic-oracle}"
pkgs="mediawiki php-cli php-sqlite3 php-intl php-mbstring php-xml"
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "install-mw.sh: installing$missing" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  # mediawiki depends on apache2; a policy-rc.d keeps package scripts from starting it.
  policy=/usr/sbin/policy-rc.d
  created_policy=0
  if [ ! -e "$policy" ]; then printf '#!/bin/sh\nexit 101\n' > "$policy"; chmod +x "$policy"; created_policy=1; fi
  apt-get install -y -qq --no-install-recommends $missing >/dev/null
  [ "$created_policy" = 1 ] && rm -f "$policy"
fi
if [ ! -f "$dir/LocalSettings.php" ]; then
  mkdir -p "$dir/data"
  head -c 24 /dev/urandom | base64 > "$dir/adminpass"
  php /usr/share/mediawiki/maintenance/install.php --quiet --dbtype=sqlite --dbpath="$dir/data" \
    --dbname=oracle --server=http://localhost --scriptpath=/mediawiki --lang=en \
    --passfile="$dir/adminpass" --confpath="$dir" --extensions=ParserFunctions --skins=Vector \
    WikicOracle Admin >/dev/null
  cat >> "$dir/LocalSettings.php" <<PHP
# --- wikic oracle ---
\$wgSQLiteDataDir = getenv( "WIKIC_ORACLE_DATA" ) ?: "$dir/data";
\$wgPFEnableStringFunctions = true;
\$wgMainCacheType = CACHE_NONE;
\$wgParserCacheType = CACHE_NONE;
\$wgPreprocessorCacheThreshold = false;
\$wgJobRunRate = 0;
PHP
  cp -a "$dir/data" "$dir/data.pristine"
fi
echo "$dir/LocalSettings.php"
