#!/usr/bin/env bash
# A contributor's inner loop, seconds when the build is warm: the Swift files changed since the
# last commit checked against .swift-format, an incremental build of everything with the tests,
# then the tests FILTER names (a module, a suite, a test: a regular expression, as
# `swift test --filter` takes it), if given.
#   bash scripts/dev.sh                      lint and build
#   bash scripts/dev.sh GalleyJSONTests      and one module's tests
#   bash scripts/dev.sh ResumeTests          and one suite's
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t changed < <({ git diff --name-only --diff-filter=d HEAD; git ls-files --others --exclude-standard; } | grep '\.swift$' || true)
((${#changed[@]} == 0)) || swift-format lint --strict --parallel "${changed[@]}"
swift build --build-tests
(($# == 0)) || swift test --skip-build --filter "$1"
