#!/usr/bin/env bash
# The report's benchmarks (issue 12), end to end, in release:
#   - report of 100,000 events                       (target: <= 1 s)
#   - report of 1,000,000 events                     (target: <= 5 s; the page shows an automatic window)
#   - page size against the journal's size           (target: the page is no larger than the journal)
#   - the 100,000-event page in headless Chromium:   ready (target: <= 2 s), one cursor step (target: <= 16 ms)
# Each command runs RUNS times (default 5); the median, min and max wall time
# print beside the baseline measured in the same run, 'spatial-replay check'
# of the same journal, with the ratio. The browser figures come from
# .ci/report_browser.py (DevTools protocol): navigation start to
# data-ready="true", and the median of 40 ← presses from the middle (each
# replays up to 127 deltas from a keyframe) and 40 → presses (one delta each),
# each timed with a forced layout. Skipped when Chromium is absent.
#
# Usage: Benchmarks/run-report.sh            (from anywhere inside the clone)
# Environment: RUNS=N, BROWSER_RUNS=N (default 3), WORK=DIR (inputs kept there).
set -euo pipefail
source "$(dirname "$0")/common.sh"
runs="${RUNS:-5}"
browser_runs="${BROWSER_RUNS:-3}"
work_directory report-bench

cd "$root"
echo "== release build of the root package"
bin="$(release_binary)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"


# wall LABEL COMMAND...: runs COMMAND RUNS times (stdout to /dev/null), prints the median and its ratio to $baseline.
wall() {
  local label="$1"
  shift
  local times="$work/times"
  : >"$times"
  for ((i = 0; i < runs; i++)); do
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null 2>"$work/stderr"
    end=$(date +%s%N)
    echo "scale=3; ($end - $start) / 1000000000" | bc >>"$times"
  done
  last="$(median <"$times")"
  local ratio=""
  if [[ -n "${baseline:-}" ]]; then ratio="$(awk -v m="$last" -v b="$baseline" 'BEGIN { printf "  %.2fx check", m / b }')"; fi
  printf '%-34s median %6.3f s (min %.3f, max %.3f; %d runs)%s\n' "$label" "$last" \
    "$(sort -g "$times" | head -1)" "$(sort -g "$times" | tail -1)" "$runs" "$ratio"
}

for events in 100000 1000000; do
  journal="$work/sim-$events.ndjson"
  [[ -f "$journal" ]] || "$bin" simulate --events "$events" --seed 7 -o "$journal"
  echo
  echo "== $events events ($(stat -c %s "$journal") bytes)"
  baseline=""
  wall "check" "$bin" check "$journal" || true
  baseline="$last"
  wall "report -o page.html" "$bin" report "$journal" -o "$work/page-$events.html"
  sed -n 1p "$work/stderr"
  printf '%-34s %d bytes, %.2fx the journal\n' "page size" "$(stat -c %s "$work/page-$events.html")" \
    "$(echo "scale=4; $(stat -c %s "$work/page-$events.html") / $(stat -c %s "$journal")" | bc)"
done

echo
if [[ -x "${CHROMIUM:-/usr/lib/chromium/chromium}" ]]; then
  echo "== the 100000-event page in headless Chromium ($browser_runs runs)"
  for ((i = 0; i < browser_runs; i++)); do
    python3 "$root/.ci/report_browser.py" bench "$work/page-100000.html"
  done
else
  echo "== no Chromium: the browser figures are skipped"
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
