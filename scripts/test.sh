#!/usr/bin/env bash
# Installs what is missing, then runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-dependencies.sh
swift build --build-tests
swift test --skip-build
