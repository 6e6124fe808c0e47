#!/usr/bin/env bash
# The whole test suite under AddressSanitizer (with LeakSanitizer) and under ThreadSanitizer,
# each in a build folder of its own; any report fails the run. (The `galley` executable the
# command tests run is built with the same sanitizer, and reports the same way.)
set -euo pipefail
cd "$(dirname "$0")/.."
# AddressSanitizer's report is what a failure needs; the Swift runtime's backtrace would add
# minutes of symbolication.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan-suppressions.txt:print_suppressions=0"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"
for sanitizer in address thread; do
  echo "== the test suite under the $sanitizer sanitizer"
  swift build --build-tests --sanitize="$sanitizer" --scratch-path ".build-$sanitizer"
  GALLEY_SANITIZER="$sanitizer" swift test --skip-build --scratch-path ".build-$sanitizer"
done
