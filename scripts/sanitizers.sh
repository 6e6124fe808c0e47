#!/usr/bin/env bash
# The test suite under AddressSanitizer (with LeakSanitizer), all of it, and under
# ThreadSanitizer, the suites that run code on more than one thread: each sanitizer in a build
# folder of its own; any report fails the run. (The `galley` executable the process tests run is
# built with the same sanitizer, and reports the same way.)
set -euo pipefail
cd "$(dirname "$0")/.."
# AddressSanitizer's report is what a failure needs; the Swift runtime's backtrace would add
# minutes of symbolication.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan-suppressions.txt:print_suppressions=0"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"
# The suites with threads: the batch runner's workers and writer, the commands that run on them,
# resuming into a database (a writer beside the workers), the shared caches of the text engine,
# fonts and faces, two-pass measuring across tasks, and the table's jobs that measure ahead.
threaded='BatchRunnerTests|ReadFailureTests|RowCommandTests|OutputFormatTests|ResumeTests|MeasureCommandTests'
threaded+='|ConcurrencyTests|DeferredSegmentsTests|VisiblePrefixTests|FontAccessTests|TwoPassTests|FontFaceTests|PrecomputeTests'
echo "== the test suite under the address sanitizer ($SECONDS s)"
swift build --build-tests --sanitize=address --scratch-path .build-address
GALLEY_SANITIZER=address swift test --skip-build --scratch-path .build-address
echo "== the suites with threads under the thread sanitizer ($SECONDS s)"
swift build --build-tests --sanitize=thread --scratch-path .build-thread
GALLEY_SANITIZER=thread swift test --skip-build --scratch-path .build-thread --filter "$threaded"
echo "== sanitizers done ($SECONDS s)"
