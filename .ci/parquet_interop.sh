#!/usr/bin/env bash
# Parquet interop test: exports every table in Parquet (both codecs) and in NDJSON from
# the bundled journals (Journals/, Journals/bisect/), a churn-shaped session, a long
# session (several row groups and pages) and a generated fleet (.ci/make_fleet.sh,
# partitioned by build), then reads every Parquet file back with pyarrow, fastparquet and
# DuckDB (PyPI, one virtual environment), and the gzip ones with PySpark (its own; Java must be installed)
# and compares, value by value, the types with `export --schema` and the row counts
# and every value with the NDJSON export (.ci/parquet_interop.py). The fleet is also read
# as one dataset with Hive partitioning (pyarrow's dataset API, Spark). Prints
# "N passed, 0 failed".
#
# Usage: bash .ci/parquet_interop.sh   (from anywhere inside the clone)
# SPATIAL_REPLAY=/path/to/spatial-replay uses that binary instead of building one;
# FLEET=N (default 100) and LONG=EVENTS (default 1000000; under it one row group) make a quicker run; KEEP=1 keeps
# the work folder.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

source .ci/python_venv.sh
python_with "${PYSPARK_VENV:-/tmp/spatial-replay-pyspark-venv}" pyspark
spark_python="$python"
python_with "${PARQUET_VENV:-/tmp/spatial-replay-parquet-venv}" pyarrow
"$python" -c 'import fastparquet, duckdb' 2>/dev/null || "$python" -m pip install --quiet fastparquet duckdb
"$python" -c 'import pyarrow, fastparquet, duckdb; print("pyarrow", pyarrow.__version__, "fastparquet",
  fastparquet.__version__, "duckdb", duckdb.__version__)'
"$spark_python" -c 'import pyspark; print("pyspark", pyspark.__version__)'
command -v java >/dev/null || { echo "parquet_interop: no java (openjdk-17-jre-headless) for PySpark" >&2; exit 1; }

if [[ -n "${SPATIAL_REPLAY:-}" ]]; then
  bin="$SPATIAL_REPLAY"
else
  swift build --product spatial-replay >/dev/null
  bin="$(swift build --show-bin-path)/spatial-replay"
fi

work="$(mktemp -d /tmp/spatial-replay-parquet-XXXXXX)"
[[ -n "${KEEP:-}" ]] || trap 'rm -rf "$work"' EXIT

# Exit status 1 only means a journal had findings or integrity errors; 2 (the fleet's bad
# journal) has its bad line left out of both exports alike; 64 is a failure.
run() {
  local status=0
  "$@" 2>/dev/null || status=$?
  if ((status > 2)); then
    echo "failed ($status): $*" >&2
    exit 1
  fi
}

journals=(Journals/*.ndjson Journals/bisect/*.ndjson)
"$bin" simulate --shape churn --events 20000 --seed 3 --app Churn --build "3.0 (9)" -o "$work/churn.ndjson"
"$bin" simulate --events 20000 --seed 2 --profile legacy --session "sim/legacy:2" -o "$work/legacy.ndjson"
journals+=("$work/churn.ndjson" "$work/legacy.ndjson")
bash .ci/make_fleet.sh "$bin" "$work/fleet" "${FLEET:-100}"
cp "$work/churn.ndjson" "$work/fleet/day2/churn.ndjson"
# Long enough for several row groups (about 450,000 events each: 32 MiB of values) and pages
# (1 MiB) in the events table.
"$bin" simulate --events "${LONG:-1000000}" --seed 4 -o "$work/long.ndjson"

tables=(events visits moves pans findings sessions paths)
for table in "${tables[@]}"; do
  "$bin" export --schema "$table" >"$work/schema-$table.json"
  mkdir -p "$work/bundled" "$work/fleet-single"
  run "$bin" export --table "$table" -o "$work/bundled/$table.ndjson" "${journals[@]}"
  run "$bin" export --table "$table" -o "$work/fleet-ndjson/$table" --partition build "$work/fleet"
  run "$bin" export --table "$table" -o "$work/fleet-single/$table.ndjson" "$work/fleet"
  for codec in none gzip; do
    run "$bin" export --table "$table" --format parquet --compression "$codec" \
      -o "$work/bundled/$table.$codec.parquet" "${journals[@]}"
    run "$bin" export --table "$table" --format parquet --compression "$codec" \
      -o "$work/fleet-$codec/$table" --partition build "$work/fleet"
    # Many journals on two jobs (spooled rows) and on one: the same bytes.
    run "$bin" export --table "$table" --format parquet --compression "$codec" --jobs 2 \
      -o "$work/fleet-single/$table.$codec.parquet" "$work/fleet"
    run "$bin" export --table "$table" --format parquet --compression "$codec" --jobs 1 \
      -o "$work/fleet-single/$table.$codec.jobs1.parquet" "$work/fleet"
  done
done
# A journal whose only findings are the reader's (a broken line): every controllers list is empty.
mkdir -p "$work/broken"
{ head -n 20 Journals/notes.intended.ndjson; echo '{"seq":20,"time":'; } >"$work/broken/journal.ndjson"
run "$bin" export --table findings -o "$work/broken/findings.ndjson" "$work/broken/journal.ndjson"
for codec in none gzip; do
  run "$bin" export --table findings --format parquet --compression "$codec" \
    -o "$work/broken/findings.$codec.parquet" "$work/broken/journal.ndjson"
done
mkdir -p "$work/long"
echo $(( ${LONG:-1000000} >= 1000000 ? 2 : 1 )) >"$work/long/row-groups"
run "$bin" export --table events -o "$work/long/events.ndjson" "$work/long.ndjson"
run "$bin" export --table events --format parquet --compression gzip -o "$work/long/events.gzip.parquet" \
  "$work/long.ndjson"

# The two readers' halves run side by side: pyarrow, fastparquet and DuckDB in one Python process
# (mostly one core), Spark in a JVM of its own; one after the other they took most of CI's time.
started=$SECONDS
{
  "$python" .ci/parquet_interop.py local "$work" >"$work/local.txt" || true
  echo "parquet_interop: pyarrow, fastparquet and DuckDB took $((SECONDS - started)) s" >&2
} &
local_reader=$!
TZ=UTC "$spark_python" .ci/parquet_interop.py spark "$work" >"$work/spark.txt" 2>"$work/spark.err" || true
# Spark's own chatter left out; read when Spark is done, so nothing of it comes after this script's end.
grep -v -e '^WARNING: Using incubator' -e 'WARN' -e '^Setting default log level' -e 'setLogLevel' "$work/spark.err" >&2 || true
echo "parquet_interop: Spark took $((SECONDS - started)) s" >&2
wait "$local_reader"
cat "$work/local.txt" "$work/spark.txt" | grep -v '^[0-9]* passed, [0-9]* failed$' || true
"$python" - "$work/local.txt" "$work/spark.txt" <<'PY'
import re, sys
passed = failed = 0
for path in sys.argv[1:]:
    lines = [l for l in open(path) if re.fullmatch(r"\d+ passed, \d+ failed\n", l)]
    if not lines:
        print(f"FAIL: {path} has no tally (the reader crashed)")
        failed += 1
        continue
    p, f = map(int, re.findall(r"\d+", lines[-1]))
    passed, failed = passed + p, failed + f
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
