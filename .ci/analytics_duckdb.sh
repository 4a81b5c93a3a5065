#!/usr/bin/env bash
# paths, funnel and latency agree with the same figures computed independently in
# DuckDB SQL over the exported paths, visits, events, moves and sessions tables:
# on the bundled journals and on a generated fleet of 120 journals of mixed shapes
# (simulate's own, the churn shape of real apps, legacy, several builds).
# Usage: bash .ci/analytics_duckdb.sh BINARY
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$1"
source .ci/python_venv.sh
python_with /tmp/spatial-replay-duckdb-venv duckdb
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/fleet"
for ((i = 1; i <= 120; i++)); do
  args=(simulate --events $((1500 + (i * 131) % 6000)) --seed "$i" --session "an-$i" --build "$((i % 4 + 8)).$((i % 3))")
  ((i % 4 == 0)) && args+=(--shape churn --screens $((40 + i % 60)))
  ((i % 5 == 0)) && args+=(--profile legacy)
  "$bin" "${args[@]}" -o "$work/fleet/j$i.ndjson"
done
"$python" .ci/analytics_duckdb.py "$bin" "$work" Journals "$work/fleet"
