#!/usr/bin/env bash
# Installs what is missing, then runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-dependencies.sh
swift build --build-tests
swift test --skip-build
# The benchmark suite, a package of its own, is kept from rotting: it builds, every benchmark
# registers, and the profiling driver runs in each mode (measuring is Benchmarks/README.md's).
swift package --package-path Benchmarks --allow-writing-to-package-directory benchmark list >/dev/null
swift build -c release --package-path Benchmarks --product Profile
profile="$(swift build -c release --package-path Benchmarks --show-bin-path)/Profile"
for mode in warm segments cold pango preview pango-preview row relayout table-insert; do
  "$profile" "$mode" 5 >/dev/null
done
echo "Benchmark suite: builds, lists its benchmarks, and Profile runs in every mode."
