#!/usr/bin/env python3
"""Loads Chrome traces written by `spatial-replay trace --format chrome` into
Chromium's own trace model: the one in Chromium's DevTools front end
(devtools://devtools/bundled/models/trace/trace.js, the Performance panel's
importer), in headless Chromium over the DevTools protocol (Python's standard
library only; see report_browser.py).

  trace_devtools.py BINARY JOURNAL...      one trace per journal, and one of the first two side by side
  trace_devtools.py --screenshot OUT.png BINARY JOURNAL
                                           the trace in DevTools' Performance panel (docs/trace.png)

For each trace it checks what the model saw against what the file holds:
parsing throws nothing and leaves no warning; every thread we named
(thread_name) is a thread of its process with that name; each thread has as
many slices (B/E pairs and X) as we wrote, all of them in the tree the model
builds; every flow (s/f) whose two ends are at different times is a
flow of the model (DevTools keys a flow's ends by time); every instant is an
event of the parsed trace. Before that, the rules of the Trace Event Format
the model relies on: header fields first, ts numeric, B/E balanced and nested
on each thread, X slices of one thread not overlapping, flow events with ids,
M events named.
Exit 0 when every check passes.
"""
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report_browser  # noqa: E402

failures = []


def fail(message):
    failures.append(message)
    print("FAIL " + message)


def structure(name, text):
    """The format's rules, checked on the file itself; returns what the model should see."""
    doc = json.loads(text)
    keys = list(doc.keys())
    if keys[-1] != "traceEvents" or "displayTimeUnit" not in keys:
        fail("%s: header fields (displayTimeUnit, otherData) must come before traceEvents: %s" % (name, keys))
    if not text.isascii() and any(not k.isascii() for e in doc["traceEvents"] for k in e):
        fail("%s: a key is not ASCII" % name)
    stacks = defaultdict(list)
    slices = Counter()
    last_x_end = {}
    threads = defaultdict(dict)
    instants = Counter()
    starts, ends = {}, {}
    for i, e in enumerate(doc["traceEvents"]):
        where = "%s: event %d %s" % (name, i, e.get("ph"))
        if not isinstance(e.get("ts"), int) or not isinstance(e.get("pid"), int) or not isinstance(e.get("tid"), int):
            fail(where + ": ts, pid and tid must be integers")
            continue
        if "name" not in e or "cat" not in e:
            fail(where + ": every event needs a name and a cat")
        key = (e["pid"], e["tid"])
        ph = e["ph"]
        if ph == "B":
            stacks[key].append(e)
            slices[key] += 1
        elif ph == "E":
            if not stacks[key]:
                fail(where + ": E without an open B")
                continue
            b = stacks[key].pop()
            if b["name"] != e["name"] or e["ts"] < b["ts"]:
                fail(where + ": E does not close its B (%s at %d)" % (b["name"], b["ts"]))
        elif ph == "X":
            slices[key] += 1
            if e["dur"] < 0 or e["ts"] < last_x_end.get(key, 0):
                fail(where + ": X slices overlap on their thread")
            last_x_end[key] = e["ts"] + e["dur"]
        elif ph == "i":
            if e.get("s") != "t":
                fail(where + ": instants are thread-scoped")
            instants[e["name"]] += 1
        elif ph in ("s", "f"):
            if not isinstance(e.get("id"), int):
                fail(where + ": flow events carry an id")
            (starts if ph == "s" else ends)[e["id"]] = e["ts"]
        elif ph == "M":
            if e["name"] not in ("process_name", "process_sort_index", "thread_name", "thread_sort_index"):
                fail(where + ": unknown metadata " + e["name"])
            if e["name"] == "thread_name":
                threads[e["pid"]][e["tid"]] = e["args"]["name"]
        else:
            fail(where + ": unexpected phase")
    for key, stack in stacks.items():
        if stack:
            fail("%s: thread %s ends with %d open slices" % (name, key, len(stack)))
    if set(starts) != set(ends):
        fail("%s: flows without both ends: %s" % (name, sorted(set(starts) ^ set(ends))[:5]))
    flows = sum(1 for i in starts if i in ends and ends[i] != starts[i])
    return {"threads": threads, "slices": slices, "instants": instants, "flows": flows,
            "events": len(doc["traceEvents"])}


MODEL = """(async () => {
const T = await import('devtools://devtools/bundled/models/trace/trace.js');
const doc = JSON.parse(%s);
const model = T.TraceModel.Model.createWithAllHandlers();
await model.parse(doc.traceEvents, {metadata: {}, isFreshRecording: false});
const parsed = model.parsedTrace(0);
const d = parsed.data;
const out = {threads: [], slices: [], flows: d.Flows.flows.length, instants: {},
             warnings: [...d.Warnings.perWarning.keys()], events: parsed.traceEvents.length};
for (const [pid, m] of d.Meta.threadsInProcess) for (const [tid, t] of m) out.threads.push([pid, tid, t.args.name]);
for (const [pid, p] of d.Renderer.processes) for (const [tid, t] of p.threads) {
  let nodes = 0;
  const walk = (n, depth) => { nodes++; out.maxDepth = Math.max(out.maxDepth || 0, depth); for (const c of n.children) walk(c, depth + 1); };
  if (t.tree) for (const r of t.tree.roots) walk(r, 1);
  out.slices.push([pid, tid, t.entries.length, nodes, t.tree ? t.tree.maxDepth : 0]);
}
for (const e of parsed.traceEvents) if (e.ph === 'i' || e.ph === 'I') out.instants[e.name] = (out.instants[e.name] || 0) + 1;
return JSON.stringify(out);
})()"""


