#!/usr/bin/env python3
"""Hostile journals for memory (issue 44 item 8, 11)."""
import gzip, sys, json
def t(i):
    s, us = divmod(i, 1000000)
    m, s = divmod(s, 60); h, m = divmod(m, 60)
    return "2026-01-01T%02d:%02d:%02d.%06dZ" % (h, m, s, us)
def header(build="1.0 (1)", device=None):
    d = {"seq":0,"time":t(0),"type":"session","v":1,"session":"S1","app":"A","build":build}
    if device: d["device"] = device
    return json.dumps(d, separators=(",",":"))
def write(path, lines):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "wt") as f:
        for l in lines: f.write(l + "\n")
def marks(n=2000, size=1000000):
    yield header()
    label = "x" * size
    for i in range(1, n+1):
        yield '{"seq":%d,"time":"%s","type":"mark","label":"%s"}' % (i, t(i), label)
def classes(n, size):
    # every alloc with the same long class, then dealloc
    yield header()
    cls = "C" * size
    seq = 1
    for i in range(n):
        yield '{"seq":%d,"time":"%s","type":"alloc","controller":"c%d","class":"%s"}' % (seq, t(seq), i, cls); seq += 1
        yield '{"seq":%d,"time":"%s","type":"dealloc","controller":"c%d"}' % (seq, t(seq), i); seq += 1
def build(n, size):
    yield header(build="b" * size)
    for i in range(1, n+1):
        yield '{"seq":%d,"time":"%s","type":"mark","label":"m"}' % (i, t(i))
kind = sys.argv[1]; out = sys.argv[2]
if kind == "marks": write(out, marks(int(sys.argv[3]), int(sys.argv[4])))
elif kind == "classes": write(out, classes(int(sys.argv[3]), int(sys.argv[4])))
elif kind == "build": write(out, build(int(sys.argv[3]), int(sys.argv[4])))
