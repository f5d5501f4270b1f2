#!/usr/bin/env bash
# Installs the Debian packages wikic builds and tests with, and nothing else.
# Idempotent and quiet when everything is present; needs root (apt-get) only when
# something is missing. Called by scripts/run.sh and scripts/test.sh.
set -euo pipefail

# Build: compiler toolchain and the libraries of the design card.
build_pkgs="g++ cmake make libboost-dev libpugixml-dev libyaml-cpp-dev doctest-dev
            nlohmann-json3-dev libcli11-dev libmimalloc-dev"
# Tests: xmllint (XSD), a JSON Schema validator, python3 for the test helpers, and
# chromium to render the translation dashboard headless (tests/l10n-dashboard.sh).
test_pkgs="libxml2-utils python3 python3-jsonschema chromium"

want="$build_pkgs"
[ "${1:-}" = "--test" ] && want="$want $test_pkgs"

missing=""
for p in $want; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
  echo "setup.sh: missing Debian packages:$missing (run as root to install them)" >&2
  exit 2
fi
echo "setup.sh: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends $missing >/dev/null
