#!/usr/bin/env bash
# Keeps the benchmark suite (a package of its own) from rotting, in a debug build: every
# benchmark compiles and registers, and the profiling driver runs in each mode. Measuring is
# Benchmarks/README.md's, in release.
set -euo pipefail
cd "$(dirname "$0")/../Benchmarks"
swift build
bin="$(swift build --show-bin-path)"
# Run without the benchmark plugin, a benchmark executable registers every benchmark, then runs
# those its filter names: here none.
for suite in GalleyTextBenchmarks GalleyLayoutBenchmarks GalleyJSONBenchmarks GalleyTableBenchmarks GalleyRenderBenchmarks; do
  "$bin/$suite" --filter 'no benchmark has this name' >/dev/null
done
for mode in warm segments cold pango preview pango-preview row relayout table-insert; do
  "$bin/Profile" "$mode" 5 >/dev/null
done
echo "Benchmark suite: builds, registers its benchmarks, and Profile runs in every mode."
