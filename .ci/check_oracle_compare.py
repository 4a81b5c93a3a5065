#!/usr/bin/env python3
"""Compares `spatial-replay check` with the independent oracle, .ci/check_oracle.py.

Usage: check_oracle_compare.py SPATIAL_REPLAY JOURNAL...

For each journal, the findings of the lifecycle and graph rules (errors and
warnings) that `check --format json` prints and those of the oracle are compared
as multisets of (rule, seq). Prints one line per journal (and the first
differences of any journal that differs), then "oracle: N journals agree, M differ"; the exit
status is 1 when any journal differs or cannot be checked. Standard library only.
"""

import collections
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_oracle  # noqa: E402

# The model's lifecycle and graph rules (the journal integrity rules are left out).
RULES = {
    "self-link", "slot-occupied", "id-reused", "unknown-controller", "use-after-dealloc",
    "load-repeated", "appear-before-load", "did-repeated", "did-without-will", "will-repeated",
    "misattributed", "incomplete-transition", "order", "focus-mismatch", "not-neighbour",
    "modal-leak", "dealloc-forbidden", "visible-count", "touches-violated",
}
SHOWN = 8  # differences printed per journal and side


def checker_findings(binary, path):
    """(rule, seq) of check's findings, or None with a reason when check could not read the journal."""
    run = subprocess.run([binary, "check", "--format", "json", path], capture_output=True, text=True)
    if run.returncode not in (0, 1):
        return None, f"check exited {run.returncode}: {run.stderr.strip()[:300]}"
    found = collections.Counter()
    for line in run.stdout.splitlines():
        finding = json.loads(line)
        if finding.get("summary"):
            continue
        if finding["rule"] in RULES and finding["severity"] in ("error", "warning"):
            found[(finding["rule"], finding["seq"])] += 1
    return found, None


def oracle_findings(path):
    with open(path, encoding="utf-8-sig") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    found = collections.Counter()
    for finding in check_oracle.check_lines([line.rstrip("\r") for line in lines]):
        found[(finding["rule"], finding["seq"])] += 1
    return found


def describe(counter):
    items = sorted(counter.elements(), key=lambda rs: (rs[1], rs[0]))
    text = ", ".join(f"{rule}@{seq}" for rule, seq in items[:SHOWN])
    return text + (f" … ({len(items)} in all)" if len(items) > SHOWN else "")


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    binary, paths = argv[1], argv[2:]
    passed = failed = 0
    for path in paths:
        checker, reason = checker_findings(binary, path)
        if checker is None:
            failed += 1
            print(f"FAIL {path}: {reason}")
            continue
        oracle = oracle_findings(path)
        if checker == oracle:
            passed += 1
            print(f"ok   {path}: {sum(oracle.values())} findings agree")
            continue
        failed += 1
        print(f"FAIL {path}: check {sum(checker.values())} findings, oracle {sum(oracle.values())}")
        only_checker, only_oracle = checker - oracle, oracle - checker
        if only_checker:
            print(f"     only check:  {describe(only_checker)}")
        if only_oracle:
            print(f"     only oracle: {describe(only_oracle)}")
    print(f"oracle: {passed} journals agree, {failed} differ")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
