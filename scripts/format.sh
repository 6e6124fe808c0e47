#!/usr/bin/env bash
# Formats the Swift code as .swift-format says; with --lint, only checks it (strictly: any
# difference fails).
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Sources Tests Benchmarks/Benchmarks Benchmarks/Sources Fuzz/Sources Package.swift Benchmarks/Package.swift Fuzz/Package.swift)
if [ "${1:-}" = "--lint" ]; then
  swift-format lint --strict --recursive --parallel "${paths[@]}"
else
  swift-format format --in-place --recursive --parallel "${paths[@]}"
fi
