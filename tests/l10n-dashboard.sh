#!/usr/bin/env bash
# Renders the translation dashboard (DIR/l10n/index.html of `wikic l10n`) in headless
# Chromium: the screenshot must be produced and non-trivial, and the page must run its
# script without an error (window.onerror writes data-script-error into the DOM; console
# errors show in Chromium's log). A copy with a deliberately throwing script must fail
# the same checks, so the test cannot pass blind. Usage: l10n-dashboard.sh WIKIC INPUT…
set -euo pipefail
wikic="$1"
shift
browser="$(command -v chromium || command -v chromium-browser || true)"
if [ -z "$browser" ]; then
  echo "l10n-dashboard: chromium is not installed (scripts/setup.sh --test installs it)" >&2
  exit 1
fi
work="$(mktemp -d /tmp/wikic-dashboard-XXXXXX)"
trap 'rm -rf "$work"' EXIT
"$wikic" l10n "$@" --out "$work/out" 2>"$work/wikic.log" || { cat "$work/wikic.log" >&2; exit 1; }
page="$work/out/l10n/index.html"
[ -s "$page" ] || { echo "l10n-dashboard: no $page" >&2; exit 1; }

# check_page FILE NAME: 0 when the page renders cleanly; reasons on stderr otherwise.
check_page() {
  local file="$1" name="$2" fail=0
  # Running as root needs --no-sandbox; a private profile keeps runs independent.
  local flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run
               --user-data-dir="$work/profile-$name" --window-size=1280,2000)
  timeout 50 "$browser" "${flags[@]}" --enable-logging=stderr --v=0 \
    --screenshot="$work/$name.png" "file://$file" >"$work/$name.out" 2>"$work/$name.err" || true
  timeout 50 "$browser" "${flags[@]}" --dump-dom "file://$file" >"$work/$name.dom" 2>/dev/null || true
  local size
  size=$(stat -c %s "$work/$name.png" 2>/dev/null || echo 0)
  if [ "$(head -c 8 "$work/$name.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" != "89504e470d0a1a0a" ]; then
    echo "$name: no PNG screenshot" >&2
    fail=1
  elif [ "$size" -lt 5000 ]; then
    echo "$name: screenshot of $size bytes is too small to show the report" >&2
    fail=1
  fi
  # The page's console messages reach the log as CONSOLE(…) lines; uncaught errors say so.
  if grep -E 'CONSOLE.*(Uncaught|Error)|Uncaught ' "$work/$name.err" >&2; then
    echo "$name: the page logged errors" >&2
    fail=1
  fi
  grep -q 'data-script-ok="1"' "$work/$name.dom" || { echo "$name: the page's script did not finish" >&2; fail=1; }
  if grep -q 'data-script-error="' "$work/$name.dom"; then
    echo "$name: window.onerror caught: $(grep -o 'data-script-error="[^"]*"' "$work/$name.dom")" >&2
    fail=1
  fi
  for want in '<svg class="bar"' 'id="languages"'; do
    grep -q "$want" "$work/$name.dom" || { echo "$name: rendered page lacks $want" >&2; fail=1; }
  done
  [ "$fail" = 0 ] && echo "$name: screenshot $size bytes, no script errors"
  return "$fail"
}

check_page "$page" dashboard
# The same page with a statement that throws in its script must be caught.
sed 's|^(function(){|window.wikicBroken.call();(function(){|' "$page" >"$work/broken.html"
cmp -s "$page" "$work/broken.html" && { echo "l10n-dashboard: could not plant the error" >&2; exit 1; }
if check_page "$work/broken.html" broken 2>"$work/broken.reasons"; then
  echo "l10n-dashboard: a page that throws passed the checks" >&2
  exit 1
fi
grep -q 'data-script-error\|logged errors' "$work/broken.reasons" ||
  { echo "l10n-dashboard: the throwing page failed for another reason:" >&2; cat "$work/broken.reasons" >&2; exit 1; }
echo "l10n-dashboard: a throwing page is caught"
