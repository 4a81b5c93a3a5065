#!/usr/bin/env bash
# gzip input, end to end, in release: `check` of a gzip-compressed 1M-event
# journal, beside `gzip -dc FILE | check -` and `check` of the plain file, in one
# run. Each command runs RUNS times (default 3, interleaved); prints the median,
# min and max wall time, the median CPU time (user + system) and peak RSS
# (/usr/bin/time -v), and each median's ratio to the plain file's.
#
# Usage: Benchmarks/run-gzip.sh          (from anywhere inside the clone)
# Environment: RUNS=N, EVENTS=N (default 1000000), WORK=DIR (inputs kept there).
set -euo pipefail
source "$(dirname "$0")/common.sh"
runs="${RUNS:-3}"
events="${EVENTS:-1000000}"
work_directory gzip-bench

cd "$root"
bin="$(release_binary)"
journal="$work/journal.ndjson"
[[ -s "$journal" ]] || "$bin" simulate --events "$events" --seed 1 -o "$journal"
[[ -s "$journal.gz" ]] || gzip -6 -c "$journal" >"$journal.gz"
echo "journal: $events events, $(stat -c %s "$journal") bytes; gzip -6: $(stat -c %s "$journal.gz") bytes"

names=("check FILE.ndjson" "check FILE.ndjson.gz" "gzip -dc FILE.ndjson.gz | check -")
commands=(
  "'$bin' check '$journal' >/dev/null"
  "'$bin' check '$journal.gz' >/dev/null"
  "gzip -dc '$journal.gz' | '$bin' check - >/dev/null"
)
time_runs "$runs" "$work"
base=$(echo ${wall[0]} | tr ' ' '\n' | median)
for i in "${!commands[@]}"; do
  read -r m lo hi c r <<<"$(figures "$i")"
  printf '%-36s median %6.2f s (min %.2f, max %.2f), cpu %6.2f s, peak RSS %6d KB, %.2fx plain\n' \
    "${names[$i]}" "$m" "$lo" "$hi" "$c" "$r" "$(awk -v a="$m" -v b="$base" 'BEGIN { print a / b }')"
done
uptime
