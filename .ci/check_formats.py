"""Validates `check --format sarif|junit|github` with the real consumers.

For every bundled journal (and a hostile one), SARIF output is validated
against the official SARIF 2.1.0 JSON schema (draft 4) with `jsonschema`,
JUnit output is parsed with `junitparser`, and GitHub workflow commands are
matched against the documented shape. Prints "N passed, M failed".

Usage: python check_formats.py BINARY SCHEMA JOURNAL...
"""
import json
import re
import subprocess
import sys

import jsonschema
import junitparser

binary, schema_path, *journals = sys.argv[1:]
with open(schema_path) as f:
    schema = json.load(f)
validator = jsonschema.Draft4Validator(schema)
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAILED {name}: {detail}"[:2000])


def run(*args):
    return subprocess.run([binary, *args], capture_output=True, check=False)


github_line = re.compile(r"^::(error|warning) file=[^,:]+,line=\d+(,col=\d+)?,title=[a-z-]+::.+$")

for journal in journals:
    check_json = run("check", "--format", "json", journal)
    expected = [json.loads(l) for l in check_json.stdout.decode().splitlines() if l.strip()]
    findings = [f for f in expected if not f.get("summary")]

    sarif = run("check", "--format", "sarif", journal)
    check(f"sarif status {journal}", sarif.returncode == check_json.returncode, sarif.returncode)
    try:
        log = json.loads(sarif.stdout)
        errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
        check(f"sarif schema {journal}", not errors, "; ".join(e.message for e in errors[:3]))
        results = log["runs"][0]["results"]
        rule_ids = [r["id"] for r in log["runs"][0]["tool"]["driver"]["rules"]]
        check(f"sarif results {journal}", [(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"])
                                          for r in results] == [(f["rule"], f["line"]) for f in findings],
              f"{len(results)} results, {len(findings)} findings")
        check(f"sarif rule index {journal}", all(rule_ids[r["ruleIndex"]] == r["ruleId"] for r in results))
    except (ValueError, KeyError, IndexError) as error:
        check(f"sarif parse {journal}", False, repr(error))

    # JUnit: the journal is one suite; a passing "journal reads" case, then one failing case per
    # error finding ("RULE at line N"), in line order; every case's classname is the journal.
    junit = run("check", "--format", "junit", journal)
    try:
        xml = junitparser.JUnitXml.fromstring(junit.stdout.decode())
        suites = list(xml)
        check(f"junit suites {journal}", [s.name for s in suites] == [journal], [s.name for s in suites])
        cases = [case for suite in suites for case in suite]
        errors = [f for f in findings if f["severity"] == "error"]
        check(f"junit cases {journal}", len(cases) == len(errors) + 1, f"{len(cases)} != {len(errors)} + 1")
        check(f"junit read case {journal}", cases[0].name == "journal reads" and not cases[0].result,
              cases[0].name)
        failures = [(case.name, r.type) for case in cases[1:] for r in case.result
                    if isinstance(r, junitparser.Failure)]
        expected = [(f"{f['rule']} at line {f['line']}", f["rule"]) for f in errors]
        check(f"junit failures {journal}", [(re.sub(r" \(\d+\)$", "", n), t) for n, t in failures] == expected,
              f"{failures[:3]} != {expected[:3]}")
        check(f"junit classnames {journal}", all(case.classname == journal for case in cases))
        check(f"junit counts {journal}",
              (suites[0].tests, suites[0].failures, xml.tests, xml.failures) == (len(cases), len(errors)) * 2,
              (suites[0].tests, suites[0].failures, xml.tests, xml.failures))
    except Exception as error:  # a parse error is a failure of the format
        check(f"junit parse {journal}", False, repr(error))

    github = run("check", "--format", "github", journal)
    commands = [l for l in github.stdout.decode().splitlines() if l.startswith("::")]
    check(f"github count {journal}", len(commands) == len(findings), f"{len(commands)} != {len(findings)}")
    bad = [l for l in commands if not github_line.match(l)]
    check(f"github shape {journal}", not bad, bad[:3])

print(f"formats: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
