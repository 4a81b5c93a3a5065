# Shared by the Benchmarks/run-*.sh scripts (sourced after `set -euo pipefail`):
# sets `root` (the clone) and puts the toolchain on PATH; `work_directory NAME`
# sets `work`: $WORK when given (created, kept), else a fresh directory
# /tmp/spatial-replay-NAME-XXXXXX removed when the script exits.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="/opt/swift/usr/bin:$PATH"

work_directory() {
  if [[ -n "${WORK:-}" ]]; then
    work="$WORK"
    mkdir -p "$work"
  else
    work="$(mktemp -d "/tmp/spatial-replay-$1-XXXXXX")"
    trap 'rm -rf "$work"' EXIT
  fi
}
