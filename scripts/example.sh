#!/usr/bin/env bash
# Installs what is missing, then measures the bundled example rows (Examples/measure.jsonl).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-dependencies.sh
swift build -c release --product galley
# The example holds one deliberately bad row, so galley exits 1 after measuring all the others.
.build/release/galley measure --scale 2 Examples/measure.jsonl || [ $? -eq 1 ]
