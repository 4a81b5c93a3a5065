#!/usr/bin/env bash
# A fleet on one machine, end to end, in release: `check DIR`, `stats --by build
# DIR` and `export --table visits --partition KEY -o OUT DIR` over fleets of N
# journals of E events (Benchmarks/make-fleet.sh, 4 builds, 3 devices), beside
# the same commands on one journal of N x E events (`simulate`):
#   - "plain fleet": every journal intended, none compressed: the same work as
#     the one journal, cut in N; its ratio to the one journal is the figure;
#   - "mixed fleet": make-fleet.sh's defaults, every 4th journal legacy (with
#     its findings) and every 10th gzip-compressed: more work than the one
#     journal; compared with itself read with --jobs 1;
#   - `check` over the first tenth of the mixed fleet: peak memory should not
#     grow with the number of journals.
# Each command runs RUNS times (default 3, interleaved); prints the median, min
# and max wall time, the median CPU time (user + system), the largest peak RSS
# (/usr/bin/time -v), and the ratio of the median wall time to its baseline's.
#
# Usage: Benchmarks/run-fleet.sh          (from anywhere inside the clone)
# Environment: RUNS=N, JOURNALS=N (default 1000), EVENTS=N per journal (default
#   10000), JOBS=N (--jobs, default: the number of cores), PARTITION=KEY (default
#   build when export accepts it, else session), WORK=DIR (inputs kept there).
set -euo pipefail
source "$(dirname "$0")/common.sh"
runs="${RUNS:-3}"
journals="${JOURNALS:-1000}"
events="${EVENTS:-10000}"
jobs="${JOBS:-$(nproc)}"
work_directory fleet-bench

cd "$root"
bin="$(release_binary)"
# --partition build where this build of export has it, else session.
if [[ -z "${PARTITION:-}" ]]; then
  PARTITION=build
  probe="$("$bin" export --table visits --partition build -o "$work/probe" "$work/none.ndjson" 2>&1 || true)"
  if [[ "$probe" == *"--partition takes one of"* ]]; then PARTITION=session; fi
fi
partition="$PARTITION"
fleet="$work/fleet-$journals-$events"
plain="$work/plain-$journals-$events"
one="$work/one-$((journals * events)).ndjson"
[[ -d "$fleet" ]] || BIN="$bin" "$root/Benchmarks/make-fleet.sh" "$fleet" "$journals" "$events" 4
[[ -d "$plain" ]] || LEGACY_EVERY=0 GZIP_EVERY=0 BIN="$bin" "$root/Benchmarks/make-fleet.sh" "$plain" "$journals" "$events" 4
[[ -s "$one" ]] || "$bin" simulate --events "$((journals * events))" --seed 1 --app Dicto --build "1.0 (100)" -o "$one"
tenth=("$fleet"/journal-000*) # journals 0 to 99: the first tenth with the default size
echo "fleets: $journals journals of $events events; plain $(du -sb "$plain" | cut -f1) bytes," \
  "mixed $(du -sb "$fleet" | cut -f1) bytes on disk; one journal: $(stat -c %s "$one") bytes;" \
  "--jobs $jobs; --partition $partition"

names=(
  "check, one journal" "check, plain fleet" "check, mixed fleet" "check, mixed fleet, --jobs 1"
  "check, first tenth of mixed fleet"
  "stats --by build, one journal" "stats --by build, plain fleet" "stats --by build, mixed fleet"
  "export visits, one journal" "export visits, plain fleet" "export visits, mixed fleet"
)
export_to() { echo "rm -rf '$work/out'; '$bin' export --jobs $jobs --table visits --partition $partition -o '$work/out' '$1'"; }
commands=(
  "'$bin' check --jobs $jobs '$one' >/dev/null"
  "'$bin' check --jobs $jobs '$plain' >/dev/null"
  "'$bin' check --jobs $jobs '$fleet' >/dev/null"
  "'$bin' check --jobs 1 '$fleet' >/dev/null"
  "'$bin' check --jobs $jobs ${tenth[*]} >/dev/null"
  "'$bin' stats --jobs $jobs --by build '$one' >/dev/null"
  "'$bin' stats --jobs $jobs --by build '$plain' >/dev/null"
  "'$bin' stats --jobs $jobs --by build '$fleet' >/dev/null"
  "$(export_to "$one")"
  "$(export_to "$plain")"
  "$(export_to "$fleet")"
)
# The baseline of each: the one journal, except for `check` of the mixed fleet (the
# same with --jobs 1) and of its first tenth (the whole mixed fleet).
baseline=(0 0 3 0 2 5 5 5 8 8 8)
time_runs "$runs" "$work"
rm -rf "$work/out"
for i in "${!commands[@]}"; do
  read -r m lo hi c r <<<"$(figures "$i")"
  base=$(echo ${wall[${baseline[$i]}]} | tr ' ' '\n' | median)
  printf '%-36s median %6.2f s (min %.2f, max %.2f), cpu %6.2f s, peak RSS %7d KB, %.2fx its baseline\n' \
    "${names[$i]}" "$m" "$lo" "$hi" "$c" "$r" "$(awk -v a="$m" -v b="$base" 'BEGIN { print a / b }')"
done
uptime
