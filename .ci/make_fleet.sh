#!/usr/bin/env bash
# Writes a small fleet of journals for the fleet checks (Spark, DuckDB): N journals
# (default 100) across four builds ("1", "10", "2.0 (7)", "2.1/beta": numeric-looking
# and path-escaped values), every 3rd recorded under the legacy profile, every 5th
# gzip-compressed, every 25th without a build, in two nested folders; plus one journal
# whose line 5 does not decode (its rows are kept; the binary exits 2 on it).
#
# Usage: bash .ci/make_fleet.sh BINARY DIR [N]
set -euo pipefail
bin="$1" dir="$2" n="${3:-100}"
builds=("1" "10" "2.0 (7)" "2.1/beta")
devices=("iPhone15,2" "iPad14,1" "iPhone12,1")
mkdir -p "$dir/day1" "$dir/day2/late"
for ((i = 1; i <= n; i++)); do
  args=(simulate --events $((400 + (i * 37) % 1600)) --seed "$i" --session "fleet-$i" --app Fleet
    --device "${devices[i % 3]}")
  ((i % 25 == 0)) || args+=(--build "${builds[i % 4]}")
  ((i % 3 == 0)) && args+=(--profile legacy)
  folder="$dir/day1"
  ((i > n / 2)) && folder="$dir/day2"
  ((i > n * 3 / 4)) && folder="$dir/day2/late"
  "$bin" "${args[@]}" -o "$folder/j$i.ndjson"
  ((i % 5 == 0)) && gzip "$folder/j$i.ndjson"
done
# A journal with a line that does not decode: a malformed finding of build 10.
"$bin" simulate --events 300 --seed 999 --session fleet-bad --app Fleet --build 10 -o "$dir/bad.tmp"
sed '5i {"seq":' "$dir/bad.tmp" >"$dir/day1/bad.ndjson"
rm "$dir/bad.tmp"
