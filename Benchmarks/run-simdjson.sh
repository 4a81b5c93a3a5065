#!/usr/bin/env bash
# The decoder beside a SIMD JSON parser on the same core, in one run: codec-bench's "decode in
# order" (RecordDecoder.Sequential, the readers' way: every line into a typed Record) and
# simdjson's On-Demand API reading every member of every line (integers, numbers, booleans and
# strings unescaped: simdjson/bench.cpp), on 1M-event journals of both shapes. Each figure is the
# thread's CPU time, the median of RUNS runs; the two run alternately, ROUNDS times, and the
# medians of the rounds are printed with their ratio.
#
# simdjson's amalgamated sources come from pysimdjson's source distribution on PyPI (the one
# network step: `pip download`), compiled with g++ -O3 -march=native.
#
# Usage: Benchmarks/run-simdjson.sh          (from anywhere inside the clone)
# Environment: RUNS=N (5), ROUNDS=N (3), EVENTS=N (1000000), WORK=DIR (inputs kept there),
#   BIN=PATH (spatial-replay, to write the journals).
set -euo pipefail
source "$(dirname "$0")/common.sh"
runs="${RUNS:-5}"
rounds="${ROUNDS:-3}"
events="${EVENTS:-1000000}"
work_directory simdjson-bench
bench_binary

cache=/tmp/spatial-replay-simdjson
if [[ ! -x "$cache/bench" ]]; then
  mkdir -p "$cache"
  (cd "$cache" && python3 -m pip download --quiet --no-binary :all: --no-deps pysimdjson && tar xzf pysimdjson-*.tar.gz)
  src="$(dirname "$(find "$cache" -name simdjson.cpp | head -1)")"
  g++ -O3 -march=native -std=c++17 -I"$src" -o "$cache/bench" "$root/Benchmarks/simdjson/bench.cpp" "$src/simdjson.cpp"
fi
echo "== codec-bench (release)"
(cd "$root/Benchmarks" && swift build -c release --product codec-bench 2>&1 | tail -1)
codec="$root/Benchmarks/.build/release/codec-bench"

for shape in simple churn; do
  journal="$work/$shape.ndjson"
  if [[ ! -s "$journal" ]]; then
    if [[ $shape == churn ]]; then extra=(--shape churn); else extra=(); fi
    "$bin" simulate --events "$events" --seed 7 "${extra[@]}" -o "$journal"
  fi
  ours=() theirs=()
  for ((round = 0; round < rounds; round++)); do
    ours+=("$("$codec" --journal "$journal" --runs "$runs" --only decode-in-order 2>/dev/null |
      awk '/decode  in order/ { print $(NF) }' | tr -d ,)")
    theirs+=("$("$cache/bench" "$journal" "$runs" | sed -E 's/.*\(([0-9.]+)M events\/s per core\).*/\1/')")
  done
  a=$(printf '%s\n' "${ours[@]}" | median)
  b=$(printf '%s\n' "${theirs[@]}" | median)
  awk -v s="$shape" -v a="$a" -v b="$b" -v bytes="$(stat -c %s "$journal")" -v n="$events" 'BEGIN {
    printf "%-7s RecordDecoder.Sequential %6.2fM events/s per core (%.2f GB/s), simdjson On-Demand %6.2fM (%.2f GB/s): %.2f of simdjson\n",
      s, a / 1e6, a * bytes / n / 1e9, b, b * 1e6 * bytes / n / 1e9, a / 1e6 / b }'
done
uptime
