#!/usr/bin/env bash
# Analytics benchmarks (issue 6), end to end, in release:
#   - simulate 1M events                                   (target: <= 1 s)
#   - stats and export --table visits over 1M events       (target: <= 1 s each)
#   - stats and export --table visits over a 1 GB journal  (target: peak RSS <= 64 MB)
# Builds the root package in release once, simulates the inputs, runs each
# command RUNS times (default 5; 3 for the 1 GB journal) and prints the median,
# min and max wall time, the median CPU time (user + system: both threads of
# stats and export count) and the peak RSS (/usr/bin/time -v's "Maximum resident
# set size"), and each median's ratio to the baseline measured in the same run
# ('spatial-replay cat' of the same journal). On a machine shared with other work, wall times exceed CPU times.
# Prints the load average before and after, for that reason.
#
# Usage: Benchmarks/run-analytics.sh            (from anywhere inside the clone)
# Environment: RUNS=N, BIG_RUNS=N, BIG_BYTES=N (size of the big journal, default 1 GB),
#   WORK=DIR (inputs kept there; default a temporary directory removed at the end),
#   BENCH=1 also builds and runs the in-process analytics-bench (a second release build).
set -euo pipefail
source "$(dirname "$0")/common.sh"
runs="${RUNS:-5}"
big_runs="${BIG_RUNS:-3}"
big_bytes="${BIG_BYTES:-1000000000}"
work_directory bench

cd "$root"
echo "== release build of the root package"
build_start=$(date +%s)
bin="$(release_binary)"
echo "release build: $(($(date +%s) - build_start)) s"


# measure LABEL RUNS COMMAND... : runs COMMAND (stdout to /dev/null), prints median/min/max seconds and peak RSS.
measure() {
  local label="$1" n="$2"
  shift 2
  local times="$work/times" cpu="$work/cpu" rss="$work/rss"
  : >"$times"
  : >"$cpu"
  : >"$rss"
  for ((i = 0; i < n; i++)); do
    /usr/bin/time -v -o "$work/time.txt" "$@" >/dev/null
    awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' \
      "$work/time.txt" >>"$times"
    awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { print u + s }' "$work/time.txt" >>"$cpu"
    awk -F': ' '/Maximum resident set size/ { print $2 }' "$work/time.txt" >>"$rss"
  done
  last_median="$(median <"$times")"
  local ratio=""
  if [[ -n "${baseline:-}" ]]; then ratio="$(awk -v m="$last_median" -v b="$baseline" 'BEGIN { printf "  %.2fx baseline", m / b }')"; fi
  printf '%-40s median %6.2f s (min %.2f, max %.2f; %d runs)  CPU %6.2f s  peak RSS %6.1f MB%s\n' "$label" \
    "$last_median" "$(sort -g "$times" | head -1)" "$(sort -g "$times" | tail -1)" "$n" \
    "$(median <"$cpu")" "$(sort -g "$rss" | tail -1 | awk '{ print $1 / 1024 }')" "$ratio"
}

one_m="$work/1m.ndjson"
echo
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
echo "== 1M events"
measure "simulate --events 1000000" "$runs" "$bin" simulate --events 1000000 --seed 1 -o "$one_m"
echo "journal: $(wc -c <"$one_m") bytes, $(wc -l <"$one_m") events"
# The baseline, measured in the same run: 'spatial-replay cat' reads, decodes and
# re-encodes every event (the least a command that reads a journal does).
baseline=""
measure "baseline: cat (decode + encode)" "$runs" "$bin" cat "$one_m"
baseline="$last_median"
measure "stats (text)" "$runs" "$bin" stats "$one_m"
measure "stats --json" "$runs" "$bin" stats --json "$one_m"
measure "export --table visits" "$runs" "$bin" export --table visits "$one_m" -o "$work/visits.ndjson"
measure "export --table visits --format csv" "$runs" "$bin" export --table visits --format csv "$one_m" \
  -o "$work/visits.csv"
measure "export --table events" "$runs" "$bin" export --table events "$one_m" -o "$work/events.ndjson"
measure "check (for comparison)" "$runs" "$bin" check "$one_m"

per_event=$(($(wc -c <"$one_m") / 1000000))
big_events=$((big_bytes / per_event + 1))
big="$work/big.ndjson"
echo
echo "== big journal (about $big_bytes bytes)"
measure "simulate --events $big_events" 1 "$bin" simulate --events "$big_events" --seed 2 -o "$big"
echo "journal: $(wc -c <"$big") bytes, $(wc -l <"$big") events, $(grep -c '"type":"alloc"' "$big") controllers"
baseline=""
measure "baseline: cat (decode + encode)" "$big_runs" "$bin" cat "$big"
baseline="$last_median"
measure "stats (text)" "$big_runs" "$bin" stats "$big"
measure "export --table visits" "$big_runs" "$bin" export --table visits "$big" -o "$work/big-visits.ndjson"

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

if [[ "${BENCH:-}" == 1 ]]; then
  echo
  echo "== in process (Benchmarks: swift run -c release analytics-bench)"
  (cd "$root/Benchmarks" && swift run -c release analytics-bench 1000000 "$runs")
fi
