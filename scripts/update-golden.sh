#!/usr/bin/env bash
# Draws the golden images of Tests/GalleyRenderTests/Golden again, after a deliberate change to
# what rows look like; look at them before committing.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests
GALLEY_UPDATE_GOLDEN=1 swift test --skip-build --filter GoldenImageTests
git status --short Tests/GalleyRenderTests/Golden
