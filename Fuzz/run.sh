#!/usr/bin/env bash
# Builds the fuzz targets with libFuzzer and AddressSanitizer, replays every committed seed and
# regression input, then fuzzes each target for SECONDS seconds (default 60):
#   bash Fuzz/run.sh [SECONDS] [TARGET...]      targets: FuzzJSON FuzzMeasureRequest FuzzTemplates FuzzFonts FuzzInputs FuzzImages
# A finding stops the run with its input saved under Fuzz/.build-fuzz/artifacts/ and a non-zero
# exit; add the input to Fuzz/Regressions/<target>/ with the fix (see README.md).
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"
shift || true
targets=("$@")
((${#targets[@]})) || targets=(FuzzJSON FuzzMeasureRequest FuzzTemplates FuzzFonts FuzzInputs FuzzImages)

flags=(--scratch-path .build-fuzz -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -use-ld=lld)
swift build "${flags[@]}"
bin="$(swift build "${flags[@]}" --show-bin-path)"

# The Swift runtime's crash reporter would symbolicate the whole binary after a finding;
# AddressSanitizer's report and libFuzzer's saved input are what a finding needs.
export SWIFT_BACKTRACE=enable=no
# Leaks in libraries outside the project, each explained in the file.
export LSAN_OPTIONS="suppressions=$PWD/../scripts/lsan-suppressions.txt:print_suppressions=0"
mkdir -p .build-fuzz/artifacts
for target in "${targets[@]}"; do
  case "$target" in
    FuzzFonts) max_len=600000 ;;
    FuzzTemplates|FuzzInputs|FuzzImages) max_len=16384 ;;
    *) max_len=4096 ;;
  esac
  dictionary=".build-fuzz/$target.dict"
  cat "Dictionaries/$target.dict" > "$dictionary"
  # JSON's tokens join every text format's; a PNG has none.
  case "$target" in FuzzJSON|FuzzImages) ;; *) cat Dictionaries/FuzzJSON.dict >> "$dictionary" ;; esac
  corpus=".build-fuzz/corpus/$target"
  mkdir -p "$corpus"
  options=(-dict="$dictionary" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 -artifact_prefix=".build-fuzz/artifacts/$target-")
  # Every committed input once, as regression tests, then fuzzing from the seeds and what
  # earlier runs found.
  replay=("Corpus/$target")
  [ -d "Regressions/$target" ] && replay+=("Regressions/$target")
  echo "== $target: replaying $(find "${replay[@]}" -type f | wc -l) inputs"
  "$bin/$target" "${options[@]}" -runs=0 "${replay[@]}" > ".build-fuzz/$target.replay.log" 2>&1 \
    || { tail -40 ".build-fuzz/$target.replay.log"; echo "== $target: a committed input fails"; exit 1; }
  echo "== $target: fuzzing for ${seconds}s"
  log=".build-fuzz/$target.log"
  status=0
  "$bin/$target" "${options[@]}" -max_total_time="$seconds" -print_final_stats=1 "$corpus" "Corpus/$target" > "$log" 2>&1 || status=$?
  grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb)' "$log" || true
  if [ "$status" -ne 0 ]; then
    grep -E -A25 '==[0-9]+==ERROR|fuzz finding|deadly signal|Fatal error' "$log" | head -60
    echo "== $target: FINDING (exit $status; the input is under Fuzz/.build-fuzz/artifacts/, the log in $log)"
    exit 1
  fi
done
echo "== fuzzing: no findings"
