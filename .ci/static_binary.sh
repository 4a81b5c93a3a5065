#!/usr/bin/env bash
# The binary that ships as one file: builds it (Integrations/spark/build-static.sh),
# checks that ldd lists only the C library's parts, and that it runs with the
# Swift toolchain out of reach (/opt/swift hidden behind an empty folder in a mount
# namespace of its own; where that is not allowed, from a copy with an empty
# environment) and prints the same as the debug build. Prints "N passed, M failed"
# on stderr and the binary's path on stdout.
#
# Usage: bash .ci/static_binary.sh DEBUG_BINARY
set -euo pipefail
cd "$(dirname "$0")/.."
debug="$1"
static="$(bash Integrations/spark/build-static.sh)"
passed=0 failed=0
check() {
  if eval "$1"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $2" >&2; fi
}

libraries="$(ldd "$static" | awk '{print $1}' | sed 's/\.so.*//' | sort -u | tr '\n' ' ')"
echo "ldd: $libraries" >&2
allowed=" linux-vdso libc libm libpthread libdl librt /lib64/ld-linux-x86-64 ld-linux-x86-64 "
for library in $libraries; do
  check '[[ "$allowed" == *" $library "* ]]' "$static needs $library, which is not part of the C library"
done

work="$(mktemp -d /tmp/spatial-replay-static-XXXXXX)"
trap 'rm -rf "$work"' EXIT
"$debug" simulate --events 3000 --seed 4 --profile legacy -o "$work/j.ndjson"
gzip -c "$work/j.ndjson" >"$work/j.ndjson.gz"
cp "$static" "$work/spatial-replay"
namespace=1
unshare -m true 2>/dev/null || {
  namespace=""
  echo "no mount namespace here: the copy runs with an empty environment, /opt/swift in place" >&2
}
for command in "check $work/j.ndjson" "stats --json $work/j.ndjson.gz" "export --table visits $work/j.ndjson"; do
  # shellcheck disable=SC2086
  "$debug" $command >"$work/want" 2>&1 || true
  if [[ -n "$namespace" ]]; then
    unshare -m sh -c "mount -t tmpfs none /opt/swift && env -i $work/spatial-replay $command" >"$work/got" 2>&1 || true
  else
    # shellcheck disable=SC2086
    env -i "$work/spatial-replay" $command >"$work/got" 2>&1 || true
  fi
  check 'cmp -s "$work/want" "$work/got"' "static binary, $command: $(diff "$work/want" "$work/got" | head -3)"
done
echo "$passed passed, $failed failed" >&2
((failed == 0)) || exit 1
echo "$static"
