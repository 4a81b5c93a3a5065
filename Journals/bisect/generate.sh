#!/bin/sh
# Regenerates build-01.ndjson ... build-12.ndjson, twelve runs of one session
# of the Dicto notes app, one per build, for the bisect demo.
#
# Each run is recorded by the reference model from notes.scenario.in with the
# build's own session id, build number, start time, waits and pan sizes (none
# of which changes the order of the events that matter). From build 08 on,
# the app has a regression: the compose modal is never unlinked nor
# deallocated when notes reappears (a modal leak); the script removes those two
# events and lets 'spatial-replay append' number the rest again.
#
# usage: sh Journals/bisect/generate.sh [OUTPUT-DIR]   (from the repository root,
#        after 'swift build'; SPATIAL_REPLAY overrides the binary)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
bin=${SPATIAL_REPLAY:-.build/debug/spatial-replay}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
n=1
while [ "$n" -le 12 ]; do
  b=$(printf '%02d' "$n")
  sed -e "s/@SESSION@/$(printf 'D1C7%04X' $((n * 2654 % 65536)))/" \
    -e "s/@BUILD@/3.$((n / 5)).$((n % 5)) ($((1400 + n * 13)))/" \
    -e "s/@START@/2026-03-$(printf '%02d' $((n + 1)))T09:$(printf '%02d' $((n * 7 % 60))):00Z/" \
    -e "s/@WAIT1@/$((800 + n * 37 % 400))/" \
    -e "s/@WAIT2@/$((2000 + n * 211 % 1500))/" \
    -e "s/@DIST1@/$((70 + n * 29 % 110))/" \
    -e "s/@VEL1@/$((n * 53 % 600))/" \
    -e "s/@DIST2@/$((60 + n * 41 % 150))/" \
    -e "s/@SNAP@/$((10 + n * 7 % 35))/" \
    "$here/notes.scenario.in" >"$work/notes.scenario"
  "$bin" record "$work/notes.scenario" -o "$work/run.ndjson"
  rm -f "$out/build-$b.ndjson"
  if [ "$n" -ge 8 ]; then
    grep -v -e '"type":"unlink","from":"notes","direction":"down"}' \
      -e '"type":"dealloc","controller":"compose"}' "$work/run.ndjson" |
      "$bin" append --sync none "$out/build-$b.ndjson"
  else
    cp "$work/run.ndjson" "$out/build-$b.ndjson"
  fi
  n=$((n + 1))
done
