# Sourced by the scripts that build wikic for use or measurement and by those that read
# the seed page: one place for the Release build's flags and for where the seed's text
# lives. Expects `root` (the repository) to be set by the sourcing script.

# Installs what is missing and builds wikic in Release mode into build/, optimised by the
# profile of a training run (CMakeLists.txt, WIKIC_PROFILE); sets `wikic`. The
# instrumented build lives in build-profile/ and, like build/, rebuilds only what changed.
build_release_wikic() {
  bash "$root/scripts/setup.sh"
  local counts="$root/build-profile/counts"
  cmake -S "$root" -B "$root/build-profile" -DCMAKE_BUILD_TYPE=Release -DWIKIC_SANITIZE=OFF -DWIKIC_TESTS=OFF \
    -DWIKIC_PROFILE=generate -DWIKIC_PROFILE_DIR="$counts" >/dev/null
  cmake --build "$root/build-profile" -j2 --target wikic >/dev/null
  # Counts add up from run to run: each training starts from none.
  rm -rf "$counts"
  train_profile "$root/build-profile/wikic"
  cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release -DWIKIC_SANITIZE=OFF \
    -DWIKIC_PROFILE=use -DWIKIC_PROFILE_DIR="$counts" >/dev/null
  cmake --build "$root/build" -j2 --target wikic >/dev/null
  wikic="$root/build/wikic"
}

# train_profile WIKIC: the training run, what scripts/run.sh makes wikic do (compile the
# shipped corpus, report its Translate fixtures, query the result), plus the small
# exports of corpus/exports. Its output is thrown away; a failure here fails the build.
train_profile() {
  local bin="$1" scratch
  scratch="$(mktemp -d)"
  "$bin" compile "$root/corpus/wica" -o "$scratch/wica" 2>/dev/null
  "$bin" compile "$root"/corpus/exports/*.xml -o "$scratch/exports" 2>/dev/null
  "$bin" l10n "$root"/corpus/l10n/*.xml -o "$scratch/l10n" 2>/dev/null
  "$bin" query "$scratch/wica/rules.yaml" --edition C2 --with Inns,Cathedrals >/dev/null 2>&1
  rm -rf "$scratch"
}

# seed_page OUT [SEED]: the text of "Carcassonne Scoring During Turn Sequence", line 1219
# of the Special:ExportTranslations seed, exactly as captured (newlines collapsed to
# spaces), without the line's own terminating newline.
seed_page() {
  sed -n '1219p' "${2:-$root/../shared/seeds/000_a6dbca89aa6bac8f.txt}" | tr -d '\n' > "$1"
}

# seed_export MB DIR: an export of the seed page repeated to MB megabytes of page text,
# DIR/export-MBmb.xml, made once and kept for later runs (the 180 MB one takes a while
# to write). Sets `page` (the seed text, DIR/seed.wiki), `page_bytes`, `copies` and
# `export_xml` for the caller's figures.
seed_export() {
  mkdir -p "$2"
  page="$2/seed.wiki"
  seed_page "$page"
  page_bytes=$(stat -c %s "$page")
  copies=$(( ($1 * 1000000 + page_bytes - 1) / page_bytes ))
  export_xml="$2/export-${1}mb.xml"
  [ -f "$export_xml" ] || python3 "$root/scripts/export_xml.py" "$export_xml" --repeat "$copies" \
    --title "Carcassonne Scoring During Turn Sequence" --file "$page"
}
