#!/usr/bin/env bash
# Issue 44 round three, memory and scale: hostile journals through a release build, each
# command's exit status, peak RSS (/usr/bin/time -v) and time. Exit status 1 if any run
# ended by a signal, outside 0/1/2/64, or above 256 MB.
# Usage: Benchmarks/hostile/run-memory.sh [BINARY]   (default .build/release/spatial-replay)
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-.build/release/spatial-replay}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gen=Benchmarks/hostile/generate.py
python3 "$gen" marks "$work/marks.ndjson.gz" 2000 1000000     # 2,000 marks with 1 MB labels (2 MB gzip)
python3 "$gen" classes "$work/classes.ndjson.gz" 2000 500000  # 2,000 allocs of one 500 kB class
python3 "$gen" build "$work/build.ndjson.gz" 20000 250000     # a 250 kB build, 20,000 events
"$bin" simulate --shape churn --events 1000000 --seed 3 -o "$work/sim1m.ndjson"
failed=0
run() {
  local label=$1
  shift
  /usr/bin/time -f '%x %M %e' -o "$work/time" "$@" >/dev/null 2>"$work/err"
  local rc kb s
  read -r rc kb s <"$work/time" || true
  if grep -q 'Command terminated by signal' "$work/time"; then rc=signal; fi
  printf '%-44s exit %-6s %8d kB %7ss\n' "$label" "$rc" "$kb" "$s"
  case $rc in 0 | 1 | 2 | 64) ;; *) failed=1 ;; esac
  ((kb <= 262144)) || failed=1
}
for f in marks classes build; do
  j="$work/$f.ndjson.gz"
  run "check $f" "$bin" check "$j"
  run "check -j 2 $f $f" "$bin" check -j 2 "$j" "$j"
  run "stats $f" "$bin" stats "$j"
  run "export --table events $f" "$bin" export --table events "$j"
  run "paths $f" "$bin" paths "$j"
  run "map $f" "$bin" map "$j"
  run "report $f" "$bin" report -o "$work/r.html" "$j"
  run "trace $f" "$bin" trace --format chrome "$j"
done
run "paths --steps 1000 (1M events)" "$bin" paths --steps 1000 "$work/sim1m.ndjson"
run "simulate --screens 300000" "$bin" simulate --screens 300000 --events 10000 -o "$work/s.ndjson"
exit $failed
