# Shared by the Benchmarks/run-*.sh scripts (sourced after `set -euo pipefail`):
# sets `root` (the clone) and puts the toolchain on PATH; `work_directory NAME`
# sets `work`: $WORK when given (created, kept), else a fresh directory
# /tmp/spatial-replay-NAME-XXXXXX removed when the script exits. `time_runs RUNS
# DIR` runs the array `commands` RUNS times, interleaved, under /usr/bin/time -v
# (exit statuses ignored), filling wall[i] (to the 0.1 ms), cpu[i] (user + system) and rss[i]
# (peak RSS, KB); when the array `prepare` has an entry i, it runs before each run of
# command i, untimed (to remove the output a previous run left, say); `figures I` prints command I's "MEDIAN MIN MAX CPU RSS": median,
# min and max wall time, median CPU time, largest peak RSS. `release_binary`
# builds spatial-replay in release (the build's last line on stderr) and prints
# its path.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="/opt/swift/usr/bin:$PATH"

work_directory() {
  if [[ -n "${WORK:-}" ]]; then
    work="$WORK"
    mkdir -p "$work"
  else
    work="$(mktemp -d "/tmp/spatial-replay-$1-XXXXXX")"
    trap 'rm -rf "$work"' EXIT
  fi
}

release_binary() {
  (cd "$root" && swift build -c release --product spatial-replay 2>&1 | tail -1) >&2
  echo "$(cd "$root" && swift build -c release --show-bin-path)/spatial-replay"
}

# The binary to time: $BIN, or a release build of the root package; then the load it runs under.
bench_binary() {
  if [[ -n "${BIN:-}" ]]; then
    bin="$BIN"
  else
    echo "== release build of the root package"
    bin="$(release_binary)"
  fi
  echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
}

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

declare -A wall cpu rss

time_runs() {
  local runs=$1 work=$2 run i out w c r start end
  for ((run = 0; run < runs; run++)); do
    for i in "${!commands[@]}"; do
      out="$work/time.$i.$run"
      if [[ -n "${prepare[$i]:-}" ]]; then bash -c "${prepare[$i]}"; fi
      # Exit status 1 is fine (findings); the times are what matters here. The wall
      # time is bash's microsecond clock around the run: /usr/bin/time's is in
      # hundredths, a fifth of a 50 ms check.
      start=$EPOCHREALTIME
      /usr/bin/time -v -o "$out" bash -c "${commands[$i]}" || true
      end=$EPOCHREALTIME
      w=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f", b - a }')
      c=$(awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { print u + s }' "$out")
      r=$(awk -F': ' '/Maximum resident/ { print $2 }' "$out")
      wall[$i]+="$w "
      cpu[$i]+="$c "
      rss[$i]+="$r "
    done
  done
}

figures() {
  local i=$1
  echo "$(echo ${wall[$i]} | tr ' ' '\n' | median)" \
    "$(echo ${wall[$i]} | tr ' ' '\n' | sort -g | head -1)" \
    "$(echo ${wall[$i]} | tr ' ' '\n' | sort -g | tail -1)" \
    "$(echo ${cpu[$i]} | tr ' ' '\n' | median)" \
    "$(echo ${rss[$i]} | tr ' ' '\n' | sort -g | tail -1)"
}
