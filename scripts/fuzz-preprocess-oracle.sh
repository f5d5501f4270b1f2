#!/usr/bin/env bash
# Random differential test of the preprocessor against MediaWiki 1.39: generates N
# markup-dense random inputs (both modes), asks the oracle for preprocessToDom XML in one
# PHP process (scripts/preprocess-oracle.php --batch), writes them as a temporary corpus
# file and runs the corpus runner on it. Usage: scripts/fuzz-preprocess-oracle.sh
# BUILD_DIR [N] [SEED] [MAXLEN]. Exit status is the runner's.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:?usage: $0 BUILD_DIR [N] [SEED] [MAXLEN]}"
export MW_CONFIG_FILE="${MW_CONFIG_FILE:-/tmp/peers/mw/LocalSettings.php}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 - "$work" "${2:-2000}" "${3:-1}" "${4:-60}" <<'PY'
import json, random, sys
work, n, seed, maxlen = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
random.seed(seed)
atoms = ["{", "}", "[", "]", "|", "=", "<", ">", "-", "\n", " ", "\t", "a", "b", "!", "/", "<!--", "-->",
         "<nowiki>", "</nowiki>", "<pre>", "</pre>", "<noinclude>", "</noinclude>", "<includeonly>",
         "</includeonly>", "<onlyinclude>", "</onlyinclude>", "==", "{{", "}}", "{{{", "}}}", "-{", "}-",
         "[[", "]]", "<ref/>", "<gallery>", "<indicator name=x>", "</indicator>", "=\n", "\n=", "\u00e9"]
cases = []
while len(cases) < n:
    text = "".join(random.choice(atoms) for _ in range(random.randint(0, maxlen)))
    if ("\n" + text).find("\n!!") >= 0:
        continue  # would read as a section header in the corpus format
    cases.append({"text": text, "inclusion": random.random() < 0.3})
json.dump(cases, open(f"{work}/cases.json", "w"))
PY
php "$root/scripts/preprocess-oracle.php" --batch "$work/cases.json" > "$work/oracle.json"
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
cases = json.load(open(f"{work}/cases.json"))
xml = json.load(open(f"{work}/oracle.json"))
with open(f"{work}/fuzz.txt", "w") as out:
    for k, (case, expected) in enumerate(zip(cases, xml)):
        out.write(f"!! test\nrandom {k}\n")
        if case["inclusion"]:
            out.write("!! options\ntransclusion\n")
        out.write(f"!! wikitext\n{case['text']}\n!! pp-xml\n{expected}\n!! end\n\n")
PY
WIKIC_CORPUS_FILE="$work/fuzz.txt" "$build/tests/preprocess_corpus"
