#!/usr/bin/env bash
# check against the independent oracle (.ci/check_oracle.py, written from the
# model's rules alone): the bundled journals and simulated sessions of both
# shapes and both profiles must give the same lifecycle and graph findings,
# as multisets of (rule, seq).
#
# Usage: bash .ci/check_oracle.sh BINARY
set -euo pipefail
cd "$(dirname "$0")/.."
binary="$1"
work="$(mktemp -d /tmp/spatial-replay-oracle-XXXXXX)"
trap 'rm -rf "$work"' EXIT
for shape in simple churn; do
  for profile in intended legacy; do
    for seed in 1 2; do
      "$binary" simulate --shape "$shape" --profile "$profile" --seed "$seed" --events 20000 \
        -o "$work/$shape-$profile-$seed.ndjson"
    done
  done
done
python3 .ci/check_oracle_compare.py "$binary" Journals/*.ndjson "$work"/*.ndjson
# Recordings of the intended profile have no finding at all.
intended_findings="$(python3 .ci/check_oracle.py Journals/*.intended.ndjson "$work"/*-intended-*.ndjson)"
if [[ -n "$intended_findings" ]]; then
  echo "FAIL: the oracle finds something in intended recordings:"
  head -20 <<<"$intended_findings"
  exit 1
fi
