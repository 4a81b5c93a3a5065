#!/usr/bin/env python3
"""Parquet interop checks for `spatial-replay export --format parquet`.

Usage: parquet_interop.py local|spark WORK_DIR

WORK_DIR holds what .ci/parquet_interop.sh wrote: schema-TABLE.json (`export
--schema`), and for each table NDJSON and Parquet (codecs none and gzip) exports of
the bundled journals (bundled/), of a fleet as one file (fleet-single/) and
partitioned by build (fleet-ndjson/TABLE/build=B/part.ndjson,
fleet-CODEC/TABLE/build=B/part.parquet), and of a long session (long/).

`local` reads every Parquet file with pyarrow, fastparquet and DuckDB; `spark`
the gzip files of every table with PySpark, local[2]. Each reader's column types
must be those `export --schema` gives (or the documented equivalent), and its rows equal the NDJSON export's value
by value (pyarrow, fastparquet, DuckDB: in file order; Spark: as multisets, against
the NDJSON read by Spark with the schema, in the JVM): strings, integers, doubles and booleans exactly,
timestamps in whole microseconds, JSON objects with their keys in order, lists
element by element. Each partitioned fleet is also read as one dataset with Hive
partitioning (pyarrow's dataset API, Spark's basePath) and compared, as a multiset
of rows, with the one-file NDJSON export. Prints one line per failed check, then
"N passed, M failed"; exits 1 on any failure.
"""

import calendar
import datetime
import glob
import json
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fleet_checks import Checks  # noqa: E402

TABLES = ["events", "visits", "moves", "pans", "findings", "sessions", "paths"]
CODECS = ["none", "gzip"]
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


def micros(value):
    """A time as whole microseconds since 1970, from RFC 3339 text or a datetime."""
    if isinstance(value, str):
        value = datetime.datetime.strptime(value, "%Y-%m-%dT%H:%M:%S.%fZ")
    if value.tzinfo is not None:
        value = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    return calendar.timegm(value.timetuple()) * 1_000_000 + value.microsecond


