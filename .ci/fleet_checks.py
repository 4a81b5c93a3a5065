"""Shared by the CI checks in Python: a pass/fail counter, and what the fleet checks
compare, the figures of `stats --by build --json` per build.

Used by .ci/spark_fleet.py and .ci/duckdb_interop.py. Dwell is compared in whole
microseconds (journal times have microsecond precision): sums of those are exact
whatever the order an engine adds them in, where sums of milliseconds as doubles
may differ in the last bit.
"""

import json


class Checks:
    """Counts checks; prints each failure. Ends with "N passed, M failed"."""

    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL: {what}")
        return ok


def dwell_us(milliseconds):
    return round(milliseconds * 1000)


def expected(stats_path):
    """{figure: {key: value}} from a `stats --by build --json` document.

    findings: (build, rule) -> count; dwell: (build, controller) -> (visits, dwell in µs);
    journals and events: build -> count. A journal without a build is under None.
    """
    with open(stats_path, encoding="utf-8") as f:
        stats = json.load(f)
    assert stats["by"] == ["build"], stats["by"]
    figures = {"findings": {}, "dwell": {}, "journals": {}, "events": {}}
    for group in stats["groups"]:
        build = group["key"]["build"]
        figures["journals"][build] = group["journals"]
        figures["events"][build] = group["events"]
        for rule, count in group["findings"]["byRule"].items():
            figures["findings"][(build, rule)] = count
        for c in group["controllers"]:
            if c["visits"] > 0:
                figures["dwell"][(build, c["controller"])] = (c["visits"], dwell_us(c["dwellMs"]))
    return figures


def compare(checks, engine, figure, got, want):
    """One check per figure: equal dicts, or the keys that differ."""
    if got == want:
        return checks.check(True, figure)
    keys = sorted(set(got) | set(want), key=repr)
    diffs = [f"{k!r}: {engine} {got.get(k)}, stats {want.get(k)}" for k in keys if got.get(k) != want.get(k)]
    return checks.check(False, f"{figure} per build ({len(diffs)} differ): " + "; ".join(diffs[:5]))
