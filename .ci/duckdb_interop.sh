#!/usr/bin/env bash
# DuckDB interop test: exports every table of the bundled journals (and of two
# simulated sessions) in NDJSON and CSV, single file and partitioned by session,
# then checks with DuckDB (installed from PyPI) that it reads the journals and
# every table with the documented types, and that its total dwell per
# controller equals the one of `stats --json`. Then the same over a generated
# fleet (.ci/make_fleet.sh) exported with --partition build and read with
# hive_partitioning and the schema of `export --schema`, against `stats --by
# build --json`; and builds that cannot be folder names as they are (300 bytes,
# the literal __HIVE_DEFAULT_PARTITION__) read back, beside a journal that fails
# alone. Prints "N passed, 0 failed".
#
# Usage: bash .ci/duckdb_interop.sh   (from anywhere inside the clone)
# SPATIAL_REPLAY=/path/to/spatial-replay uses that binary instead of building one.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

# DuckDB from PyPI, in a virtual environment of its own.
source .ci/python_venv.sh
python_with "${DUCKDB_VENV:-/tmp/spatial-replay-duckdb-venv}" duckdb

if [[ -n "${SPATIAL_REPLAY:-}" ]]; then
  bin="$SPATIAL_REPLAY"
else
  swift build --product spatial-replay >/dev/null
  bin="$(swift build --show-bin-path)/spatial-replay"
fi

work="$(mktemp -d /tmp/spatial-replay-duckdb-XXXXXX)"
trap 'rm -rf "$work"' EXIT

journals=(Journals/*.ndjson)
"$bin" simulate --events 20000 --seed 1 --controllers 10 --app Interop --build "1.0 (7)" \
  -o "$work/sim-intended.ndjson"
"$bin" simulate --events 20000 --seed 2 --profile legacy --session "sim/legacy:2" -o "$work/sim-legacy.ndjson"
journals+=("$work/sim-intended.ndjson" "$work/sim-legacy.ndjson")

# Exit status 1 only means a journal had integrity errors (lines left out); 2 and 64 are failures.
run() {
  local status=0
  "$@" || status=$?
  if ((status > 1)); then
    echo "failed ($status): $*" >&2
    exit 1
  fi
}

for table in events visits moves pans findings sessions paths; do
  for format in ndjson csv; do
    run "$bin" export --table "$table" --format "$format" -o "$work/$table.$format" "${journals[@]}"
    run "$bin" export --table "$table" --format "$format" -o "$work/lake-$format/$table" --partition session \
      "${journals[@]}"
  done
done
run "$bin" stats --json "${journals[@]}" >"$work/stats.json"

# A fleet, Hive-partitioned by build. Exit status 2: it has a journal with a bad line on purpose.
bash .ci/make_fleet.sh "$bin" "$work/fleet" 100
expect_2() {
  local status=0
  "$@" || status=$?
  ((status == 2)) || { echo "exit status $status, expected 2: $*" >&2; exit 1; }
}
for table in findings visits sessions; do
  expect_2 "$bin" export --table "$table" -o "$work/fleet-lake/$table" --partition build "$work/fleet" 2>/dev/null
  "$bin" export --schema "$table" >"$work/schema-$table.json"
done
expect_2 "$bin" stats --by build --json "$work/fleet" >"$work/fleet-stats.json"

# Partition values that cannot be folder names as they are: a 300-byte build and the
# literal __HIVE_DEFAULT_PARTITION__, beside a plain build, no build, and a journal whose
# partition folder is blocked by a file (it fails alone: exit 2, the others written).
mkdir -p "$work/odd" "$work/odd-lake/sessions"
long_build="$(printf 'b%.0s' {1..300})"
"$bin" simulate --events 300 --seed 11 --session odd-long --build "$long_build" -o "$work/odd/long.ndjson"
"$bin" simulate --events 300 --seed 12 --session odd-hive --build "__HIVE_DEFAULT_PARTITION__" -o "$work/odd/hive.ndjson"
"$bin" simulate --events 300 --seed 13 --session odd-plain --build "1.0" -o "$work/odd/plain.ndjson"
"$bin" simulate --events 300 --seed 14 --session odd-none -o "$work/odd/none.ndjson"
"$bin" simulate --events 300 --seed 15 --session odd-blocked --build blocked -o "$work/odd/blocked.ndjson"
touch "$work/odd-lake/sessions/build=blocked"
expect_2 "$bin" export --table sessions -o "$work/odd-lake/sessions" --partition build "$work/odd" 2>"$work/odd-stderr.txt"
printf '%s\n' "$long_build" >"$work/odd-long-build.txt"

"$python" .ci/duckdb_interop.py "$work" docs/tables.md "${journals[@]}"
