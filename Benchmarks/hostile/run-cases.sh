#!/usr/bin/env bash
# Issue 44 round three: the command lines of the issue's cases that do not need large inputs,
# through a build; each must end with status 0, 1, 2 or 64, never a signal, and the cases
# whose answer is a refusal with the status given (`expect`). Exit status 1 if any does not.
# Usage: Benchmarks/hostile/run-cases.sh [BINARY]   (default .build/release/spatial-replay)
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=$(realpath "${1:-.build/release/spatial-replay}")
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
failed=0
run() {
  local label=$1
  shift
  "$@" >/dev/null 2>"$w/err"
  local rc=$?
  printf '%-52s exit %s\n' "$label" "$rc"
  case $rc in 0 | 1 | 2 | 64) ;; *) failed=1 ;; esac
  last=$rc
}
expect() {
  local want=$1
  shift
  run "$@"
  [[ $last == "$want" ]] || { echo "  expected exit $want: $(head -c 300 "$w/err")"; failed=1; }
}
H='{"seq":0,"time":"2026-01-01T00:00:00.000000Z","type":"session","v":1,"session":"S","build":"1"}'
t() { printf '2026-01-01T00:00:%02d.000000Z' "$1"; }
# 0: a partition folder that is a link to the input's folder.
mkdir -p "$w/in" "$w/out"
"$bin" simulate --events 200 --session X -o "$w/in/part.ndjson"
ln -s "$w/in" "$w/out/session=X"
expect 2 "0 export --partition through a link" "$bin" export --table events -o "$w/out" --partition session "$w/in/part.ndjson"
# 1: canonically equivalent ids (K vs KELVIN SIGN).
{ echo "$H"; printf '{"seq":1,"time":"%s","type":"alloc","controller":"K","class":"A"}\n' "$(t 1)"
  printf '{"seq":2,"time":"%s","type":"alloc","controller":"\xe2\x84\xaa","class":"A"}\n' "$(t 2)"; } >"$w/k.ndjson"
for c in check stats paths latency "stats --by build"; do run "1 $c (canonical ids)" "$bin" $c "$w/k.ndjson"; done
# 2: linked journals, a dangling link and a loop in a folder.
mkdir -p "$w/dir/sub"
cp "$w/in/part.ndjson" "$w/dir/a.ndjson"
ln -s "$w/dir/a.ndjson" "$w/dir/b.ndjson"
ln -s "$w/nowhere.ndjson" "$w/dir/c.ndjson"
ln -s "$w/dir" "$w/dir/sub/loop"
for c in check stats paths "export --table events"; do run "2 $c (links in a folder)" "$bin" $c "$w/dir"; done
# 4: append of a line at the limit; record past the year 9999.
printf '%s\n' "$H" >"$w/j.ndjson"
python3 -c 'print("{\"type\":\"mark\",\"label\":\"" + "x" * (1048576 - 40) + "\"}")' >"$w/big.in"
expect 2 "4 append a 1 MiB line" "$bin" append "$w/j.ndjson" <"$w/big.in"
"$bin" append "$w/j.ndjson" <"$w/big.in" >/dev/null 2>&1
expect 0 "4 check after it" "$bin" check "$w/j.ndjson"
# 5: a leap second, and :60 outside 23:59.
{ echo '{"seq":0,"time":"2026-12-31T23:59:59.900000Z","type":"session","v":1,"session":"L"}'
  echo '{"seq":1,"time":"2026-12-31T23:59:60.100000Z","type":"mark","label":"a"}'
  echo '{"seq":2,"time":"2027-01-01T00:00:00.000000Z","type":"mark","label":"b"}'; } >"$w/leap.ndjson"
expect 0 "5 check a leap second" "$bin" check "$w/leap.ndjson"
{ echo '{"seq":0,"time":"2026-12-31T12:00:59.000000Z","type":"session","v":1,"session":"L"}'
  echo '{"seq":1,"time":"2026-12-31T12:00:60.000000Z","type":"mark","label":"a"}'; } >"$w/leap2.ndjson"
expect 2 "12 check 12:00:60" "$bin" check "$w/leap2.ndjson"
# 6: a pan with a negative distance.
{ echo "$H"; printf '{"seq":1,"time":"%s","type":"pan","controller":"a","direction":"left","touches":1,"distance":-500,"velocity":100,"outcome":"snapBack"}\n' "$(t 1)"; } >"$w/pan.ndjson"
run "6 trace a negative pan" "$bin" trace --format chrome "$w/pan.ndjson"
# 7: formulas and CR LF in CSV.
{ echo '{"seq":0,"time":"2026-01-01T00:00:00.000000Z","type":"session","v":1,"session":"=HYPERLINK(\"x\")","build":"+1"}'
  printf '{"seq":1,"time":"%s","type":"alloc","controller":"@a\\r\\nb","class":"-C"}\n' "$(t 1)"; } >"$w/csv.ndjson"
for c in "export --table events --format csv" "paths --format csv" "latency --format csv" "stats --by build --format csv"; do
  run "7 $c" "$bin" $c "$w/csv.ndjson"
done
# 10: option values past their ranges.
run "10 tail -n 4611686018427387904" "$bin" tail -n 4611686018427387904 "$w/in/part.ndjson"
expect 64 "10 tail -f --timeout 1e19" "$bin" tail -f --timeout 1e19 "$w/in/part.ndjson"
expect 64 "10 simulate --duration 2562047788h" "$bin" simulate --duration 2562047788h
expect 64 "10 simulate --screens 9223372036854775807" "$bin" simulate --screens 9223372036854775807
# 12: cat --replayable of a line at the limit.
python3 -c 'import sys; p="{\"seq\":1,\"time\":\"2026-01-01T00:00:00.000000Z\",\"type\":\"mark\",\"label\":\""; print("{\"seq\":0,\"time\":\"2026-01-01T00:00:00.000000Z\",\"type\":\"session\",\"v\":1,\"session\":\"C\"}"); print(p + "x" * (1048576 - len(p) - 2) + "\"}")' >"$w/limit.ndjson"
expect 0 "12 check a line at the limit" "$bin" check "$w/limit.ndjson"
expect 2 "12 cat --replayable of it" "$bin" cat --replayable "$w/limit.ndjson"
# 8, 11: see run-memory.sh.
exit $failed
