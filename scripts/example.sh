#!/usr/bin/env bash
# Installs what is missing, then lays out and measures the bundled example rows (Examples/).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-dependencies.sh
swift build -c release --product galley
echo "== galley layout: the shared sample data's rows (Examples/items.jsonl) through Examples/templates.json"
.build/release/galley layout --templates Examples/templates.json --width 320,768 --scale 2 Examples/items.jsonl
echo "== galley measure: texts in twelve scripts (Examples/measure.jsonl; one row is deliberately bad)"
.build/release/galley measure --scale 2 Examples/measure.jsonl || [ $? -eq 1 ]
