#!/usr/bin/env bash
# Refills the "=>" lines of corpus/expr/expr.txt with what MediaWiki 1.39 (Debian's
# package, ParserFunctions enabled, set up by ../shared/peers/setup.sh) returns for
# {{#expr: …}} of each expression line. All cases run in one MediaWiki process.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
peers="${WIKIC_SHARED_DIR:-$root/../shared}/peers"
export MW_CONFIG_FILE="${MW_CONFIG_FILE:-/tmp/peers/mw/LocalSettings.php}"
[ -f "$MW_CONFIG_FILE" ] || { echo "regen-expr-oracle.sh: run $peers/setup.sh first" >&2; exit 2; }
python3 - "$root/corpus/expr/expr.txt" "$peers/mw/expand.php" <<'PY'
import subprocess, sys
path, expand = sys.argv[1], sys.argv[2]
lines = open(path, encoding='utf-8').read().split('\n')
header, cases = [], []
i = 0
while i < len(lines) and lines[i].startswith('#'):
    header.append(lines[i]); i += 1
while i < len(lines):
    if lines[i].startswith('=>'):
        i += 1; continue
    if i == len(lines) - 1 and lines[i] == '':
        break
    cases.append(lines[i]); i += 1
# One marker line between results, so multi-line results stay attached to their case.
marker = 'WIKIC-CASE-BOUNDARY'
text = '\n'.join('{{#expr:' + c + '}}\n' + marker for c in cases)
out = subprocess.run(['php', expand, '--title', 'Expr oracle'], input=text.encode(), capture_output=True, check=True).stdout.decode()
results = out.split('\n' + marker)
assert len(results) >= len(cases), (len(results), len(cases))
with open(path, 'w', encoding='utf-8') as f:
    f.write('\n'.join(header) + '\n')
    for k, c in enumerate(cases):
        r = results[k].lstrip('\n') if k > 0 else results[k]
        f.write(c + '\n=> ' + r.replace('\n', '\\n') + '\n')
print(f'regen-expr-oracle.sh: {len(cases)} cases')
PY
