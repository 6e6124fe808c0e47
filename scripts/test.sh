#!/usr/bin/env bash
# Installs what is missing, then checks everything a change can break outside the sanitizers:
# the format, the build, every test, a package outside this one that uses Galley as the README
# says, and the documentation. CI (.ci/run) runs this, then the sanitizers, the fuzzers and the
# benchmark suite's build.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-dependencies.sh
step() { echo "== $1 ($SECONDS s)"; }
step "format (swift-format lint; scripts/format.sh fixes it)"
bash scripts/format.sh --lint
step "build"
swift build --build-tests
step "tests"
swift test --skip-build
step "a package outside this one (Galley beside it as ../galley)"
consumer="$(mktemp -d)"
trap 'rm -rf "$consumer"' EXIT
ln -s "$PWD" "$consumer/galley"
cp -R Examples/consumer "$consumer/feed"
swift build --package-path "$consumer/feed"
"$(swift build --package-path "$consumer/feed" --show-bin-path)/Feed"
step "documentation"
bash scripts/docs.sh
step "done"
