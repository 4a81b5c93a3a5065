#!/usr/bin/env python3
"""DuckDB interop checks for `spatial-replay export` and `stats --json`.

Usage: duckdb_interop.py WORK_DIR DOCS_TABLES_MD JOURNAL...

WORK_DIR holds what .ci/duckdb_interop.sh wrote: TABLE.ndjson and TABLE.csv
for each table, lake-ndjson/TABLE and lake-csv/TABLE (partitioned by session)
and stats.json. The expected columns and types come from docs/tables.md.

With a fleet (WORK_DIR/fleet-stats.json, from `stats --by build --json`), also
reads fleet-lake/TABLE (findings, visits and sessions exported with
--partition build) with hive_partitioning and the explicit schema of `export
--schema TABLE` (schema-TABLE.json), and checks findings per build and rule,
visits and dwell per build and controller, journals and events per build
against the stats.

With WORK_DIR/odd-lake/sessions (builds of 300 bytes, the literal
__HIVE_DEFAULT_PARTITION__, 1.0 and none, and a journal whose folder is blocked),
checks that the rows keep every value, that the paths read back the literal as
itself and no build as null, that the failure is one line and no folder is empty.
Prints one line per failed check, then "N passed, M failed"; exits 1 on any failure.
"""

import json
import math
import os
import re
import sys

import duckdb
from fleet_checks import Checks, compare, expected

TABLES = ["events", "visits", "moves", "pans", "findings", "sessions", "paths"]

# How DuckDB's readers type each documented column type.
DUCKDB_TYPES = {
    "string": "VARCHAR",
    "integer": "BIGINT",
    "number": "DOUBLE",
    "boolean": "BOOLEAN",
    "timestamp": "TIMESTAMP WITH TIME ZONE",
    "json": "VARCHAR",
    "list": "VARCHAR",
}
# NDJSON carries lists and objects as JSON arrays and objects: DuckDB reads a list of
# strings as VARCHAR[] and objects as a STRUCT of every key it saw (or JSON).
DUCKDB_NDJSON_TYPES = dict(DUCKDB_TYPES, json="STRUCT|JSON|MAP", list="VARCHAR[]")


def normalized(value):
    """A list or object cell as canonical JSON text, whatever reader typed it: CSV gives
    the JSON text, NDJSON a list or a STRUCT (a dict with every key seen, null where absent)."""
    if isinstance(value, str):
        value = json.loads(value)

    def strip(v):
        if isinstance(v, dict):
            return {k: strip(x) for k, x in v.items() if x is not None}
        if isinstance(v, list):
            return [strip(x) for x in v]
        return v

    return json.dumps(strip(value), sort_keys=True)


