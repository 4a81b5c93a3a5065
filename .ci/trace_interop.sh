#!/usr/bin/env bash
# The traces of `spatial-replay trace` read by their real consumers:
#  - Chrome traces of every bundled journal (and two runs side by side) loaded into the
#    trace model of Chromium's DevTools front end, headless (.ci/trace_devtools.py);
#  - OTLP/JSON of every bundled journal and of a churn-shaped journal (simulate --shape churn,
#    100,000 events; 300 screens where simulate has no --shape) parsed with OpenTelemetry's protobuf definitions from PyPI, visit spans
#    against `export --table visits` (.ci/trace_otlp.py).
# Usage: SPATIAL_REPLAY=path/to/spatial-replay bash .ci/trace_interop.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${SPATIAL_REPLAY:?set SPATIAL_REPLAY to the built spatial-replay}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The churn shape (thousands of controllers, a new one per modal) where simulate has it, else 300 screens.
"$bin" simulate --shape churn --events 100000 -o "$work/churn.ndjson" 2>/dev/null ||
  "$bin" simulate --controllers 300 --events 100000 -o "$work/churn.ndjson"
journals=(Journals/*.ndjson)

source .ci/python_venv.sh
python_with /tmp/spatial-replay-otlp-venv opentelemetry-proto opentelemetry.proto
"$python" .ci/trace_otlp.py "$bin" "${journals[@]}" Journals/bisect/*.ndjson "$work/churn.ndjson"

if [[ -x "${CHROMIUM:-/usr/lib/chromium/chromium}" ]]; then
  python3 .ci/trace_devtools.py "$bin" "${journals[@]}"
else
  echo "skip: Chromium is not installed, the Chrome traces are not loaded into DevTools' trace model"
fi
