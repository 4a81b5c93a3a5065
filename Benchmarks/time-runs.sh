# Shared by the end-to-end benchmark scripts (sourced, not run): runs shell
# commands several times, interleaved, under /usr/bin/time -v, and gives each
# one's median, min and max wall time, median CPU time (user + system) and
# largest peak RSS.
#
#   source "$(dirname "$0")/time-runs.sh"
#   commands=("cmd one" "cmd two")
#   time_runs RUNS WORKDIR      # fills wall[i], cpu[i], rss[i] (space-separated figures)
#   figures I                   # prints "MEDIAN MIN MAX CPU RSS" of command I

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

declare -A wall cpu rss

time_runs() {
  local runs=$1 work=$2 run i out w c r
  for ((run = 0; run < runs; run++)); do
    for i in "${!commands[@]}"; do
      out="$work/time.$i.$run"
      # Exit status 1 is fine (findings); the times are what matters here.
      /usr/bin/time -v -o "$out" bash -c "${commands[$i]}" || true
      w=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (k = 1; k <= n; k++) s = s * 60 + p[k]; print s }' "$out")
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
