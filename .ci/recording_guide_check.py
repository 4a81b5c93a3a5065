#!/usr/bin/env python3
"""Checks what docs/recording.md's production program (ShopApp) wrote.

Usage: recording_guide_check.py SPATIAL_REPLAY ROTATED_DIR WHOLE_DIR SHOP_PACKAGE

- each segment checks on its own with no format error;
- the segments read together give the findings (line and rule) of the session recorded whole;
- the triggered journal checks on its own, holds the finding that triggered it and ends with
  the trigger's mark;
- `check --format sarif` on it locates that finding at a .swift file and line of the program,
  a line that calls viewDidAppear().
"""
import glob
import json
import os
import subprocess
import sys

binary, rotated, whole, shop = sys.argv[1:5]


def fail(message):
    print(f"recording guide (ShopApp): {message}", file=sys.stderr)
    sys.exit(1)


def check_json(paths):
    run = subprocess.run([binary, "check", "--format", "json", *paths], capture_output=True, text=True)
    if run.returncode not in (0, 1):
        fail(f"check {' '.join(paths)}: status {run.returncode}\n{run.stdout}{run.stderr}")
    lines = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    summary = lines[-1]
    if not summary.get("summary"):
        fail(f"check {' '.join(paths)}: no summary\n{run.stdout}")
    if summary["formatErrors"] != 0:
        fail(f"check {' '.join(paths)}: {summary['formatErrors']} format errors\n{run.stdout}")
    return [(f["line"], f["rule"]) for f in lines[:-1]], summary


segments = sorted(glob.glob(os.path.join(rotated, "shop.0*.ndjson*")))
if len(segments) < 2:
    fail(f"expected several segments in {rotated}, found {segments}")
for segment in segments:
    check_json([segment])
print(f"{len(segments)} segments, each checks with no format error")

together, summary = check_json(segments)
whole_segments = sorted(glob.glob(os.path.join(whole, "shop.0*.ndjson*")))
if len(whole_segments) != 1:
    fail(f"expected one segment in {whole}, found {whole_segments}")
alone, whole_summary = check_json(whole_segments)
if not together or together != alone:
    fail(f"segments read together: {together}; the whole session: {alone}")
if summary["events"] != whole_summary["events"]:
    fail(f"segments read together: {summary['events']} events; the whole session: {whole_summary['events']}")
print(f"read together: {summary['events']} events, findings {together}, as the whole session")

captures = sorted(glob.glob(os.path.join(rotated, "shop.capture-*.ndjson")))
if len(captures) != 1:
    fail(f"expected one triggered journal, found {captures}")
capture = captures[0]
findings, _ = check_json([capture])
if "did-without-will" not in [rule for _, rule in findings]:
    fail(f"{capture}: no did-without-will finding: {findings}")
with open(capture) as f:
    last = json.loads(f.read().splitlines()[-1])
if last.get("type") != "mark" or last.get("label") != "flight-recorder.trigger" or last.get("rule") != "did-without-will":
    fail(f"{capture}: does not end with the trigger's mark: {last}")
print(f"{os.path.basename(capture)}: checks on its own, holds {findings}, ends with {last['label']}")

run = subprocess.run([binary, "check", "--format", "sarif", capture], capture_output=True, text=True)
sarif = json.loads(run.stdout)
located = []
for result in sarif["runs"][0]["results"]:
    if result.get("ruleId") != "did-without-will":
        continue
    for location in result.get("locations", []):
        physical = location.get("physicalLocation", {})
        uri = physical.get("artifactLocation", {}).get("uri", "")
        line = physical.get("region", {}).get("startLine")
        if uri.endswith(".swift") and line:
            located.append((uri, line))
if not located:
    fail(f"SARIF locates the finding at no .swift line:\n{run.stdout}")
for uri, line in located:
    path = os.path.join(shop, "Sources", uri)
    if not os.path.isfile(path):
        fail(f"SARIF names {uri}, which is not a file of the program ({path})")
    with open(path) as f:
        text = f.read().splitlines()[line - 1]
    if "viewDidAppear()" not in text:
        fail(f"SARIF locates the finding at {uri}:{line}, `{text.strip()}`, not the call of viewDidAppear()")
    print(f"SARIF locates the finding at {uri}:{line}: {text.strip()}")
print("recording guide (ShopApp): ok")
