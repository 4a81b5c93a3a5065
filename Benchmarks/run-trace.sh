#!/usr/bin/env bash
# The trace's benchmark (issue 25), end to end, in release, on 1M events of both
# shapes (simulate's and its churn shape, seed 1 as `simulate` writes them by default):
#   - trace --format chrome and --format otlp to a new file beside check -q of the same
#     journal, in the same run (target: at most 2x check), chrome over the trace of
#     the run before (replacing a file costs its removal too), both to /dev/null
#     (the same work without a file) and both with --durable (synced to the disk);
#   - report --trace (the page with its trace) beside report (the default, no trace): time and page size;
#   - peak RSS of each (/usr/bin/time -v's "Maximum resident set size"): bounded.
# The commands of a shape run RUNS times (default 5) interleaved, one after the
# other in each round, so that a change in the machine's load touches them all
# alike; each prints its median, min and max wall time, median CPU time (user +
# system: every thread), largest peak RSS, and its median's ratio to check's.
#
# Usage: Benchmarks/run-trace.sh            (from anywhere inside the clone)
# Environment: RUNS=N, EVENTS=N (default 1000000), WORK=DIR (inputs kept there),
#   BIN=PATH (a spatial-replay to time instead of building this checkout in release).
set -euo pipefail
source "$(dirname "$0")/common.sh"
runs="${RUNS:-5}"
events="${EVENTS:-1000000}"
work_directory trace-bench

cd "$root"
bench_binary

for shape in simple churn; do
  journal="$work/$shape.ndjson"
  if [[ ! -f "$journal" ]]; then
    if [[ "$shape" == churn ]]; then
      "$bin" simulate --shape churn --events "$events" -o "$journal"
    else
      "$bin" simulate --events "$events" -o "$journal"
    fi
  fi
  out="$work/out-$shape"
  mkdir -p "$out"
  labels=(
    "check -q"
    "trace --format chrome -o FILE"
    "trace --format otlp -o FILE"
    "trace --format chrome -o FILE (replaced)"
    "trace --format chrome -o /dev/null"
    "trace --format otlp -o /dev/null"
    "trace --format chrome --durable -o FILE"
    "trace --format otlp --durable -o FILE"
    "report --trace -o page.html"
    "report -o page.html (no trace)"
  )
  commands=(
    "'$bin' check -q '$journal' >/dev/null"
    "'$bin' trace --format chrome '$journal' -o '$out/trace.json'"
    "'$bin' trace --format otlp '$journal' -o '$out/spans.jsonl'"
    "'$bin' trace --format chrome '$journal' -o '$out/replaced.json'"
    "'$bin' trace --format chrome '$journal' -o /dev/null"
    "'$bin' trace --format otlp '$journal' -o /dev/null"
    "'$bin' trace --format chrome --durable '$journal' -o '$out/durable.json'"
    "'$bin' trace --format otlp --durable '$journal' -o '$out/durable.jsonl'"
    "'$bin' report --trace '$journal' -o '$out/page.html' 2>/dev/null"
    "'$bin' report '$journal' -o '$out/page-no-trace.html' 2>/dev/null"
  )
  # A new file each run: the previous run's trace is removed before it, untimed (replacing a
  # 260 MB file costs its removal, some 70 ms in rename(2) here, whatever wrote it); the row
  # "(replaced)" writes over the last run's trace, as a user who writes one path again does.
  # Before every run, untimed, `sync` writes out what earlier runs left in the page cache (a
  # trace is not synced unless --durable), as the system does within half a minute: else the
  # system writes gigabytes of earlier runs' traces to the disk during the later runs.
  prepare=(
    "sync"
    "rm -f '$out/trace.json'; sync"
    "rm -f '$out/spans.jsonl'; sync"
    "sync"
    "sync"
    "sync"
    "rm -f '$out/durable.json'; sync"
    "rm -f '$out/durable.jsonl'; sync"
    "rm -f '$out/page.html'; sync"
    "rm -f '$out/page-no-trace.html'; sync"
  )
  wall=()
  cpu=()
  rss=()
  time_runs "$runs" "$out"
  echo
  echo "== $shape shape: $events events, $(stat -L -c %s "$journal") bytes; $runs interleaved runs"
  read -r check_median _ <<<"$(figures 0)"
  for i in "${!commands[@]}"; do
    read -r median min max cpu_median peak <<<"$(figures "$i")"
    printf '%-38s median %6.3f s (min %.3f, max %.3f)  CPU %6.3f s  peak RSS %6.1f MB  %.2fx check\n' \
      "${labels[$i]}" "$median" "$min" "$max" "$cpu_median" "$(echo "$peak / 1024" | bc -l)" \
      "$(echo "$median / $check_median" | bc -l)"
  done
  printf '%-38s %d bytes (chrome), %d bytes (otlp)\n' "trace size" "$(stat -c %s "$out/trace.json")" \
    "$(stat -c %s "$out/spans.jsonl")"
  printf '%-38s %d bytes with its trace, %d without (%.2fx)\n' "page size (its automatic window)" \
    "$(stat -c %s "$out/page.html")" "$(stat -c %s "$out/page-no-trace.html")" \
    "$(echo "$(stat -c %s "$out/page.html") / $(stat -c %s "$out/page-no-trace.html")" | bc -l)"
done
echo
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
