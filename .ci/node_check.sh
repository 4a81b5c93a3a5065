#!/usr/bin/env bash
# The report's script is real JavaScript: node --check on Sources/Report/Assets/report.js
# and on the whole script a page carries (the generated constants of ReportData, then report.js),
# taken from a page the given binary writes. Prints "N passed, M failed" on stderr.
#
# Usage: bash .ci/node_check.sh BINARY
set -euo pipefail
cd "$(dirname "$0")/.."
binary="$1"
command -v node >/dev/null || { echo "node is not installed (Debian: nodejs): skipped" >&2; exit 0; }
work="$(mktemp -d /tmp/spatial-replay-node-XXXXXX)"
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
check() {
  if node --check "$1" 2>"$work/err"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $2" >&2; cat "$work/err" >&2; fi
}
check Sources/Report/Assets/report.js "report.js"
"$binary" report Journals/notes.legacy.ndjson -o "$work/page.html"
python3 - "$work/page.html" "$work/page.js" <<'PY'
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
assert len(scripts) == 1, "one script element besides the data block"
open(sys.argv[2], "w", encoding="utf-8").write(scripts[0])
PY
check "$work/page.js" "the page's script"
echo "$passed passed, $failed failed" >&2
((failed == 0))
