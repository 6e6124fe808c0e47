#!/usr/bin/env bash
# Installs the `galley` command and the bundled fonts it needs:
#   bash scripts/install.sh [--prefix DIR] [--binary PATH]
# The binary goes to DIR/bin (default DIR: /usr/local), the fonts and their licences to
# DIR/share/galley/Fonts, where the binary finds them wherever it is run from. Without --binary,
# installs what is missing and builds the release binary first. GALLEY_FONTS, when set, names
# another fonts folder at run time.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=/usr/local
binary=""
while (($#)); do
  case "$1" in
    --prefix) prefix="$2"; shift 2 ;;
    --binary) binary="$2"; shift 2 ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown argument '$1' (--prefix DIR, --binary PATH)" >&2; exit 64 ;;
  esac
done
if [ -z "$binary" ]; then
  bash scripts/install-dependencies.sh
  swift build -c release --product galley
  binary="$(swift build -c release --show-bin-path)/galley"
fi
[ -x "$binary" ] || { echo "install.sh: no executable at $binary" >&2; exit 1; }
mkdir -p "$prefix/bin" "$prefix/share/galley/Fonts"
install -m 0755 "$binary" "$prefix/bin/galley"
cp -R Fonts/. "$prefix/share/galley/Fonts/"
echo "Installed $prefix/bin/galley and its fonts in $prefix/share/galley/Fonts"
