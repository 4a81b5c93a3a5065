#!/usr/bin/env bash
# Writes the journals of the shapes the report is measured on beyond simulate's:
#   alive N CHAIN FILE   N controllers allocated and alive at once, a chain of CHAIN
#                        of them linked right from the root, the rest detached
#                        (about N + CHAIN events: issue 20's "10,000 alive" shape is
#                        alive 10000 1000, its large variant alive 200000 1000)
# The churn shape is simulate's own: spatial-replay simulate --shape churn --events N.
#
# Usage: Benchmarks/make-shapes.sh alive 10000 1000 /tmp/alive10k.ndjson
set -euo pipefail
shape="${1:?usage: make-shapes.sh alive N CHAIN FILE}"
[[ "$shape" == alive ]] || { echo "unknown shape '$shape' (alive)" >&2; exit 64; }
python3 - "$2" "$3" "$4" <<'PY'
import sys

n, chain, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
chain = min(chain, n)
seq = 0


def line(kind, fields):
    global seq
    us = seq * 1000
    stamp = "2026-11-29T09:%02d:%02d.%06dZ" % (us // 60_000_000 % 60, us // 1_000_000 % 60, us % 1_000_000)
    out.write('{"seq":%d,"time":"%s","type":"%s"%s}\n' % (seq, stamp, kind, fields))
    seq += 1


with open(path, "w") as out:
    line("session", ',"v":1,"session":"alive-%d","app":"Shapes","profile":"intended"' % n)
    for k in range(n):
        line("alloc", ',"controller":"Screen%d#%d","class":"Screen%dViewController"' % (k % 300, k, k % 300))
    line("root", ',"controller":"Screen0#0"')
    for callback in ("didLoad", "willAppear", "didAppear"):
        line("lifecycle", ',"controller":"Screen0#0","callback":"%s"' % callback)
    for k in range(1, chain):
        line("link", ',"from":"Screen%d#%d","direction":"right","to":"Screen%d#%d"' % ((k - 1) % 300, k - 1, k % 300, k))
PY
