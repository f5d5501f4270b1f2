#!/usr/bin/env bash
# Regenerates the `!! pp-xml` expectations of corpus/preprocess/*.txt from MediaWiki 1.39
# itself (the oracle installed by ../shared/peers/setup.sh). Page-view tests go through
# ../shared/peers/mw/expand.php --mode dom; tests with `!! options transclusion` through
# scripts/preprocess-oracle.php --inclusion. Tests with the option `manual` keep their
# hand-written expectation. Usage: scripts/regen-preprocess-oracle.sh [FILE…]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
peers="${WIKIC_PEERS:-$root/../shared/peers}"
export MW_CONFIG_FILE="${MW_CONFIG_FILE:-/tmp/peers/mw/LocalSettings.php}"
if [[ ! -f "$MW_CONFIG_FILE" ]]; then
  echo "regen-preprocess-oracle: no MediaWiki at $MW_CONFIG_FILE (run $peers/setup.sh)" >&2
  exit 2
fi
files=("$@")
[[ ${#files[@]} -gt 0 ]] || files=("$root"/corpus/preprocess/*.txt)
python3 - "$peers/mw/expand.php" "$root/scripts/preprocess-oracle.php" "${files[@]}" <<'PY'
import subprocess, sys, tempfile, os
expand, oracle, files = sys.argv[1], sys.argv[2], sys.argv[3:]

def oracle_xml(text, inclusion):
    with tempfile.NamedTemporaryFile('wb', suffix='.wiki', delete=False) as f:
        f.write(text.encode('utf-8', 'surrogateescape'))
        name = f.name
    try:
        cmd = ['php', oracle, '--inclusion', name] if inclusion else ['php', expand, '--mode', 'dom', name]
        out = subprocess.run(cmd, check=True, capture_output=True).stdout.decode('utf-8', 'surrogateescape')
    finally:
        os.unlink(name)
    return out[:-1] if out.endswith('\n') else out

for path in files:
    lines = open(path, encoding='utf-8', errors='surrogateescape').read().split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    out, sections, start, changed = [], {}, None, 0
    k = 0
    while k < len(lines):
        line = lines[k]
        if line.startswith('!! '):
            name = line[3:].strip()
            if name == 'end':
                opts = sections.get('options', '').split()
                if 'manual' not in opts and 'wikitext' in sections:
                    xml = oracle_xml(sections['wikitext'], 'transclusion' in opts)
                    if sections.get('pp-xml') != xml:
                        changed += 1
                    # rebuild this test's block with the oracle's pp-xml
                    block = out[start:]
                    del out[start:]
                    i = 0
                    while i < len(block):
                        out.append(block[i])
                        if block[i] == '!! pp-xml':
                            out.append(xml)
                            i += 1
                            while i < len(block) and not block[i].startswith('!! '):
                                i += 1
                            continue
                        i += 1
                    if '!! pp-xml' not in block:
                        out.append('!! pp-xml')
                        out.append(xml)
                out.append(line)
                sections, start = {}, None
                k += 1
                continue
            if name == 'test':
                start = len(out)
            out.append(line)
            body = []
            k += 1
            while k < len(lines) and not lines[k].startswith('!! '):
                body.append(lines[k])
                k += 1
            out.extend(body)
            sections[name] = '\n'.join(body)
            continue
        out.append(line)
        k += 1
    open(path, 'w', encoding='utf-8', errors='surrogateescape').write('\n'.join(out) + '\n')
    print(f'{os.path.basename(path)}: {changed} expectation(s) changed')
PY