def documented_columns(docs_path):
    """{section: [(name, type)]} for "## Common columns" and each "## `table`" section."""
    sections = {}
    current = None
    with open(docs_path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("## "):
                current = line[3:].strip().strip("`")
                sections[current] = []
                continue
            m = re.match(r"^\| `([^`]+)` \| (\w+) \| (yes|no) \|", line)
            if m and current is not None:
                sections[current].append((m.group(1), m.group(2)))
    common = sections["Common columns"]
    return {t: common + sections[t] for t in TABLES}


def sql_string(text):
    return "'" + text.replace("'", "''") + "'"


def describe(con, relation):
    return [(row[0], row[1]) for row in con.execute(f"describe select * from {relation}").fetchall()]


def non_null_columns(con, relation, names):
    counts = con.execute(
        "select " + ", ".join(f'count("{n}")' for n in names) + f" from {relation}"
    ).fetchone()
    return {n for n, c in zip(names, counts) if c > 0}


def check_types(checks, con, relation, label, expected, fmt):
    actual = describe(con, relation)
    documented = DUCKDB_NDJSON_TYPES if fmt == "ndjson" else DUCKDB_TYPES
    names = [name for name, _ in expected]
    checks.check([name for name, _ in actual] == names, f"{label}: columns {[n for n, _ in actual]} != {names}")
    present = non_null_columns(con, relation, names)
    types = dict(actual)
    for name, kind in expected:
        if name not in types:
            continue
        if name not in present:
            # A column null in every row carries no type: "NULL" in NDJSON, VARCHAR in CSV.
            checks.check(types[name] in ('"NULL"', "NULL", "VARCHAR", "JSON"), f"{label}.{name}: all-null column typed {types[name]}")
            continue
        wanted = documented[kind]
        ok = any(types[name] == w or (w != "VARCHAR[]" and types[name].startswith(w + "(")) for w in wanted.split("|"))
        checks.check(ok, f"{label}.{name}: {types[name]}, documented {kind} ({wanted})")
        if kind in ("json", "list") and fmt == "csv":
            bad = con.execute(f'select count(*) from {relation} where "{name}" is not null and not json_valid("{name}")').fetchone()[0]
            checks.check(bad == 0, f"{label}.{name}: {bad} values are not valid JSON")
    return present


def typed_rows(con, relation, names, kinds=None):
    """Every row as DuckDB types it (datetimes, floats, booleans...), sorted, for comparing two readings.

    Values are compared as Python values, not cast to text in SQL: DuckDB pushes a cast to
    VARCHAR down into the CSV scan and would hand back the raw text instead of the typed value.
    """
    select = ", ".join(f'"{n}"' for n in names)
    rows = con.execute(f"select {select} from {relation}").fetchall()
    if kinds:
        structured = [i for i, n in enumerate(names) if kinds.get(n) in ("json", "list")]
        rows = [
            tuple(normalized(v) if i in structured and v is not None else v for i, v in enumerate(row)) for row in rows
        ]
    return sorted(rows, key=lambda r: tuple("" if v is None else str(v) for v in r))


def same_rows(checks, actual, expected, label):
    """Checks two row lists are equal; on failure names the first row that differs."""
    if actual == expected:
        return checks.check(True, label)
    detail = f"{len(actual)} rows, expected {len(expected)}"
    for a, e in zip(actual, expected):
        if a != e:
            detail += f"; first difference:\n    {a}\n    {e}"
            break
    return checks.check(False, f"{label}: {detail}")


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    work, docs, journals = sys.argv[1], sys.argv[2], sys.argv[3:]
    checks = Checks()
    con = duckdb.connect()
    expected = documented_columns(docs)

    # 1. DuckDB reads the journals themselves.
    for journal in journals:
        relation = f"read_json_auto({sql_string(journal)}, format = 'newline_delimited')"
        with open(journal, encoding="utf-8") as f:
            lines = sum(1 for _ in f)
        count = con.execute(f"select count(*) from {relation}").fetchone()[0]
        checks.check(count == lines, f"{journal}: DuckDB read {count} rows of {lines} lines")
        types = dict(describe(con, relation))
        for name, kind in [("seq", "BIGINT"), ("time", "TIMESTAMP WITH TIME ZONE"), ("type", "VARCHAR")]:
            checks.check(types.get(name) == kind, f"{journal}: {name} typed {types.get(name)}, expected {kind}")

    # 2. Every table, NDJSON and CSV, with the documented columns and types, and the same rows.
    counts = {}
    for table in TABLES:
        names = [n for n, _ in expected[table]]
        kinds = dict(expected[table])
        ndjson = f"read_ndjson({sql_string(f'{work}/{table}.ndjson')})"
        csv = f"read_csv_auto({sql_string(f'{work}/{table}.csv')})"
        check_types(checks, con, ndjson, f"{table}.ndjson", expected[table], "ndjson")
        check_types(checks, con, csv, f"{table}.csv", expected[table], "csv")
        counts[table] = con.execute(f"select count(*) from {ndjson}").fetchone()[0]
        checks.check(counts[table] > 0, f"{table}: no rows")
        same_rows(checks, typed_rows(con, ndjson, names, kinds), typed_rows(con, csv, names, kinds), f"{table}: CSV rows vs NDJSON rows")
        if "controllers" in kinds:
            # The list is a list to DuckDB: its first element, not the text of an array.
            first = con.execute(f"select count(*) from {ndjson} where len(controllers) > 0 and controllers[1] is null").fetchone()[0]
            checks.check(first == 0, f"{table}: controllers[1] is null in {first} rows with controllers")

        # 3. The partitioned layout, read with hive_partitioning: the same rows, sessions from the paths.
        for fmt, reader in [("ndjson", "read_ndjson"), ("csv", "read_csv_auto")]:
            lake = f"{reader}({sql_string(f'{work}/lake-{fmt}/{table}/*/part.{fmt}')}, hive_partitioning = true)"
            single = ndjson if fmt == "ndjson" else csv
            same_rows(checks, typed_rows(con, lake, names, kinds), typed_rows(con, single, names, kinds), f"{table}: partitioned {fmt} rows vs the single file")

    # 4. An aggregate DuckDB computes equals the one of stats --json: total dwell per controller.
    with open(f"{work}/stats.json", encoding="utf-8") as f:
        stats = json.load(f)
    visits = f"read_ndjson({sql_string(f'{work}/visits.ndjson')})"
    duck = dict(con.execute(f"select controller, sum(dwell_ms) from {visits} group by controller").fetchall())
    overall = {c["controller"]: c for c in stats["overall"]["controllers"]}
    for controller, c in overall.items():
        if c["visits"] == 0:
            checks.check(controller not in duck, f"dwell: {controller} has no visits in stats but rows in DuckDB")
        else:
            got = duck.get(controller)
            checks.check(
                got is not None and math.isclose(got, c["dwellMs"], rel_tol=1e-9, abs_tol=1e-6),
                f"dwell of {controller}: DuckDB {got}, stats {c['dwellMs']}",
            )
    checks.check(set(duck) <= set(overall), f"dwell: controllers only DuckDB saw: {set(duck) - set(overall)}")

    per_file = {}
    for file, controller, dwell in con.execute(
        f"select file, controller, sum(dwell_ms) from {visits} group by file, controller"
    ).fetchall():
        per_file[(file, controller)] = dwell
    for session in stats["sessions"]:
        for c in session["controllers"]:
            if c["visits"] > 0:
                got = per_file.get((session["file"], c["controller"]))
                checks.check(
                    got is not None and math.isclose(got, c["dwellMs"], rel_tol=1e-9, abs_tol=1e-6),
                    f"dwell of {c['controller']} in {session['file']}: DuckDB {got}, stats {c['dwellMs']}",
                )

    # Event counts per journal and findings per rule agree too.
    events = f"read_ndjson({sql_string(f'{work}/events.ndjson')})"
    by_file = dict(con.execute(f"select file, count(*) from {events} group by file").fetchall())
    for session in stats["sessions"]:
        checks.check(by_file.get(session["file"]) == session["events"], f"events of {session['file']}: DuckDB {by_file.get(session['file'])}, stats {session['events']}")
    findings = f"read_ndjson({sql_string(f'{work}/findings.ndjson')})"
    by_rule = dict(con.execute(f"select rule, count(*) from {findings} group by rule").fetchall())
    checks.check(by_rule == stats["overall"]["findings"]["byRule"], f"findings by rule: DuckDB {by_rule}, stats {stats['overall']['findings']['byRule']}")

    if os.path.exists(f"{work}/fleet-stats.json"):
        check_fleet(checks, con, work)
    if os.path.exists(f"{work}/odd-long-build.txt"):
        check_odd_partitions(checks, con, work)

    print(f"{checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


def check_fleet(checks, con, work):
    """The fleet exported with --partition build, read with the schema of export --schema."""
    relations = {}
    for table in ("findings", "visits", "sessions"):
        with open(f"{work}/schema-{table}.json", encoding="utf-8") as f:
            columns = json.load(f)["columns"]
        struct = "{" + ", ".join(f"{sql_string(c['name'])}: {sql_string(c['duckdb'])}" for c in columns) + "}"
        path = sql_string(f"{work}/fleet-lake/{table}/*/part.ndjson")
        relations[table] = f"read_ndjson({path}, hive_partitioning = true, hive_types = {{'build': VARCHAR}}, columns = {struct})"
        types = describe(con, relations[table])
        checks.check(
            types == [(c["name"], c["duckdb"].replace("TIMESTAMPTZ", "TIMESTAMP WITH TIME ZONE")) for c in columns],
            f"fleet {table}: DuckDB types {types}",
        )
    want = expected(f"{work}/fleet-stats.json")
    got = {
        "findings": {
            (b, r): n for b, r, n in con.execute(f"select build, rule, count(*) from {relations['findings']} group by all").fetchall()
        },
        "dwell": {
            (b, c): (v, us)
            for b, c, v, us in con.execute(
                f"select build, controller, count(*), sum(round(dwell_ms * 1000)::bigint) from {relations['visits']} group by all"
            ).fetchall()
        },
        "journals": dict(con.execute(f"select build, count(*) from {relations['sessions']} group by all").fetchall()),
        "events": dict(con.execute(f"select build, sum(events)::bigint from {relations['sessions']} group by all").fetchall()),
    }
    for figure in ("findings", "dwell", "journals", "events"):
        checks.check(len(want[figure]) > 0, f"fleet stats has {figure}")
        compare(checks, "DuckDB", figure, got[figure], want[figure])
    # The JSON columns are JSON to DuckDB: a count by type out of the object.
    moves = con.execute(f"select sum((events_by_type->>'move')::bigint) from {relations['sessions']}").fetchone()[0]
    checks.check(moves and moves > 0, f"fleet sessions: moves out of events_by_type: {moves}")


def check_odd_partitions(checks, con, work):
    """Builds that cannot be folder names as they are: every value reads back, the file fails alone."""
    with open(f"{work}/odd-long-build.txt", encoding="utf-8") as f:
        long_build = f.read().rstrip("\n")
    lake = f"{work}/odd-lake/sessions"
    path = sql_string(f"{lake}/*/part.ndjson")
    # The rows keep every value, the 300-byte one and the literal null name included.
    rows = dict(con.execute(f"select session, build from read_ndjson({path}, hive_partitioning = false)").fetchall())
    want = {"odd-long": long_build, "odd-hive": "__HIVE_DEFAULT_PARTITION__", "odd-plain": "1.0", "odd-none": None}
    checks.check(rows == want, f"odd builds: the rows' build column {rows}")
    # From the paths: the literal is the literal (not null), no build is null, the long one its short folder name.
    hive = dict(con.execute(
        f"select session, build from read_ndjson({path}, hive_partitioning = true, hive_types = {{'build': VARCHAR}})"
    ).fetchall())
    checks.check(hive.get("odd-hive") == "__HIVE_DEFAULT_PARTITION__", f"odd builds: the literal from its path reads {hive.get('odd-hive')!r}")
    checks.check("odd-none" in hive and hive["odd-none"] is None, f"odd builds: no build from its path reads {hive.get('odd-none')!r}")
    short = hive.get("odd-long") or ""
    checks.check(short.startswith("b" * 64 + "~") and len(short) == 64 + 17, f"odd builds: the long build's folder reads {short!r}")
    checks.check(hive.get("odd-plain") == "1.0", f"odd builds: 1.0 from its path reads {hive.get('odd-plain')!r}")
    # The blocked journal is reported in one short line naming the path; no folder is empty.
    with open(f"{work}/odd-stderr.txt", encoding="utf-8") as f:
        lines = f.read().splitlines()
    checks.check(len(lines) == 1 and len(lines[0]) <= 500 and "build=blocked" in lines[0], f"odd builds: stderr {lines}")
    empty = [d for d, subdirs, files in os.walk(lake) if not subdirs and not files]
    checks.check(not empty, f"odd builds: empty folders {empty}")


if __name__ == "__main__":
    sys.exit(main())
