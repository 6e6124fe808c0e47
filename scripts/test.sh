#!/usr/bin/env bash
# Installs what is missing, then runs the whole test suite: plainly, under AddressSanitizer and
# ThreadSanitizer, and each fuzz target for a short while.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-dependencies.sh
# The code is formatted as .swift-format says (`swift-format format -i -r Sources Tests …` fixes it).
swift-format lint --strict --recursive Sources Tests Benchmarks/Benchmarks Benchmarks/Sources Fuzz/Sources \
  Package.swift Benchmarks/Package.swift Fuzz/Package.swift
swift build --build-tests
swift test --skip-build
# A package outside this one uses Galley as the README says (Galley beside it as ../galley).
consumer="$(mktemp -d)"
ln -s "$PWD" "$consumer/galley"
cp -R Examples/consumer "$consumer/feed"
swift build --package-path "$consumer/feed"
"$(swift build --package-path "$consumer/feed" --show-bin-path)/Feed"
rm -rf "$consumer"
# The DocC catalogs and every public declaration's documentation build without a warning.
docs="$(swift package generate-documentation --target GalleyText --target GalleyLayout --target GalleyTable \
  --target GalleyJSON --target GalleyRender 2>&1)" || { echo "$docs"; exit 1; }
if grep -q "^warning:" <<<"$docs"; then grep -A8 "^warning:" <<<"$docs"; exit 1; fi
# The benchmark suite, a package of its own, is kept from rotting: it builds, every benchmark
# registers, and the profiling driver runs in each mode (measuring is Benchmarks/README.md's).
swift package --package-path Benchmarks --allow-writing-to-package-directory benchmark list >/dev/null
swift build -c release --package-path Benchmarks --product Profile
profile="$(swift build -c release --package-path Benchmarks --show-bin-path)/Profile"
for mode in warm segments cold pango preview pango-preview row relayout table-insert; do
  "$profile" "$mode" 5 >/dev/null
done
echo "Benchmark suite: builds, lists its benchmarks, and Profile runs in every mode."
# The suite again under the sanitizers, and the fuzz targets: their committed inputs replayed,
# then 15 seconds of fuzzing each (Fuzz/README.md).
bash scripts/sanitizers.sh
bash Fuzz/run.sh 15
