# Sourced by the scripts that build wikic for use or measurement and by those that read
# the seed page: one place for the Release build's flags and for where the seed's text
# lives. Expects `root` (the repository) to be set by the sourcing script.

# Installs what is missing and builds wikic in Release mode into build/; sets `wikic`.
build_release_wikic() {
  bash "$root/scripts/setup.sh"
  cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release -DWIKIC_SANITIZE=OFF >/dev/null
  cmake --build "$root/build" -j2 --target wikic >/dev/null
  wikic="$root/build/wikic"
}

# seed_page OUT [SEED]: the text of "Carcassonne Scoring During Turn Sequence", line 1219
# of the Special:ExportTranslations seed, exactly as captured (newlines collapsed to
# spaces), without the line's own terminating newline.
seed_page() {
  sed -n '1219p' "${2:-$root/../shared/seeds/000_a6dbca89aa6bac8f.txt}" | tr -d '\n' > "$1"
}
