#!/usr/bin/env python3
"""spatial-replay over a fleet of journals on Apache Spark.

Reads journals with ``binaryFiles`` (local paths, HDFS, S3, anything Spark
reads), spreads them over the executors, and on each runs the
``spatial-replay`` binary (shipped to the executors with ``SparkFiles``) once
per table, streaming the journal to its standard input (``export --table T -``;
the binary detects gzip itself). The rows become DataFrames with the explicit
schemas of ``export --schema``, written as Parquet partitioned by build:

    OUT/findings/build=.../part-*.parquet
    OUT/sessions/build=.../part-*.parquet
    OUT/visits/build=.../part-*.parquet
    OUT/errors/part-*.parquet      (one row per journal the binary failed on)

then the findings per build and rule are printed.

Command line (python or spark-submit):

    python3 Integrations/spark/fleet.py --binary PATH --out DIR JOURNAL_OR_FOLDER...
    spark-submit --master yarn --files /opt/bin/spatial-replay Integrations/spark/fleet.py \\
        --binary spatial-replay --out hdfs:///fleet/out hdfs:///fleet/journals

As a module: ``fleet.run(spark, binary, paths, out)`` returns the DataFrames.

Exit statuses of the binary: 0 and 1 (findings) are data. Any other status
becomes a row of ``errors`` (path, status, the first line of its standard
error): with 2 (the journal has lines that do not decode, or cannot be read)
the rows of its good lines are kept, as the command line keeps them; with
anything else (a crash, a usage error) the journal's rows are left out. No
journal is dropped silently: the job exits with status 2 when there are errors.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

TABLES = ("findings", "sessions", "visits")

#: What the command line takes from a directory: journals, plain or gzip-compressed.
JOURNAL_SUFFIXES = (".ndjson", ".jsonl", ".ndjson.gz", ".jsonl.gz")

ERRORS_SCHEMA = "`path` string, `table` string, `status` int, `message` string"


def schema(binary, table):
    """The table's columns, as ``export --schema TABLE`` prints them."""
    out = subprocess.run([binary, "export", "--schema", table], check=True, capture_output=True)
    return json.loads(out.stdout)["columns"]


def ddl(columns):
    """A Spark DDL schema string: ``\\`session\\` string, ...``."""
    return ", ".join(f"`{c['name']}` {c['spark']}" for c in columns)


def is_journal(path):
    return path.endswith(JOURNAL_SUFFIXES)


def local_path(uri):
    """`/data/j.ndjson` for Spark's `file:/data/j.ndjson`; other URIs as they are."""
    return uri[len("file:"):] if uri.startswith("file:/") else uri


def executable(name):
    """The binary on this executor: the file shipped with SparkFiles, made executable."""
    from pyspark import SparkFiles

    path = SparkFiles.get(name)
    if not os.access(path, os.X_OK):
        os.chmod(path, os.stat(path).st_mode | 0o755)
    return path


def export_journal(binary, path, data, tables=TABLES):
    """Runs ``export --table T -`` on one journal's bytes for each table.

    Yields ``(table, line)`` for each row (the ``file`` column set to the
    journal's path) and ``("error", json)`` for each run that failed.
    """
    file_key = b',"file":"-",'
    file_value = b',"file":' + json.dumps(path).encode() + b","
    for table in tables:
        run = subprocess.run([binary, "export", "--table", table, "-"], input=data, capture_output=True)
        if run.returncode not in (0, 1):
            lines = run.stderr.decode("utf-8", "replace").strip().splitlines()
            message = lines[0] if lines else f"exit status {run.returncode}, nothing on stderr"
            yield "error", json.dumps({"path": path, "table": table, "status": run.returncode, "message": message})
            if run.returncode != 2:
                continue
        for line in run.stdout.splitlines():
            # The first `,"file":"-",` is the key: inside a JSON string every `"` is escaped.
            yield table, line.replace(file_key, file_value, 1).decode("utf-8")


def configure(spark):
    """Settings every run needs, whoever made the session."""
    # Partition folders are read back as strings: `build=1` stays "1", not an integer.
    spark.conf.set("spark.sql.sources.partitionColumnTypeInference.enabled", "false")
    # A folder of journals is read with its subfolders.
    spark.sparkContext._jsc.hadoopConfiguration().set(
        "mapreduce.input.fileinputformat.input.dir.recursive", "true"
    )