def ordered(value):
    """A JSON value with every object as its (key, value) pairs in order."""
    if isinstance(value, dict):
        return ("object", tuple((k, ordered(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return ("array", tuple(ordered(v) for v in value))
    return value


def is_null(value):
    if value is None:
        return True
    try:
        import pandas

        if value is pandas.NaT or value is pandas.NA:
            return True
    except ImportError:
        pass
    return isinstance(value, float) and math.isnan(value)


def canonical(kind, value):
    """One cell in the form both sides are compared in."""
    if is_null(value):
        return None
    if kind == "timestamp":
        if isinstance(value, int):
            return value
        if hasattr(value, "value") and not isinstance(value, datetime.datetime):
            return int(value.value) // 1000
        if hasattr(value, "to_pydatetime"):
            return int(value.value) // 1000
        return micros(value)
    if kind == "integer":
        assert float(value).is_integer(), value
        return int(value)
    if kind == "number":
        return float(value)
    if kind == "boolean":
        return bool(value)
    if kind == "json":
        return ordered(json.loads(value) if isinstance(value, (str, bytes)) else value)
    if kind == "list":
        return tuple(str(v) for v in value)
    return str(value)


def schema(work, table):
    with open(os.path.join(work, f"schema-{table}.json")) as f:
        return json.load(f)["columns"]


def ndjson_rows(path, columns):
    rows = []
    with open(path) as f:
        for line in f:
            obj = json.loads(line)
            rows.append(tuple(canonical(c["type"], obj[c["name"]]) for c in columns))
    return rows


# MARK: Readers. Each returns ({column: type as the reader names it}, rows in file order).


def read_pyarrow(path, columns):
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    return pyarrow_rows(table, columns, pa)


def pyarrow_rows(table, columns, pa):
    types = {f.name: (str(f.type), f.nullable) for f in table.schema}
    data = []
    for c in columns:
        column = table.column(c["name"])
        if c["type"] == "timestamp":
            column = column.cast(pa.int64())
        data.append([canonical(c["type"], v) for v in column.to_pylist()])
    return types, list(zip(*data)) if data and data[0] else []


def read_fastparquet(path, columns):
    import fastparquet

    frame = fastparquet.ParquetFile(path).to_pandas()
    types = {name: str(t) for name, t in frame.dtypes.items()}
    data = []
    for c in columns:
        values = frame[c["name"]].tolist()
        if c["type"] == "list" and not c["nullable"] and values and all(map(is_null, values)):
            # fastparquet reads a column chunk whose lists are all empty as nulls of type
            # str, from pyarrow's files as from ours (fastparquet_empty_lists shows it); a
            # required column holds no null, so each null read here is an empty list.
            values = [()] * len(values)
            types[c["name"]] = EMPTY_LISTS_AS_STR
        data.append([canonical(c["type"], v) for v in values])
    return types, list(zip(*data)) if len(frame) else []


def fastparquet_empty_lists(work):
    """Whether fastparquet reads pyarrow's own file of one empty, required list as a null:
    the reader's quirk read_fastparquet allows for, printed so that a fixed fastparquet shows."""
    import fastparquet
    import pyarrow as pa
    import pyarrow.parquet as pq

    element = pa.field("element", pa.string(), nullable=False)
    table = pa.table({"c": pa.array([[]], type=pa.list_(element))},
                     schema=pa.schema([pa.field("c", pa.list_(element), nullable=False)]))
    path = os.path.join(work, "fastparquet-empty-lists.parquet")
    pq.write_table(table, path, use_dictionary=False, compression="none", data_page_version="1.0")
    value = fastparquet.ParquetFile(path).to_pandas()["c"].tolist()[0]
    return is_null(value)


def read_duckdb(path, columns):
    import duckdb

    con = duckdb.connect()
    # One file: a folder named build=1 above it is not a column (DuckDB would add it).
    source = f"read_parquet('{path}', hive_partitioning = false)"
    types = {name: t for name, t, *_ in con.execute(f"DESCRIBE SELECT * FROM {source}").fetchall()}
    select = ", ".join(
        f'epoch_us("{c["name"]}")' if c["type"] == "timestamp" else f'"{c["name"]}"' for c in columns
    )
    rows = con.execute(f"SELECT {select} FROM {source}").fetchall()
    return types, [tuple(canonical(c["type"], v) for c, v in zip(columns, row)) for row in rows]


def spark_session():
    from pyspark.sql import SparkSession

    return (
        SparkSession.builder.master("local[2]")
        .appName("parquet-interop")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.sources.partitionColumnTypeInference.enabled", "false")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        # A few thousand rows a table on two cores: 200 shuffle partitions (the default) made most of
        # the time of each comparison (`exceptAll`).
        .config("spark.sql.shuffle.partitions", "4")
        .getOrCreate()
    )


def spark_compare(checks, spark, what, frame, ndjson, columns, expected):
    """Spark's rows against the NDJSON export read by Spark with the schema, in the JVM (every
    row of one must be in the other, as many times); JSON columns, whose NDJSON text Spark
    rewrites, collected and compared in Python. With `expected` None (the long session and the
    fleet's datasets, whose JSON cells pyarrow, fastparquet and DuckDB compare already), the JVM
    comparison alone: collecting their rows into Python was most of CI's time."""
    ddl = ", ".join(f"`{c['name']}` {c['spark']}" for c in columns)
    plain = [f"`{c['name']}`" for c in columns if c["type"] != "json"]
    got, want_frame = frame.select(*plain), spark.read.schema(ddl).json(ndjson).select(*plain)
    n, m = got.count(), want_frame.count()
    rows = m if expected is None else len(expected)
    if not checks.check(n == m == rows, f"spark {what}: {n} rows, NDJSON {m} ({rows})"):
        return
    # With as many rows on each side, the rows of one that are not in the other (counted as
    # often as they occur) are none exactly when the two hold the same rows: one pass, not two.
    extra = got.exceptAll(want_frame).count()
    checks.check(extra == 0, f"spark {what}: {extra} rows not in NDJSON (and as many NDJSON rows missing)")
    json_columns = [i for i, c in enumerate(columns) if c["type"] == "json"]
    if json_columns and expected is not None:
        rows = frame.select(*[f"`{columns[i]['name']}`" for i in json_columns]).collect()
        got_json = sorted((tuple(canonical("json", v) for v in row) for row in rows), key=repr)
        want_json = sorted((tuple(row[i] for i in json_columns) for row in expected), key=repr)
        checks.check(got_json == want_json, f"spark {what}: JSON columns differ")


# MARK: Expected types, by reader.

PYARROW_TYPES = {
    "string": ["string", "large_string"],
    "integer": ["int64"],
    "number": ["double"],
    "boolean": ["bool"],
    "timestamp": ["timestamp[us, tz=UTC]"],
    "json": ["string", "large_string", "extension<arrow.json>"],
    "list": ["list<element: string not null>", "list<element: string>"],
}
EMPTY_LISTS_AS_STR = "str, every value null (fastparquet's reading of a chunk of only empty lists)"
FASTPARQUET_TYPES = {
    "string": ["object", "string", "str"],
    "integer": ["int64", "Int64"],
    "number": ["float64"],
    "boolean": ["bool", "boolean", "object"],
    # fastparquet takes a time zone from pandas' own metadata only: UTC values, no zone.
    "timestamp": ["datetime64[us, UTC]", "datetime64[ns, UTC]", "datetime64[us]", "datetime64[ns]"],
    "json": ["object"],
    "list": ["object", EMPTY_LISTS_AS_STR],
}


def duckdb_type(column):
    return {"TIMESTAMPTZ": "TIMESTAMP WITH TIME ZONE"}.get(column["duckdb"], column["duckdb"])


def check_types(checks, reader, what, columns, types):
    for c in columns:
        got = types.get(c["name"])
        if reader == "pyarrow":
            ok = got is not None and got[0] in PYARROW_TYPES[c["type"]] and got[1] == c["nullable"]
        elif reader == "fastparquet":
            allowed = FASTPARQUET_TYPES[c["type"]]
            if c["nullable"] and c["type"] == "integer":
                allowed = allowed + ["float64"]
            ok = got in allowed
        elif reader == "duckdb":
            ok = got == duckdb_type(c)
        else:
            ok = got == c["spark"]
        if not checks.check(ok, f"{reader} {what}: column {c['name']} is {got}, schema {c['type']}"):
            return


def check_rows(checks, reader, what, got, want, ordered_rows=True):
    if not checks.check(len(got) == len(want), f"{reader} {what}: {len(got)} rows, NDJSON {len(want)}"):
        return
    if not ordered_rows:
        got, want = sorted(got, key=repr), sorted(want, key=repr)
    for i, (a, b) in enumerate(zip(got, want)):
        if a != b:
            diff = [(k, x, y) for k, (x, y) in enumerate(zip(a, b)) if x != y]
            checks.check(False, f"{reader} {what}: row {i + 1} differs (column, Parquet, NDJSON): {diff[:3]}")
            return
    checks.check(True, "")


# MARK: Cases


def single_files(work):
    """(what, table, parquet path, NDJSON path): files whose rows are in the NDJSON's order."""
    cases = []
    for table in TABLES:
        for codec in CODECS:
            cases.append((f"bundled {table} {codec}", table, f"{work}/bundled/{table}.{codec}.parquet",
                          f"{work}/bundled/{table}.ndjson"))
            cases.append((f"fleet {table} {codec}", table, f"{work}/fleet-single/{table}.{codec}.parquet",
                          f"{work}/fleet-single/{table}.ndjson"))
    cases.append(("long events gzip", "events", f"{work}/long/events.gzip.parquet", f"{work}/long/events.ndjson"))
    for codec in CODECS:
        # Only reader findings: every list of the controllers column is empty.
        cases.append((f"broken findings {codec}", "findings", f"{work}/broken/findings.{codec}.parquet",
                      f"{work}/broken/findings.ndjson"))
    return cases


def partition_files(work):
    cases = []
    for table in TABLES:
        for codec in CODECS:
            root = f"{work}/fleet-{codec}/{table}"
            for path in sorted(glob.glob(f"{root}/*/part.parquet")):
                folder = os.path.basename(os.path.dirname(path))
                ndjson = f"{work}/fleet-ndjson/{table}/{folder}/part.ndjson"
                cases.append((f"fleet {table} {codec} {folder}", table, path, ndjson))
    return cases


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("local", "spark"):
        print(__doc__)
        return 2
    mode, work = sys.argv[1:]
    checks = Checks()
    columns = {table: schema(work, table) for table in TABLES}
    expected = {}

    def want(path, table):
        if path not in expected:
            expected[path] = ndjson_rows(path, columns[table])
        return expected[path]

    if mode == "local":
        readers = {"pyarrow": read_pyarrow, "fastparquet": read_fastparquet, "duckdb": read_duckdb}
        if fastparquet_empty_lists(work):
            print("note: this fastparquet reads a chunk of only empty lists as nulls (pyarrow's files too)")
        for what, table, path, ndjson in single_files(work) + partition_files(work):
            checks.check(os.path.exists(ndjson), f"{what}: {ndjson} exists beside {path}")
            for reader, read in readers.items():
                try:
                    types, rows = read(path, columns[table])
                except Exception as error:  # noqa: BLE001 - a reader's failure is a failed check
                    checks.check(False, f"{reader} {what}: cannot read {path}: {error}")
                    continue
                check_types(checks, reader, what, columns[table], types)
                check_rows(checks, reader, what, rows, want(ndjson, table))
        # Two jobs (rows spooled across threads) and one write the same bytes.
        for table in TABLES:
            for codec in CODECS:
                a = f"{work}/fleet-single/{table}.{codec}.parquet"
                b = f"{work}/fleet-single/{table}.{codec}.jobs1.parquet"
                with open(a, "rb") as fa, open(b, "rb") as fb:
                    checks.check(fa.read() == fb.read(), f"fleet {table} {codec}: --jobs 2 and --jobs 1 differ")
        # The long session: several row groups, several pages in a column chunk.
        import pyarrow.parquet as pq

        meta = pq.ParquetFile(f"{work}/long/events.gzip.parquet").metadata
        with open(f"{work}/long/row-groups") as f:
            least = int(f.read())
        checks.check(meta.num_row_groups >= least, f"long events: {meta.num_row_groups} row groups, expected {least}+")
        pages = meta.row_group(0).column(5).total_uncompressed_size
        checks.check(least < 2 or pages > 1 << 20, f"long events: a seq chunk of {pages} bytes, expected pages")
        # Hive partitioning through pyarrow's dataset API.
        import pyarrow as pa
        import pyarrow.dataset as ds

        for table in TABLES:
            for codec in CODECS:
                what = f"fleet {table} {codec} dataset"
                partitioning = ds.partitioning(pa.schema([("build", pa.string())]), flavor="hive")
                dataset = ds.dataset(f"{work}/fleet-{codec}/{table}", format="parquet", partitioning=partitioning)
                got = dataset.to_table()
                checks.check(
                    got.schema.field("build").type == pa.string(), f"{what}: build is {got.schema.field('build').type}"
                )
                _, rows = pyarrow_rows(got.select([c["name"] for c in columns[table]]), columns[table], pa)
                check_rows(checks, "pyarrow", what, rows, want(f"{work}/fleet-single/{table}.ndjson", table), False)
    else:
        spark = spark_session()
        # The fleet's one-file exports hold the rows of its datasets, which Spark reads below.
        # Spark reads the gzip files of every table (the uncompressed ones differ only in the pages'
        # codec, and pyarrow, fastparquet and DuckDB read both): each read is a few Spark jobs, and
        # both codecs made this step half of CI's time on a two-core machine.
        cases = [
            case for case in single_files(work) if not case[0].startswith("fleet ") and not case[0].endswith(" none")
        ]
        for table in TABLES:
            cases.append((f"fleet {table} gzip dataset", table, f"{work}/fleet-gzip/{table}",
                          f"{work}/fleet-single/{table}.ndjson"))
        for what, table, path, ndjson in cases:
            started = time.monotonic()
            reader = spark.read.option("basePath", path) if os.path.isdir(path) else spark.read
            frame = reader.parquet(path)
            check_types(checks, "spark", what, columns[table], dict(frame.dtypes))
            # The long session and the fleet's datasets: the JVM's comparison alone. Their JSON cells
            # are compared by pyarrow, fastparquet and DuckDB (the datasets by pyarrow's dataset API);
            # collecting them into Python took 400 of Spark's 580 s.
            jvm_only = what.startswith("long ") or what.endswith(" dataset")
            expected_rows = None if jvm_only else want(ndjson, table)
            spark_compare(checks, spark, what, frame, ndjson, columns[table], expected_rows)
            print(f"spark: {what} ({time.monotonic() - started:.1f} s)", file=sys.stderr, flush=True)
        spark.stop()

    print(f"{checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
