#!/usr/bin/env bash
# Generates a fleet of journals for the fleet benchmarks and tests: N journals
# of E events each (by `spatial-replay simulate`, a different seed each), spread
# over B builds ("1.0 (100)", "1.1 (101)", ...) and three devices, every 4th
# one recorded under the legacy profile (with its findings), every 10th one
# gzip-compressed (journal-NNNNN.ndjson.gz). The same arguments always give the
# same files.
#
# Usage: Benchmarks/make-fleet.sh DIR [N=1000] [E=10000] [B=4]
# Environment: BIN=PATH (default: the release build, built if needed),
#              LEGACY_EVERY=K (default 4), GZIP_EVERY=K (default 10, 0 for none).
set -euo pipefail
source "$(dirname "$0")/common.sh"
dir="${1:?usage: make-fleet.sh DIR [N] [E] [B]}"
count="${2:-1000}"
events="${3:-10000}"
builds="${4:-4}"
legacy_every="${LEGACY_EVERY:-4}"
gzip_every="${GZIP_EVERY:-10}"
if [[ -z "${BIN:-}" ]]; then
  BIN="$(release_binary)"
fi
devices=("iPhone15,2" "iPhone16,1" "iPad13,4")
mkdir -p "$dir"

one() {
  local i=$1
  local name
  name="$(printf '%s/journal-%05d.ndjson' "$dir" "$i")"
  local profile=intended
  if ((legacy_every > 0 && i % legacy_every == legacy_every - 1)); then profile=legacy; fi
  local build="1.$((i % builds)) ($((100 + i % builds)))"
  "$BIN" simulate --events "$events" --seed "$((i + 1))" --profile "$profile" --app Dicto --build "$build" \
    --device "${devices[$((i % 3))]}" --session "$(printf 'S%05d' "$i")" -o "$name"
  if ((gzip_every > 0 && i % gzip_every == gzip_every - 1)); then gzip -6 -f "$name"; fi
}

# Two at a time per core.
jobs=$(($(nproc) * 2))
for ((i = 0; i < count; i++)); do
  one "$i" &
  if (((i + 1) % jobs == 0)); then wait; fi
done
wait
echo "$dir: $count journals of $events events, $builds builds, $(du -sh "$dir" | cut -f1)" >&2