def consume(browser, name, text):
    expected = structure(name, text)
    result = browser.call("Runtime.evaluate", {"expression": MODEL % json.dumps(text), "awaitPromise": True,
                                               "returnByValue": True}, session=True, timeout=600)
    if "exceptionDetails" in result:
        fail("%s: DevTools' trace model threw: %s" % (name, result["exceptionDetails"].get("exception", {})
                                                      .get("description", result["exceptionDetails"])))
        return
    seen = json.loads(result["result"]["value"])
    if seen["warnings"]:
        fail("%s: the model warned: %s" % (name, seen["warnings"]))
    if seen["events"] != expected["events"]:
        fail("%s: the model kept %d events of %d" % (name, seen["events"], expected["events"]))
    names = {(pid, tid): n for pid, tid, n in seen["threads"]}
    for pid, threads in expected["threads"].items():
        for tid, n in threads.items():
            if names.get((pid, tid)) != n:
                fail("%s: thread %d/%d is %r in the model, %r in the file" % (name, pid, tid, names.get((pid, tid)), n))
    slices = {(pid, tid): (count, nodes, depth) for pid, tid, count, nodes, depth in seen["slices"]}
    for key, count in expected["slices"].items():
        got = slices.get(key, (0, 0, 0))
        if got[0] != count or got[1] != count:
            fail("%s: thread %s: %d slices written, the model has %d (%d in its tree)" % (name, key, count, got[0], got[1]))
    if seen["flows"] != expected["flows"]:
        fail("%s: %d flows written (ends at distinct times), the model has %d" % (name, expected["flows"], seen["flows"]))
    if seen["instants"] != dict(expected["instants"]):
        fail("%s: instants differ: model %s, file %s" % (name, seen["instants"], dict(expected["instants"])))
    print("ok %s: %d events, %d threads, %d slices, %d flows, %d instants (DevTools' trace model)" % (
        name, seen["events"], len(seen["threads"]), sum(expected["slices"].values()), seen["flows"],
        sum(expected["instants"].values())))


SHOW = """(async () => {
const UI = await import('devtools://devtools/bundled/ui/legacy/legacy.js');
await UI.ViewManager.ViewManager.instance().showView('timeline');
const Timeline = await import('devtools://devtools/bundled/panels/timeline/timeline.js');
await Timeline.TimelinePanel.TimelinePanel.instance().loadFromEvents(JSON.parse(%s).traceEvents);
})()"""


def screenshot(out, binary, journal):
    """The trace in the Performance panel, its first threads expanded, as a PNG."""
    import base64
    browser = report_browser.Browser(width=1600, height=1000)
    try:
        browser.call("Page.navigate", {"url": "devtools://devtools/bundled/trace_app.html"}, session=True)
        time.sleep(5)
        text = subprocess.run([binary, "trace", "--format", "chrome", journal], capture_output=True).stdout.decode()
        browser.call("Runtime.evaluate", {"expression": SHOW % json.dumps(text), "awaitPromise": True}, session=True)
        time.sleep(4)
        # Close the shortcuts' popover and the sidebar, open the process, then some threads (from the bottom up).
        for x, y in [(1571, 77), (16, 39), (40, 128), (20, 272), (20, 208), (20, 188), (20, 167), (20, 146)]:
            for kind in ("mousePressed", "mouseReleased"):
                browser.call("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left",
                                                          "clickCount": 1}, session=True)
            time.sleep(1)
        shot = browser.call("Page.captureScreenshot", {"format": "png"}, session=True)
        with open(out, "wb") as f:
            f.write(base64.b64decode(shot["data"]))
    finally:
        browser.proc.kill()
    return 0


def main():
    if sys.argv[1] == "--screenshot":
        return screenshot(*sys.argv[2:5])
    binary, journals = sys.argv[1], sys.argv[2:]
    if not os.path.exists(report_browser.CHROMIUM):
        print("skip: no Chromium at %s" % report_browser.CHROMIUM)
        return 0
    browser = report_browser.Browser()
    try:
        browser.call("Page.navigate", {"url": "devtools://devtools/bundled/trace_app.html"}, session=True)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                if browser.evaluate("document.readyState") == "complete":
                    break
            except RuntimeError:
                pass
            time.sleep(0.1)
        runs = [[j] for j in journals] + ([journals[:2]] if len(journals) >= 2 else [])
        for run in runs:
            done = subprocess.run([binary, "trace", "--format", "chrome"] + run, capture_output=True)
            if done.returncode not in (0, 2):
                fail("%s: trace exited %d: %s" % (run, done.returncode, done.stderr.decode()[:300]))
                continue
            consume(browser, " + ".join(run), done.stdout.decode())
    finally:
        browser.proc.kill()
    print("%d traces, %d failures" % (len(runs), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