def run(spark, binary, paths, out, tables=TABLES, partitions=None):
    """Exports the journals under ``paths`` and writes the tables under ``out``.

    Returns ``{table: DataFrame}`` (the rows as read back from the Parquet
    written) and the ``errors`` DataFrame.
    """
    configure(spark)
    sc = spark.sparkContext
    if __name__ != "__main__":
        # Imported as a module: the functions below reach the Python workers by reference
        # (`fleet.export_journal`), so the workers need this file to import.
        sc.addPyFile(os.path.abspath(__file__))
    name = os.path.basename(binary)
    if os.path.exists(binary) or "://" in binary:
        try:
            sc.addFile(binary)
        except Exception as error:  # the same file already shipped (spark-submit --files): fine
            if "already" not in str(error):
                raise
    local = binary if os.path.exists(binary) else executable(name)
    schemas = {table: schema(local, table) for table in tables}

    minimum = partitions or max(2, sc.defaultParallelism * 4)
    # Below a folder, the journals by their names (as the command line takes them); a file named
    # on the command line, whatever its name.
    named = {local_path(p) for p in paths}
    journals = sc.binaryFiles(",".join(paths), minPartitions=minimum).filter(
        lambda pair: is_journal(pair[0]) or local_path(pair[0]) in named
    )
    if partitions or journals.getNumPartitions() < minimum:
        journals = journals.repartition(minimum)

    def export_partition(pairs):
        binary_here = executable(name)
        for path, data in pairs:
            yield from export_journal(binary_here, path, bytes(data), tables)

    rows = journals.mapPartitions(export_partition).cache()
    frames = {}
    try:
        for table in tables:
            lines = rows.filter(lambda pair, t=table: pair[0] == t).map(lambda pair: pair[1])
            # FAILFAST: a row that does not fit the schema stops the job instead of becoming nulls.
            frame = spark.read.schema(ddl(schemas[table])).option("mode", "FAILFAST").json(lines)
            target = f"{out.rstrip('/')}/{table}"
            frame.write.mode("overwrite").partitionBy("build").parquet(target)
            frames[table] = spark.read.schema(ddl(schemas[table])).parquet(target)
        errors = spark.read.schema(ERRORS_SCHEMA).json(
            rows.filter(lambda pair: pair[0] == "error").map(lambda pair: pair[1])
        )
        errors.write.mode("overwrite").parquet(f"{out.rstrip('/')}/errors")
        errors = spark.read.schema(ERRORS_SCHEMA).parquet(f"{out.rstrip('/')}/errors")
    finally:
        rows.unpersist()
    return frames, errors


def findings_by_build_and_rule(findings):
    """``[(build, rule, count)]``, by build (null first) and rule."""
    grouped = findings.groupBy("build", "rule").count().orderBy("build", "rule").collect()
    return [(row["build"], row["rule"], row["count"]) for row in grouped]


def dwell_by_build_and_controller(visits):
    """``[(build, controller, visits, dwell in microseconds)]``: sums of whole microseconds, exact."""
    from pyspark.sql import functions as F

    grouped = (
        visits.groupBy("build", "controller")
        .agg(F.count("*").alias("visits"), F.sum(F.round(F.col("dwell_ms") * 1000).cast("bigint")).alias("dwell_us"))
        .orderBy("build", "controller")
        .collect()
    )
    return [(row["build"], row["controller"], row["visits"], row["dwell_us"]) for row in grouped]


#: Spark's own logging: errors only, on stderr (its default is INFO, then WARN once started).
LOG4J2 = """\
rootLogger.level = error
rootLogger.appenderRef.stderr.ref = stderr
appender.console.type = Console
appender.console.name = stderr
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n
"""


def session(master, temporary):
    """A SparkSession for the command line, with the pitfalls handled."""
    # Executors start Python workers with PYSPARK_PYTHON: without it they take `python3`
    # from the PATH, which may lack pyspark or be another version than the driver's.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    # Shuffle and block files in the temporary folder (as SPARK_LOCAL_DIRS: spark.local.dir
    # is overridden by it, and warns).
    os.environ.setdefault("SPARK_LOCAL_DIRS", temporary)
    if master and master.startswith("local"):
        # Alone on this machine: no warning about the host name resolving to a loopback address.
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    log4j = os.path.join(temporary, "log4j2.properties")
    with open(log4j, "w") as file:
        file.write(LOG4J2)
    java = f"-Djava.io.tmpdir={temporary} -Dlog4j2.configurationFile=file:{log4j}"
    from pyspark.sql import SparkSession

    builder = SparkSession.builder if master is None else SparkSession.builder.master(master)
    spark = (
        builder.appName("spatial-replay fleet")
        # The JVM's own temporary files in the same folder, removed at the end; Spark's logs quiet.
        .config("spark.driver.extraJavaOptions", java)
        .config("spark.executor.extraJavaOptions", java)
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.ui.enabled", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Run spatial-replay over journals on Spark; write findings, sessions and visits as Parquet."
    )
    parser.add_argument("--binary", required=True, help="the spatial-replay executable (a static build ships best)")
    parser.add_argument("--out", required=True, help="output folder (local, hdfs://, s3a://...)")
    parser.add_argument("--master", default=None, help="Spark master (default: spark-submit's, else local[*])")
    parser.add_argument("--partitions", type=int, default=None, help="tasks to spread the journals over")
    parser.add_argument("paths", nargs="+", metavar="JOURNAL_OR_FOLDER")
    args = parser.parse_args(argv)

    temporary = tempfile.mkdtemp(prefix="spatial-replay-spark-")
    try:
        # Under spark-submit (which hands the driver a gateway port) its --master holds.
        submitted = "PYSPARK_GATEWAY_PORT" in os.environ
        spark = session(args.master or (None if submitted else "local[*]"), temporary)
        paths = [os.path.abspath(p) if "://" not in p and os.path.exists(p) else p for p in args.paths]
        binary = os.path.abspath(args.binary) if os.path.exists(args.binary) else args.binary
        frames, errors = run(spark, binary, paths, args.out, partitions=args.partitions)
        print("build\trule\tfindings")
        for build, rule, count in findings_by_build_and_rule(frames["findings"]):
            print(f"{build if build is not None else '(none)'}\t{rule}\t{count}")
        sessions = frames["sessions"].count()
        failed = errors.collect()
        print(f"{sessions} journals, {len(failed)} errors", file=sys.stderr)
        for row in failed:
            print(f"{row['path']}: {row['table']}: exit status {row['status']}: {row['message']}", file=sys.stderr)
        spark.stop()
        return 2 if failed else 0
    finally:
        shutil.rmtree(temporary, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
