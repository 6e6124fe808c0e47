#!/usr/bin/env bash
# Builds the documentation of every library with DocC and fails on any warning (a broken link,
# a missing page). The symbol graphs come from the debug build already made (`swift build`), not
# from a build of their own as the DocC plugin's would; the catalogs are converted one by one.
# Output: .build/documentation/<Library>.doccarchive.
set -euo pipefail
cd "$(dirname "$0")/.."
graphs="$(swift package dump-symbol-graph --minimum-access-level public --emit-extension-block-symbols 2>&1 | sed -n 's/^Files written to //p')"
[ -d "$graphs" ] || { echo "no symbol graphs were written"; exit 1; }
failed=0
for library in GalleyText GalleyLayout GalleyTable GalleyJSON GalleyRender; do
  own="$(mktemp -d)"
  cp "$graphs/$library.symbols.json" "$own/"
  for extension in "$graphs/$library@"*.symbols.json; do [ -e "$extension" ] && cp "$extension" "$own/"; done
  catalog=()
  [ -d "Sources/$library/$library.docc" ] && catalog=("Sources/$library/$library.docc")
  mkdir -p .build/documentation
  log="$(docc convert "${catalog[@]}" --additional-symbol-graph-dir "$own" --fallback-display-name "$library" \
    --fallback-bundle-identifier "$library" --fallback-default-module-kind "Framework" \
    --output-path ".build/documentation/$library.doccarchive" 2>&1)" || { echo "$log"; failed=1; }
  rm -rf "$own"
  if grep -q "^warning:" <<<"$log"; then
    echo "== $library:"
    grep -A8 "^warning:" <<<"$log"
    failed=1
  fi
done
exit "$failed"
