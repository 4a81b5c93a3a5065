#!/usr/bin/env bash
# CI-native outputs proven by their real consumers: `check --format sarif` validated
# against the official SARIF 2.1.0 schema (jsonschema), `--format junit` parsed by
# junitparser, `--format github` matched against the workflow-command shape; and the
# shell completions read by bash/zsh/fish, the man page rendered by man.
# Usage: SPATIAL_REPLAY=BIN bash .ci/check_formats.sh   (from anywhere inside the clone)
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${SPATIAL_REPLAY:?set SPATIAL_REPLAY to the built binary}"

source .ci/python_venv.sh
venv="${FORMATS_VENV:-/tmp/spatial-replay-formats-venv}"
python_with "$venv" jsonschema
python_with "$venv" junitparser

# The official schema is not part of the project: CI has it beside the clone (../shared/schemas);
# a clone of a local checkout finds it beside the checkout it was cloned from; SARIF_SCHEMA overrides.
origin="$(git remote get-url origin 2>/dev/null || true)"
schema="${SARIF_SCHEMA:-}"
for candidate in ../shared/schemas/sarif-schema-2.1.0.json "${origin%/}/../shared/schemas/sarif-schema-2.1.0.json"; do
  [[ -n "$schema" ]] || { [[ -f "$candidate" ]] && schema="$candidate"; }
done
if [[ -z "$schema" || ! -f "$schema" ]]; then
  echo "error: the official SARIF 2.1.0 schema was not found beside the clone (../shared/schemas); set SARIF_SCHEMA" >&2
  exit 1
fi

work="$(mktemp -d /tmp/spatial-replay-formats-XXXXXX)"
trap 'rm -rf "$work"' EXIT
# A hostile journal: markup, quotes, commas, colons and control characters in ids and messages.
printf '%s\n' '{"seq":0,"time":"2026-01-01T00:00:00.000000Z","type":"session","v":1,"session":"x"}' \
  '{"seq":1,"time":"2026-01-01T00:00:00.000001Z","type":"alloc","controller":"a,b:c<x>&\"\u001b","class":"C"}' \
  '{"seq":3,"time":"2026-01-01T00:00:00.000002Z","type":"lifecycle","controller":"a,b:c<x>&\"\u001b","callback":"didAppear"}' \
  'not json' >"$work/hostile,name:1.ndjson"

"$python" .ci/check_formats.py "$bin" "$schema" Journals/*.ndjson Journals/bisect/build-0[18].ndjson "$work/hostile,name:1.ndjson"

passed=0
failed=0
for shell in bash zsh fish; do
  "$bin" completion "$shell" >"$work/completion.$shell"
  if command -v "$shell" >/dev/null; then
    if "$shell" -n "$work/completion.$shell"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
  else
    echo "warning: $shell is not installed; its completion script is not checked"
  fi
done
# bash: the function completes for real.
if bash -c "source '$work/completion.bash'; COMP_WORDS=(spatial-replay check --rule modal-l); COMP_CWORD=3; _spatial_replay; [[ \"\${COMPREPLY[*]}\" == modal-leak ]]"; then
  passed=$((passed + 1))
else
  echo "FAILED bash completion of --rule modal-l" >&2
  failed=$((failed + 1))
fi
"$bin" help --man >"$work/spatial-replay.1"
if command -v man >/dev/null && command -v groff >/dev/null; then
  warnings="$(groff -man -Tutf8 -ww -z "$work/spatial-replay.1" 2>&1 || true)"
  if [[ -z "$warnings" ]] && MANWIDTH=80 man -l "$work/spatial-replay.1" 2>/dev/null | grep -q 'spatial-replay check'; then
    passed=$((passed + 1))
  else
    echo "FAILED man page: $warnings" >&2
    failed=$((failed + 1))
  fi
else
  echo "warning: man or groff is not installed; the man page is not rendered"
fi
echo "completion and man: $passed passed, $failed failed"
((failed == 0))
