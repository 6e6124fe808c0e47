#!/usr/bin/env bash
# Installs the Debian packages Galley needs, only those missing (the Swift toolchain is assumed).
#   libfreetype-dev, libharfbuzz-dev, libicu-dev, libfontconfig-dev, pkg-config: building the engine.
#   libxml2-dev: reading XML inputs and reducing HTML fields to text.
#   libcairo2-dev: drawing rows (GalleyRender, `galley render`).
#   libpng-dev: decoding the images rows name, with libpng told to skip the chunks that are not
#   the image (cairo's own reader keeps and inflates every text chunk).
#   libsqlite3-dev: SQLite output (GRDB builds on the system's SQLite); sqlite3: the tests query it.
#   libjemalloc-dev: the `galley` command's allocator (batches run about 8% faster than on glibc's).
#   libpangoft2-1.0-0, libpangocairo-1.0-0: the Pango reference the differential tests load at
#   run time, and its drawing.
#   poppler-utils: pdftoppm, which the tests open drawn PDFs with.
#   fonts-dejavu-core: a system font a test needs (symbols no bundled face with Latin has).
set -euo pipefail
packages=(pkg-config libfreetype-dev libharfbuzz-dev libicu-dev libfontconfig-dev libxml2-dev libcairo2-dev libpng-dev libsqlite3-dev sqlite3 libjemalloc-dev libpangoft2-1.0-0 libpangocairo-1.0-0 poppler-utils fonts-dejavu-core)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
  echo "Installing: ${missing[*]}"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
