#!/usr/bin/env python3
"""Spark fleet check: Integrations/spark/fleet.py on a generated fleet, local[2].

Usage: spark_fleet.py BINARY FLEET_DIR STATS_JSON OUT_DIR

Runs the job as a module on FLEET_DIR with BINARY (shipped to the executors with
SparkFiles), then checks, on the Parquet it wrote read back with the explicit
schemas, that findings per build and rule, visits and dwell per build and
controller, journals and events per build equal those of `stats --by build
--json` (STATS_JSON) exactly, and so do the same figures from the fleet exported
with `export --format parquet --partition build` and read by Spark; that the tables have the types of `export
--schema`, a build that looks like a number stays a string, and the journal
with a bad line is an error row (status 2, its message) while its good rows
stay. Prints one line per failed check, then "N passed, M failed".
"""

import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Integrations", "spark"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import fleet  # noqa: E402
from fleet_checks import Checks, compare, expected  # noqa: E402


def main():
    if len(sys.argv) != 5:
        print(__doc__)
        return 2
    binary, fleet_dir, stats_path, out = sys.argv[1:]
    checks = Checks()
    want = expected(stats_path)

    # The job on one journal, no Spark: a crash is an error row and its rows are left out.
    with tempfile.TemporaryDirectory() as folder:
        crash = os.path.join(folder, "crash")
        with open(crash, "w") as f:
            f.write("#!/bin/sh\ncat >/dev/null\necho 'segmentation fault' >&2\nexit 139\n")
        os.chmod(crash, 0o755)
        rows = list(fleet.export_journal(crash, "j.ndjson", b"{}\n", ("visits",)))
        checks.check(
            rows == [("error", '{"path": "j.ndjson", "table": "visits", "status": 139, "message": "segmentation fault"}')],
            f"a crashed run is one error row and no rows: {rows}",
        )

    temporary = tempfile.mkdtemp(prefix="spatial-replay-spark-ci-")
    spark = fleet.session("local[2]", temporary)
    frames, errors = fleet.run(spark, binary, [fleet_dir], out)

    got = {
        "findings": {(b, r): n for b, r, n in fleet.findings_by_build_and_rule(frames["findings"])},
        "dwell": {(b, c): (v, us) for b, c, v, us in fleet.dwell_by_build_and_controller(frames["visits"])},
        "journals": {r["build"]: r["count"] for r in frames["sessions"].groupBy("build").count().collect()},
        "events": {r["build"]: r["events"] for r in frames["sessions"].groupBy("build").sum("events").withColumnRenamed("sum(events)", "events").collect()},
    }
    for figure in ("findings", "dwell", "journals", "events"):
        checks.check(len(want[figure]) > 0, f"stats has {figure}")
        compare(checks, "Spark", figure, got[figure], want[figure])

    # The same figures from `export --format parquet --partition build` of the fleet, read by Spark
    # straight from our own Parquet files (Hive folders, partition values as strings).
    spark.conf.set("spark.sql.sources.partitionColumnTypeInference.enabled", "false")
    lake = os.path.join(temporary, "parquet-lake")
    parquet = {}
    for table in ("findings", "visits", "sessions"):
        target = os.path.join(lake, table)
        run = subprocess.run(
            [binary, "export", "--table", table, "--format", "parquet", "--compression", "gzip", "--partition",
             "build", "-o", target, fleet_dir],
            capture_output=True,
        )
        checks.check(run.returncode == 2, f"export --format parquet {table}: status {run.returncode}, expected 2")
        parquet[table] = spark.read.option("basePath", target).parquet(target)
    got = {
        "findings": {(b, r): n for b, r, n in fleet.findings_by_build_and_rule(parquet["findings"])},
        "dwell": {(b, c): (v, us) for b, c, v, us in fleet.dwell_by_build_and_controller(parquet["visits"])},
        "journals": {r["build"]: r["count"] for r in parquet["sessions"].groupBy("build").count().collect()},
        "events": {r["build"]: r["events"] for r in parquet["sessions"].groupBy("build").sum("events").withColumnRenamed("sum(events)", "events").collect()},
    }
    for figure in ("findings", "dwell", "journals", "events"):
        compare(checks, "Spark on export --format parquet", figure, got[figure], want[figure])
    for table, frame in parquet.items():
        types = dict(frame.dtypes)
        for column in fleet.schema(binary, table):
            checks.check(
                types.get(column["name"]) == column["spark"],
                f"parquet {table}.{column['name']}: Spark {types.get(column['name'])}, schema {column['spark']}",
            )

    # Types: those of export --schema, the partition column a string.
    for table, frame in frames.items():
        columns = fleet.schema(binary, table)
        types = dict(frame.dtypes)
        for column in columns:
            checks.check(
                types.get(column["name"]) == column["spark"],
                f"{table}.{column['name']}: Spark {types.get(column['name'])}, schema {column['spark']}",
            )
    builds = {r["build"] for r in frames["sessions"].select("build").distinct().collect()}
    checks.check(builds == {"1", "10", "2.0 (7)", "2.1/beta", None}, f"builds read back as strings: {builds}")
    folders = sorted(name for name in os.listdir(os.path.join(out, "visits")) if name.startswith("build="))
    checks.check(
        folders == ["build=1", "build=10", "build=2.0 (7)", "build=2.1%2Fbeta", "build=__HIVE_DEFAULT_PARTITION__"],
        f"visits partitioned by build: {folders}",
    )
    timestamps = frames["visits"].where("start_time is null or end_time is null").count()
    checks.check(timestamps == 0, f"{timestamps} visits without a timestamp")

    # The journal with a bad line: an error row per table (status 2, the reader's message), its rows kept.
    failed = sorted((r["path"].rsplit("/", 1)[-1], r["table"], r["status"]) for r in errors.collect())
    checks.check(
        failed == [("bad.ndjson", "findings", 2), ("bad.ndjson", "sessions", 2), ("bad.ndjson", "visits", 2)],
        f"error rows: {failed}",
    )
    messages = [r["message"] for r in errors.where("table = 'visits'").collect()]
    checks.check(
        len(messages) == 1 and messages[0].startswith("<stdin>:5:") and "[malformed]" in messages[0],
        f"error message: {messages}",
    )
    bad = frames["sessions"].where("session = 'fleet-bad'").collect()
    checks.check(len(bad) == 1 and bad[0]["file"].endswith("/day1/bad.ndjson"), f"the bad journal's session row: {bad}")

    spark.stop()
    print(f"{checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
