#!/usr/bin/env python3
"""The fleet page (`report DIR`) in headless Chromium, against the command line.

  fleet_page_browser.py BINARY WORKDIR [SCREENSHOT]

Writes a fleet of journals of both shapes over several builds (some with their
own session report beside them), the fleet page, and checks in Chromium over
the DevTools protocol: no console error, exception, dialog or network request;
the findings per rule per build equal `stats --by build --json`; the flow's
paths equal `paths --steps 2 --json`; every latency cell equals
`latency --group build --json`; builds are in version order; the session
report links point at the reports written. Prints 'N passed, M failed'.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_browser import Browser  # noqa: E402

binary, work = sys.argv[1], sys.argv[2]
shot = sys.argv[3] if len(sys.argv) > 3 else None
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL", name, str(detail)[:800])


def run(*args):
    result = subprocess.run([binary, *args], capture_output=True, text=True)
    if result.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)}: exit {result.returncode}: {result.stderr[:400]}")
    return result.stdout


fleet = os.path.join(work, "fleet")
os.makedirs(fleet, exist_ok=True)
builds = ["9.0", "9.2", "9.10", "10.0"]
for i in range(1, 25):
    args = ["simulate", "--events", str(2000 + 97 * i), "--seed", str(i), "--session", f"fp-{i}",
            "--build", builds[i % 4], "-o", f"{fleet}/j{i}.ndjson"]
    if i % 3 == 0:
        args += ["--profile", "legacy"]
    if i % 4 == 1:
        args += ["--shape", "churn", "--screens", "60"]
    run(*args)
for i in (1, 2, 7):
    run("report", f"{fleet}/j{i}.ndjson", "-o", f"{fleet}/j{i}.html")
page = os.path.join(work, "fleet.html")
run("report", fleet, "-o", page)

browser = Browser(width=1300, height=1600)
try:
    browser.open("file://" + page)
    dom = browser.evaluate("""(() => {
      const q = (s) => Array.from(document.querySelectorAll(s));
      return {
        counts: q('[data-rule-count]').map(e => [e.dataset.build, e.dataset.rule, Number(e.dataset.count)]),
        bars: q('rect[data-rule]').map(e => [e.dataset.build, e.dataset.rule, Number(e.dataset.count), e.getBoundingClientRect().height]),
        flows: q('[data-flow]').map(e => [e.dataset.from, e.dataset.to, Number(e.dataset.count), Number(e.dataset.sessions)]),
        latency: q('[data-latency]').map(e => [e.dataset.screen, e.dataset.build, e.dataset.measure,
          Number(e.dataset.count), e.dataset.p50, e.dataset.p90, e.dataset.p99]),
        builds: q('[data-build-item]').map(e => e.dataset.buildItem),
        links: q('a[data-session-report]').map(e => e.getAttribute('href')),
        width: document.documentElement.scrollWidth,
      };
    })()""")
    problems = browser.problems()
    check("no console error, exception, dialog or network request", problems == [], problems)
    if shot:
        browser.screenshot(shot)
finally:
    browser.close()

stats = json.loads(run("stats", "--by", "build", "--json", fleet))
expected = {}
for group in stats["groups"]:
    build = group["key"]["build"] or "(no build)"
    for rule, count in group["findings"]["byRule"].items():
        expected[(build, rule)] = count
shown = {(b, r): c for b, r, c in dom["counts"]}
check("findings per rule per build equal stats --by build --json",
      {k: v for k, v in shown.items() if v} == expected, (shown, expected))
bad_bars = [(b, r, c, h, shown.get((b, r))) for b, r, c, h in dom["bars"] if shown.get((b, r)) != c or h <= 0]
check(f"{len(dom['bars'])} bars, each a non-zero cell of the table", dom["bars"] and not bad_bars, bad_bars[:5])
check("builds in version order", dom["builds"] == builds, dom["builds"])

paths = json.loads(run("paths", "--steps", "2", "--top", "24", "--json", fleet))["paths"]
check("the flow is paths --steps 2 --json", dom["flows"] == [[p["path"][0], p["path"][1], p["count"], p["sessions"]] for p in paths],
      (dom["flows"][:3], paths[:3]))

latency = json.loads(run("latency", "--group", "build", "--json", fleet))["screens"]
reference = {}
for e in latency:
    for measure in ("appearance", "firstArrival", "dwell"):
        m = e[measure]
        def cell(v):
            return "-" if v is None else "%.3f" % v
        reference[(e["screen"], e["key"]["build"], measure)] = (m["count"], cell(m["p50"]), cell(m["p90"]), cell(m["p99"]))
bad = [row for row in dom["latency"] if reference.get((row[0], row[1], row[2])) != tuple(row[3:])]
check(f"{len(dom['latency'])} latency cells equal latency --group build --json", dom["latency"] and not bad, bad[:3])
check("session report links", sorted(dom["links"]) == sorted(f"{fleet}/j{i}.html" for i in (1, 2, 7)), dom["links"])
check("fits a 1300 px window", dom["width"] <= 1300, dom["width"])
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
