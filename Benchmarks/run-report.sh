#!/usr/bin/env bash
# The report's benchmarks (issues 12 and 20), end to end, in release, on four journals:
# simulate's shape (100,000 and 1,000,000 events), its churn shape, a real app's
# (100,000 and 1,000,000), and 10,000 controllers alive at once (make-shapes.sh alive):
#   - report (the default page, without its trace: --trace adds it) beside check of the
#     same journal, interleaved, wall and CPU  (targets: churn <= 5x check, alive <= 10x)
#   - page size against the journal's size        (targets: <= 1x; alive <= 2x)
#   - peak memory of report (/usr/bin/time -v)    (target: <= 256 MB)
#   - the 100,000-event pages in headless Chromium: ready (target: <= 3 s), one cursor step (target: <= 16 ms)
# check and report run RUNS times (default 5), interleaved (check, report,
# check, report, ...) under /usr/bin/time -v; each prints its median, min and
# max wall time, median CPU time (user + system), largest peak RSS, and the
# ratios of its medians to those of 'spatial-replay check' of the same journal.
# The browser figures come from .ci/report_browser.py (DevTools protocol): navigation start to
# data-ready="true", and the median of 40 ← presses from the middle (each
# replays the deltas from a keyframe) and 40 → presses (one delta each),
# each timed with a forced layout, and (frameMedianMs) the same presses timed
# until the next frame has been drawn. Skipped when Chromium is absent.
#
# Usage: Benchmarks/run-report.sh            (from anywhere inside the clone)
# Environment: RUNS=N, BROWSER_RUNS=N (default 3), WORK=DIR (inputs kept there),
#   BIN=PATH (a spatial-replay to time instead of building this checkout in release).
set -euo pipefail
source "$(dirname "$0")/common.sh"
runs="${RUNS:-5}"
browser_runs="${BROWSER_RUNS:-3}"
work_directory report-bench

cd "$root"
bench_binary

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
  out="$work/out-$name"
  mkdir -p "$out"
  # check and report (the default page: no trace; --trace adds it) interleaved, RUNS rounds.
  labels=("check" "report -o page.html")
  commands=(
    "'$bin' check '$journal' >/dev/null"
    "'$bin' report '$journal' -o '$work/page-$name.html' 2>'$out/stderr'"
  )
  wall=()
  cpu=()
  rss=()
  time_runs "$runs" "$out"
  echo
  echo "== $name ($(stat -c %s "$journal") bytes; $runs interleaved runs; load average $(cut -d' ' -f1-3 /proc/loadavg))"
  read -r check_wall _ _ check_cpu _ <<<"$(figures 0)"
  for i in "${!commands[@]}"; do
    read -r median min max cpu_median peak <<<"$(figures "$i")"
    printf '%-22s median %6.3f s (min %.3f, max %.3f)  CPU %6.3f s  peak RSS %6.1f MB  %.2fx check (CPU %.2fx)\n' \
      "${labels[$i]}" "$median" "$min" "$max" "$cpu_median" "$(echo "$peak / 1024" | bc -l)" \
      "$(echo "$median / $check_wall" | bc -l)" "$(echo "$cpu_median / $check_cpu" | bc -l)"
  done
  sed -n 1p "$out/stderr"
  printf '%-22s %d bytes, %.2fx the journal\n' "page size" "$(stat -c %s "$work/page-$name.html")" \
    "$(echo "scale=4; $(stat -c %s "$work/page-$name.html") / $(stat -c %s "$journal")" | bc)"
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
