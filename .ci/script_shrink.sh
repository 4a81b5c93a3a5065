#!/usr/bin/env bash
# script and shrink from the outside, through the binary only:
# 1. `script` then `record` gives every bundled recording back byte for byte (the five leaky
#    bisect builds, which the model did not write, exit 1), and simulated sessions of both shapes
#    and both profiles with the header's `scenario` aside (a simulation has none);
# 2. `shrink --rule R --run RUNNER` on long legacy sessions gives a script at most 5 % of the
#    original whose recording `check --rule R` flags, and from which removing any one command
#    loses the finding or makes the script invalid (1-minimal), checked line by line here.
# Usage: bash .ci/script_shrink.sh BINARY
set -euo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# 1. Round trips.
bundled=0
for journal in Journals/*.ndjson Journals/bisect/*.ndjson; do
  scenario=$(head -1 "$journal" | sed -n 's/.*"scenario":"\([^"]*\)".*/\1/p')
  profile=$(head -1 "$journal" | sed -n 's/.*"profile":"\([^"]*\)".*/\1/p')
  status=0
  "$bin" script "$journal" -o "$work/$scenario.scenario" 2>"$work/notes" || status=$?
  case "$journal" in
  */build-0[89].ndjson | */build-1[0-2].ndjson)
    [[ $status == 1 ]] || fail "$journal: script exit $status, expected 1 (a journal the model did not write)"
    ;;
  *)
    [[ $status == 0 ]] || fail "$journal: script exit $status"
    "$bin" record --profile "$profile" "$work/$scenario.scenario" | cmp -s - "$journal" ||
      fail "$journal: record of its script differs"
    ;;
  esac
  bundled=$((bundled + 1))
done
echo "bundled recordings: $bundled"

simulated=0
for seed in $(seq 1 40); do
  for shape in simple churn; do
    for profile in intended legacy; do
      "$bin" simulate --shape "$shape" --events $((500 + seed * 97)) --seed "$seed" --profile "$profile" \
        -o "$work/sim.ndjson"
      "$bin" script "$work/sim.ndjson" -o "$work/sim.scenario" || fail "seed $seed $shape $profile: script exit $?"
      "$bin" record --profile "$profile" "$work/sim.scenario" -o "$work/again.ndjson"
      cmp -s <(tail -n +2 "$work/sim.ndjson") <(tail -n +2 "$work/again.ndjson") ||
        fail "seed $seed $shape $profile: the events differ"
      [[ "$(head -1 "$work/sim.ndjson")" == "$(head -1 "$work/again.ndjson" | sed 's/,"scenario":"sim"}$/}/')" ]] ||
        fail "seed $seed $shape $profile: the header differs beyond its scenario"
      simulated=$((simulated + 1))
    done
  done
done
echo "simulated sessions: $simulated"

# 2. Shrinking with a runner script.
printf '#!/bin/sh\nexec "%s" record --profile legacy "$1"\n' "$bin" >"$work/runner.sh"
chmod +x "$work/runner.sh"
shows() { # SCRIPT RULE: whether the script records and its recording has a finding of RULE
  "$bin" record --profile legacy "$1" -o "$work/candidate.ndjson" 2>/dev/null || return 1
  local status=0
  "$bin" check --rule "$2" -q "$work/candidate.ndjson" >/dev/null || status=$?
  [[ $status == 1 ]]
}
for shape in simple churn; do
  # Seeds whose sessions show all four rules (the churn shape sets few touches minimums).
  events=1800 seed=12
  [[ $shape == churn ]] && events=1500 seed=2
  "$bin" simulate --shape "$shape" --screens 30 --events "$events" --seed "$seed" --profile legacy \
    -o "$work/long.ndjson"
  "$bin" script "$work/long.ndjson" -o "$work/long.scenario"
  original=$(grep -cv -e '^#' -e '^session' "$work/long.scenario")
  for rule in modal-leak touches-violated load-repeated misattributed; do
    if ! shows "$work/long.scenario" "$rule"; then
      fail "$shape: the session shows no $rule"
      continue
    fi
    "$bin" shrink --rule "$rule" --run "$work/runner.sh" "$work/long.ndjson" -o "$work/small.scenario" 2>"$work/summary" ||
      fail "$shape $rule: shrink exit $?"
    kept=$(grep -cv -e '^#' -e '^session' "$work/small.scenario")
    echo "$shape $rule: $original -> $kept commands ($(tail -1 "$work/summary"))"
    ((kept * 20 <= original)) || fail "$shape $rule: $kept of $original commands is over 5 %"
    shows "$work/small.scenario" "$rule" || fail "$shape $rule: the shrunk script does not show it"
    mapfile -t lines <"$work/small.scenario"
    for i in "${!lines[@]}"; do
      [[ ${lines[$i]} == \#* || ${lines[$i]} == session* ]] && continue
      : >"$work/without.scenario"
      for j in "${!lines[@]}"; do [[ $j == "$i" ]] || printf '%s\n' "${lines[$j]}" >>"$work/without.scenario"; done
      if shows "$work/without.scenario" "$rule"; then fail "$shape $rule: still shows it without '${lines[$i]}'"; fi
    done
  done
done

[[ $failures == 0 ]] || {
  echo "$failures failures"
  exit 1
}
echo "script and shrink: all checks passed"
