#!/usr/bin/env python3
"""Reads the OTLP/JSON written by `spatial-replay trace --format otlp` with
OpenTelemetry's official protobuf definitions (`opentelemetry-proto` from
PyPI): every line parsed by `google.protobuf.json_format.Parse` into a
`TracesData`, unknown fields rejected.

  trace_otlp.py BINARY JOURNAL...

For each journal it also checks what the format's JSON encoding asks beyond
the protobuf mapping (ids as lowercase hex of 16 and 8 bytes, one trace per
session, a root span and every other span its child), and compares the visit
spans with `export --table visits`: as many spans as rows (an incomplete
visit, whose didAppear never came, is a span too, its status ERROR saying
what is missing), each with its row's start and end time; a span that
dropped events names them (`dropped.events`). Exit 0 when every check passes.
"""
import json
import re
import subprocess
import sys
from datetime import datetime, timezone

from google.protobuf import json_format
from opentelemetry.proto.trace.v1 import trace_pb2

failures = []


def fail(message):
    failures.append(message)
    print("FAIL " + message)


# OTLP's times are unsigned 64-bit nanoseconds: a journal's time outside 1970 to 2554 is written
# as the nearest end, in whole microseconds (docs/trace.md).
LATEST_NANOS = (2**64 - 1) // 1000 * 1000


def nanos(rfc3339):
    whole, fraction = rfc3339.rstrip("Z").split(".")
    seconds = datetime.strptime(whole, "%Y-%m-%dT%H:%M:%S").replace(tzinfo=timezone.utc).timestamp()
    return min(max(int(seconds) * 1_000_000_000 + int(fraction.ljust(9, "0")), 0), LATEST_NANOS)


def attributes(span):
    out = {}
    for a in span["attributes"]:
        value = a["value"]
        out[a["key"]] = next(iter(value.values()))
    return out


def check(binary, journal):
    done = subprocess.run([binary, "trace", "--format", "otlp", journal], capture_output=True)
    if done.returncode not in (0, 2):
        fail("%s: trace exited %d: %s" % (journal, done.returncode, done.stderr.decode()[:300]))
        return
    lines = done.stdout.decode().splitlines()
    spans = []
    for n, line in enumerate(lines, 1):
        message = trace_pb2.TracesData()
        try:
            json_format.Parse(line, message, ignore_unknown_fields=False)
        except json_format.ParseError as error:
            fail("%s: line %d does not parse as a TracesData: %s" % (journal, n, error))
            continue
        document = json.loads(line)
        for resource in document["resourceSpans"]:
            for scope in resource["scopeSpans"]:
                spans += scope["spans"]
        if sum(len(s.spans) for r in message.resource_spans for s in r.scope_spans) == 0:
            fail("%s: line %d has no span" % (journal, n))
    traces = {s["traceId"] for s in spans}
    for s in spans:
        if not re.fullmatch(r"[0-9a-f]{32}", s["traceId"]) or not re.fullmatch(r"[0-9a-f]{16}", s["spanId"]):
            fail("%s: span %s: ids must be lowercase hex of 16 and 8 bytes" % (journal, s["spanId"]))
        if not isinstance(s["kind"], int):
            fail("%s: enums are integers" % journal)
    roots = [s for s in spans if "parentSpanId" not in s]
    if len(traces) != 1 or len(roots) != 1:
        fail("%s: %d traces, %d root spans (one of each expected)" % (journal, len(traces), len(roots)))
        return
    root = roots[0]
    if len({s["spanId"] for s in spans}) != len(spans):
        fail("%s: span ids repeat" % journal)
    visits = [s for s in spans if s is not root]
    for s in visits:
        if s["parentSpanId"] != root["spanId"]:
            fail("%s: span %s is not a child of the session's span" % (journal, s["spanId"]))
    rows = [json.loads(l) for l in subprocess.run(
        [binary, "export", "--table", "visits", journal], capture_output=True).stdout.decode().splitlines()]
    if len(visits) != len(rows):
        fail("%s: %d visit spans, %d rows in export --table visits" % (journal, len(visits), len(rows)))
    by_visit = {}
    for s in visits:
        a = attributes(s)
        by_visit[(a["screen.name"], int(a["visit.number"]))] = s
    for row in rows:
        span = by_visit.get((row["controller"], row["visit"]))
        if span is None:
            fail("%s: no span for visit %d of %s" % (journal, row["visit"], row["controller"]))
            continue
        if int(span["startTimeUnixNano"]) != nanos(row["start_time"]) or int(span["endTimeUnixNano"]) != nanos(
                row["end_time"]):
            fail("%s: visit %d of %s: span %s..%s, row %s..%s" % (
                journal, row["visit"], row["controller"], span["startTimeUnixNano"], span["endTimeUnixNano"],
                row["start_time"], row["end_time"]))
        if attributes(span).get("visit.complete") != row["complete"]:
            fail("%s: visit %d of %s: visit.complete is not the row's complete" % (journal, row["visit"], row["controller"]))
        status = span.get("status", {})
        if not row["complete"] and (status.get("code") != 2 or "no didAppear" not in status.get("message", "")):
            fail("%s: incomplete visit %d of %s: status %s, not ERROR saying no didAppear" % (
                journal, row["visit"], row["controller"], status))
    for s in spans:
        dropped = s.get("droppedEventsCount", 0)
        named = attributes(s).get("dropped.events")
        total = sum(int(part.split(" ")[0]) for part in named.split(", ")) if named else 0
        if total != dropped:
            fail("%s: span %s drops %d events, names %r" % (journal, s["spanId"], dropped, named))
    errors = sum(1 for s in spans if s.get("status", {}).get("code") == 2)
    events = sum(len(s.get("events", [])) for s in spans)
    incomplete = sum(1 for r in rows if not r["complete"])
    dropped = sum(s.get("droppedEventsCount", 0) for s in spans)
    print("ok %s: %d lines parsed as TracesData, trace %s, %d visit spans = %d visits rows (%d incomplete), "
          "%d span events (%d dropped, named), %d spans with status error" % (
              journal, len(lines), root["traceId"], len(visits), len(rows), incomplete, events, dropped, errors))


def main():
    binary = sys.argv[1]
    for journal in sys.argv[2:]:
        check(binary, journal)
    print("%d journals, %d failures" % (len(sys.argv) - 2, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
