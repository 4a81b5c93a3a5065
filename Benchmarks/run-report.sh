#!/usr/bin/env bash
# The report's benchmarks (issues 12 and 20), end to end, in release, on four journals:
# simulate's shape (100,000 and 1,000,000 events), its churn shape, a real app's
# (100,000 and 1,000,000), and 10,000 controllers alive at once (make-shapes.sh alive):
#   - report beside check of the same journal     (targets: churn <= 5x check, alive <= 10x)
#   - page size against the journal's size        (targets: <= 1x; alive <= 2x)
#   - peak memory of report (/usr/bin/time -v)    (target: <= 256 MB)
#   - the 100,000-event pages in headless Chromium: ready (target: <= 3 s), one cursor step (target: <= 16 ms)
# Each command runs RUNS times (default 5); the median, min and max wall time
# print beside the baseline measured in the same run, 'spatial-replay check'
# of the same journal, with the ratio. The browser figures come from
# .ci/report_browser.py (DevTools protocol): navigation start to
# data-ready="true", and the median of 40 ← presses from the middle (each
# replays the deltas from a keyframe) and 40 → presses (one delta each),
# each timed with a forced layout, and (frameMedianMs) the same presses timed
# until the next frame has been drawn. Skipped when Chromium is absent.
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

for name in sim-100000 sim-1000000 churn-100000 churn-1000000 alive-10000; do
  journal="$work/$name.ndjson"
  count="${name#*-}"
  if [[ ! -f "$journal" ]]; then
    case "$name" in
      sim-*) "$bin" simulate --events "$count" --seed 7 -o "$journal" ;;
      churn-*) "$bin" simulate --shape churn --events "$count" --seed 7 -o "$journal" ;;
      alive-*) bash "$root/Benchmarks/make-shapes.sh" alive "$count" 1000 "$journal" ;;
    esac
  fi
  echo
  echo "== $name ($(stat -c %s "$journal") bytes)"
  baseline=""
  wall "check" "$bin" check "$journal" || true
  baseline="$last"
  wall "report -o page.html" "$bin" report "$journal" -o "$work/page-$name.html"
  sed -n 1p "$work/stderr"
  printf '%-34s %d bytes, %.2fx the journal\n' "page size" "$(stat -c %s "$work/page-$name.html")" \
    "$(echo "scale=4; $(stat -c %s "$work/page-$name.html") / $(stat -c %s "$journal")" | bc)"
  peak="$(/usr/bin/time -v "$bin" report "$journal" -o "$work/page-$name.html" 2>&1 >/dev/null |
    awk '/Maximum resident/ { print $NF }')"
  printf '%-34s %d MB\n' "report peak RSS" "$((peak / 1024))"
done

echo
if [[ -x "${CHROMIUM:-/usr/lib/chromium/chromium}" ]]; then
  for name in sim-100000 churn-100000; do
    echo "== the $name page in headless Chromium ($browser_runs runs)"
    for ((i = 0; i < browser_runs; i++)); do
      python3 "$root/.ci/report_browser.py" bench "$work/page-$name.html"
    done
  done
else
  echo "== no Chromium: the browser figures are skipped"
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
