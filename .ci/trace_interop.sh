#!/usr/bin/env bash
# The traces of `spatial-replay trace` read by their real consumers:
#  - Chrome traces of every bundled journal (and two runs side by side) loaded into the
#    trace model of Chromium's DevTools front end, headless (.ci/trace_devtools.py);
#  - OTLP/JSON of every bundled journal and of churn-shaped journals (simulate --shape churn,
#    100,000 events, of both profiles: the legacy one has thousands of incomplete visits; 300 screens
#    where simulate has no --shape) parsed with OpenTelemetry's protobuf definitions from PyPI, visit
#    spans against `export --table visits` (.ci/trace_otlp.py).
# Usage: SPATIAL_REPLAY=path/to/spatial-replay bash .ci/trace_interop.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${SPATIAL_REPLAY:?set SPATIAL_REPLAY to the built spatial-replay}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The churn shape (thousands of controllers, a new one per modal) where simulate has it, else 300 screens.
"$bin" simulate --shape churn --events 100000 -o "$work/churn.ndjson" 2>/dev/null ||
  "$bin" simulate --controllers 300 --events 100000 -o "$work/churn.ndjson"
"$bin" simulate --shape churn --profile legacy --events 100000 -o "$work/churn-legacy.ndjson" 2>/dev/null ||
  "$bin" simulate --controllers 300 --profile legacy --events 100000 -o "$work/churn-legacy.ndjson"
journals=(Journals/*.ndjson)
# Times OTLP cannot carry (years 1600 and 1969 before its 1970, 2300 and 9999 past its 2554),
# written as the nearest end: notes.intended with its times moved there.
python3 - Journals/notes.intended.ndjson "$work/extreme-times.ndjson" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
years = ["1600", "1969", "2300", "9999"]
with open(sys.argv[2], "w") as out:
    for i, line in enumerate(lines):
        out.write(line.replace('"time":"2026', '"time":"' + years[i * 4 // len(lines)], 1) + "\n")
PY

source .ci/python_venv.sh
python_with /tmp/spatial-replay-otlp-venv opentelemetry-proto opentelemetry.proto
"$python" .ci/trace_otlp.py "$bin" "${journals[@]}" Journals/bisect/*.ndjson "$work/churn.ndjson" \
  "$work/churn-legacy.ndjson" "$work/extreme-times.ndjson"

if [[ -x "${CHROMIUM:-/usr/lib/chromium/chromium}" ]]; then
  python3 .ci/trace_devtools.py "$bin" "${journals[@]}" "$work/extreme-times.ndjson" "$work/churn-legacy.ndjson"
else
  echo "skip: Chromium is not installed, the Chrome traces are not loaded into DevTools' trace model"
fi
