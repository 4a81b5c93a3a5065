#!/usr/bin/env bash
# Spark fleet check: generates a fleet of about 100 journals (.ci/make_fleet.sh), runs
# Integrations/spark/fleet.py on it with Spark local[2] (PySpark from PyPI in its own
# virtual environment; Java must be installed) and the static binary shipped to the
# executors, and compares its tables with `stats --by build --json` on the same folder
# (.ci/spark_fleet.py). Prints "N passed, M failed".
#
# Usage: bash .ci/spark_fleet.sh DEBUG_BINARY STATIC_BINARY
set -euo pipefail
cd "$(dirname "$0")/.."
debug="$1" static="$2"
command -v java >/dev/null || { echo "spark_fleet: no java (openjdk-17-jre-headless)" >&2; exit 1; }

source .ci/python_venv.sh
python_with "${PYSPARK_VENV:-/tmp/spatial-replay-pyspark-venv}" pyspark
"$python" -c 'import pyspark; print("pyspark", pyspark.__version__)'

work="$(mktemp -d /tmp/spatial-replay-spark-XXXXXX)"
trap 'rm -rf "$work"' EXIT
bash .ci/make_fleet.sh "$debug" "$work/fleet" 100
# Exit status 2: the fleet has a journal with a bad line on purpose.
status=0
"$debug" stats --by build --json "$work/fleet" >"$work/stats.json" || status=$?
((status == 2)) || { echo "stats --by build: exit status $status, expected 2" >&2; exit 1; }
"$python" .ci/spark_fleet.py "$static" "$work/fleet" "$work/stats.json" "$work/out" 2> >(grep -v '^WARNING: Using incubator' >&2)
