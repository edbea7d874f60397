#!/usr/bin/env bash
# Builds the libFuzzer harnesses of the file readers (tests/fuzz/harnesses,
# clang with address and undefined-behaviour sanitizers), replays the seed
# corpus tests/fuzz/corpus/HARNESS/ and fuzzes each harness for a bounded time,
# as many at once as there are cores. Any crash, sanitizer report (leaks
# included), input slower than 5 s or run above 2 GiB fails, and the input is
# kept under BUILD/artifacts/.
#   scripts/fuzz.sh [--seconds N] [--build-dir DIR] [HARNESS...]
# N: seconds per harness (default 60; the test suite uses 8). New inputs that
# reach new code accumulate in BUILD/corpus/HARNESS/ across runs.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
seconds=60
build=$repo/build/fuzz
harnesses=()
while (($#)); do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --build-dir) build=$2; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) harnesses+=("$1"); shift ;;
  esac
done

clang=$(command -v clang++ || command -v clang++-14 || true)
[ -n "$clang" ] || { echo "fuzz: clang++ not found (scripts/setup.sh installs clang and libclang-rt-14-dev)" >&2; exit 1; }
cmake -S tests/fuzz/harnesses -B "$build" -DCMAKE_CXX_COMPILER="$clang" >/dev/null
cmake --build "$build" -j "$(nproc)" >/dev/null

if ((${#harnesses[@]} == 0)); then
  for source in tests/fuzz/harnesses/fuzz_*.cpp; do harnesses+=("$(basename "$source" .cpp)"); done
fi
mkdir -p "$build/artifacts" "$build/logs"

run_one() {
  local name=$1
  mkdir -p "$build/corpus/$name"
  if "$build/$name" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$build/artifacts/$name-" "$build/corpus/$name" "$repo/tests/fuzz/corpus/$name" \
       >"$build/logs/$name.log" 2>&1; then
    echo "fuzz: $name: $(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$build/logs/$name.log" | grep -Eo '[0-9]+$') runs, no failure"
  else
    echo "fuzz: $name FAILED (log $build/logs/$name.log):" >&2
    grep -E "ERROR|SUMMARY|Test unit written|runtime error" "$build/logs/$name.log" | head -8 >&2
    return 1
  fi
}
export -f run_one
export build seconds repo
printf '%s\n' "${harnesses[@]}" | xargs -P "$(nproc)" -I{} bash -c 'run_one {}'
