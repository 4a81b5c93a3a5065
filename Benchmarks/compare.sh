#!/usr/bin/env bash
# Times the built command line on simulated journals of two shapes beside
# general-purpose peers reading the same files, in one invocation, and prints a
# table of medians and ratios per shape, then both shapes side by side. The
# shapes (Benchmarks/README.md): simulate's own (8 screens, ids cN) and a real
# app's churn (simulate --shape churn: 200 screens, ids Class#n, a new
# controller per modal presentation). On each shape:
#   - spatial-replay: check, check --model, stats, export --table visits, cat,
#     check of a legacy journal (its findings to a file), trace --format otlp to
#     a file, simulate, record,
#     diff of two runs, at SEQ and map --at SEQ in the middle and at the end of the
#     journal (from the point index, which the warm-up run builds, and once with
#     the index turned off), step's scripted run (open, first screen, quit);
#   - DuckDB (from PyPI, in a virtual environment of its own), 2 threads: the
#     baseline is the aggregate query a user would write (every column read and
#     aggregated: count(*), max(seq), count(controller) ... over read_json with
#     union_by_name); beside it, labelled, read_json of the whole journal into a
#     table (CTAS, the old baseline). The queries' times are measured inside
#     Python, so the interpreter's start-up is not counted;
#   - Python's json.loads on every line (timed inside Python as well);
#   - jq -c . over the file (a whole process, like ours).
# record's scenario follows the shape: two controllers and pans back and forth
# (simple), or 200 screens in a row with a new modal presented and dismissed at
# every step (churn), and check of the journal it writes is timed beside it; then
# record of the script `script` writes of the simulated journal (an app's inputs: the
# pans' numbers, the waits, a new id for each modal), beside check of what it wrote.
# Each row is the median of --runs runs after one warm-up (Python's loop and jq,
# the slow ones, at most 3). Whole processes are timed from outside: wall time,
# CPU time (user + system) and peak resident memory, from wait4(2).
#
# Usage: Benchmarks/compare.sh [--runs N] [--events N] [--shapes "simple churn"] [--bin PATH] [--before PATH]
#   --bin PATH     the spatial-replay to time (default: a release build of this checkout)
#   --before PATH  another build to time run by run beside it (e.g. one of main kept
#                  from before a change): adds its medians and the ratio after/before
#   --shapes LIST  the shapes to run, of simple and churn (default both)
#
# It needs python3 with venv (or pip) and jq; a peer that is missing is skipped
# and said so. The journals go to a temporary directory, removed at the end.
set -euo pipefail
source "$(dirname "$0")/common.sh"
cd "$root"

runs=5
events=1000000
bin=""
before=""
shapes="simple churn"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --events) events="$2"; shift 2 ;;
    --bin) bin="$2"; shift 2 ;;
    --before) before="$2"; shift 2 ;;
    --shapes) shapes="$2"; shift 2 ;;
    -h|--help) sed -n '2,36p' "$0"; exit 0 ;;
    *) echo "compare.sh: unknown option $1" >&2; exit 64 ;;
  esac
done

if [[ -z "$bin" ]]; then
  bin="$(release_binary)"
fi

work="$(mktemp -d /tmp/spatial-replay-compare-XXXXXX)"
trap 'rm -rf "$work"' EXIT

# DuckDB from PyPI in its own virtual environment (as .ci/duckdb_interop.sh installs it).
venv="${DUCKDB_VENV:-/tmp/spatial-replay-duckdb-venv}"
python="$venv/bin/python"
if ! "$python" -c 'import duckdb' 2>/dev/null; then
  if python3 -m venv "$venv" 2>/dev/null && "$python" -m pip install --quiet duckdb 2>/dev/null; then
    :
  else
    python="python3"
  fi
fi

for shape in $shapes; do
  case "$shape" in
    simple) shape_options=() ;;
    churn) shape_options=(--shape churn) ;;
    *) echo "compare.sh: unknown shape $shape (simple or churn)" >&2; exit 64 ;;
  esac
  dir="$work/$shape"
  mkdir -p "$dir"
  echo "generating $shape journals of $events events in $dir ..." >&2
  "$bin" simulate "${shape_options[@]}" --events "$events" --seed 7 -o "$dir/run.ndjson"
  "$bin" simulate "${shape_options[@]}" --events "$events" --seed 7 --profile legacy -o "$dir/legacy.ndjson"
  # A second run of the same session with regressions: every 4000th lifecycle
  # callback missing and every 4000th (offset by 2000) swapped with the next one.
  "$python" - "$dir/run.ndjson" "$dir/run-b.ndjson" <<'EOF'
import re, sys
lines = open(sys.argv[1]).read().split("\n")[:-1]
out, i, n = [], 0, 0
while i < len(lines):
    line = lines[i]
    if '"type":"lifecycle"' in line:
        n += 1
        if n % 4000 == 0:
            i += 1
            continue
        if n % 4000 == 2000 and i + 1 < len(lines) and '"type":"lifecycle"' in lines[i + 1]:
            a, b = line, lines[i + 1]
            pa, pb = a.index('"type"'), b.index('"type"')
            out += [a[:pa] + b[pb:], b[:pb] + a[pa:]]
            i += 2
            continue
    out.append(line)
    i += 1
with open(sys.argv[2], "w") as f:
    for k, line in enumerate(out):
        f.write(re.sub(r'^\{"seq":\d+', '{"seq":%d' % k, line) + "\n")
EOF
  if [[ "$shape" == simple ]]; then
    # About $events events: two controllers and a pan back and forth (6 events each).
    {
      echo 'session id=BENCH app=Bench'
      echo 'controller list ListViewController'
      echo 'controller editor EditorViewController'
      echo 'root list'
      echo 'link list right editor'
      for ((k = 0; k < events / 12; k++)); do
        echo 'pan right distance=120 velocity=300'
        echo 'pan left distance=120 velocity=300'
      done
    } > "$dir/run.scenario"
  else
    # About $events events: 200 screens in a row (ids Class#n); at each step a new
    # modal is presented below the screen and dismissed (deallocated when its
    # presenter reappears), then a pan moves on to the next screen (22 events a step).
    "$python" - "$events" > "$dir/run.scenario" <<'EOF'
import sys
events, screens = int(sys.argv[1]), 200
name = lambda i: f'"Screen{i}ViewController#1"'
print("session id=BENCH app=Bench")
for i in range(screens):
    print(f"controller {name(i)} Screen{i}ViewController")
print(f"root {name(0)}")
for i in range(screens - 1):
    print(f"link {name(i)} right {name(i + 1)}")
position, step = 0, 1
for k in range(max(1, (events - 3 * screens) // 22)):
    print(f'modal "ComposeViewController#{k + 1}" ComposeViewController down')
    print("move up")
    if not 0 <= position + step < screens:
        step = -step
    print(f"pan {'right' if step > 0 else 'left'} distance=120 velocity=300")
    position += step
EOF
  fi
  "$bin" record "$dir/run.scenario" > "$dir/recorded.ndjson"
  # An app's script: every input of the simulated session (its pans' distances and velocities, the
  # waits between inputs, each new modal's id, marks, goToRoot walks) as `script` writes it.
  "$bin" script "$dir/run.ndjson" > "$dir/app.scenario" 2>/dev/null
  "$bin" record "$dir/app.scenario" > "$dir/app-recorded.ndjson"
done

exec "$python" - "$bin" "$before" "$work" "$runs" "$events" $shapes <<'EOF'
import json, os, statistics, shutil, subprocess, sys, time

bin, before, work, runs, events = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
shapes = sys.argv[6:]
middle, last = str(events // 2), str(events - 1)

def process(argv, stdout, env=None):
    """Runs one process; returns (wall s, cpu s, peak MB)."""
    with open(stdout, "wb") as out:
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdout=out, stderr=subprocess.DEVNULL, env=env)
        _, _, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024

def median_of(samples):
    return tuple(statistics.median(s[k] for s in samples) for k in range(3))

def measure(shape):
    """Times the commands on the shape's journals (before the peers: Python's own memory,
    DuckDB's once loaded, would be every child's peak too)."""
    dir = f"{work}/{shape}"
    run, legacy, run_b = f"{dir}/run.ndjson", f"{dir}/legacy.ndjson", f"{dir}/run-b.ndjson"
    shape_options = ["--shape", "churn"] if shape == "churn" else []
    # The point index of at and map goes to the work directory (removed at the end), not the user's cache.
    os.environ["SPATIAL_REPLAY_INDEX"] = f"{work}/index-{shape}"
    commands = [
        ("check", ["check", run], "/dev/null"),
        ("check --model", ["check", "--model", run], "/dev/null"),
        ("stats", ["stats", run], "/dev/null"),
        ("export --table visits", ["export", "--table", "visits", run], "/dev/null"),
        ("cat", ["cat", run], "/dev/null"),
        ("check legacy > file", ["check", legacy], f"{dir}/findings.txt"),
        ("trace --format otlp -o FILE", ["trace", "--format", "otlp", "-o", f"{dir}/trace.otlp.json", run], "/dev/null"),
        (f"simulate --events {events}", ["simulate", *shape_options, "--events", str(events), "--seed", "7"], "/dev/null"),
        ("record (its scenario)", ["record", f"{dir}/run.scenario"], "/dev/null"),
        ("check of what record wrote", ["check", f"{dir}/recorded.ndjson"], "/dev/null"),
        ("record (the journal's own script)", ["record", f"{dir}/app.scenario"], "/dev/null"),
        ("check of what record wrote (script)", ["check", f"{dir}/app-recorded.ndjson"], "/dev/null"),
        ("diff A B", ["diff", run, run_b], "/dev/null"),
        (f"at FILE {middle}", ["at", run, middle], "/dev/null"),
        (f"map --at {middle}", ["map", "--at", middle, run], "/dev/null"),
        (f"at FILE {last}", ["at", run, last], "/dev/null"),
        (f"at FILE {middle}, index off", ["at", run, middle], "/dev/null", {"SPATIAL_REPLAY_INDEX": "off"}),
        ("step --keys q (open, first screen, quit)", ["step", "--keys", "q", run], "/dev/null"),
    ]

    rows = []  # (name, (wall, cpu, mb), before (wall, cpu, mb) or None)
    for name, args, stdout, *extra in commands:
        env = dict(os.environ, **extra[0]) if extra else None
        after_samples, before_samples = [], []
        for k in range(runs + 1):
            a = process([bin] + args, stdout, env)
            b = process([before] + args, stdout, env) if before else None
            if k == 0:
                continue  # warm-up
            after_samples.append(a)
            if b:
                before_samples.append(b)
        rows.append((name, median_of(after_samples), median_of(before_samples) if before else None))
        print(f"  timed {name}", file=sys.stderr)

    return rows


# DuckDB's baseline: every column read and aggregated, as a user answering "how many events,
# controllers, callbacks ... and the last seq and time" would write it.
AGGREGATE = """SELECT count(*), max(seq), count(controller), count(callback), count(direction), sum(distance),
max(time), count("from"), count("to"), count(trigger), count(outcome), count(class)
FROM read_json('{run}', format='newline_delimited', union_by_name=true)"""

def peers_of(shape):
    run = f"{work}/{shape}/run.ndjson"
    peers = []
    duck = None
    try:
        import duckdb
        con = duckdb.connect()
        con.execute("SET threads = 2")
        def timed(sql):
            samples = []
            for k in range(runs + 1):
                start = time.perf_counter()
                con.execute(sql).fetchall()
                if k > 0:
                    samples.append(time.perf_counter() - start)
            return statistics.median(samples)
        # The baseline: the query a user would write to answer what check reads (every
        # column read and aggregated), not a table materialized first.
        duck = timed(AGGREGATE.format(run=run))
        peers.append((f"DuckDB {duckdb.__version__} aggregate query (2 thr.)", duck))
        ctas = timed(f"CREATE OR REPLACE TABLE t AS SELECT * FROM read_json('{run}', format = 'newline_delimited')")
        columns = len(con.execute("SELECT * FROM t LIMIT 0").description)
        peers.append((f"DuckDB CTAS read_json ({columns} cols; old baseline)", ctas))
    except ImportError:
        print("DuckDB is not installed: its rows are skipped", file=sys.stderr)

    samples = []
    for k in range(min(runs, 3) + 1):
        start = time.perf_counter()
        with open(run, "rb") as f:
            for line in f:
                json.loads(line)
        if k > 0:
            samples.append(time.perf_counter() - start)
    peers.append(("Python json.loads per line", statistics.median(samples)))

    if shutil.which("jq"):
        samples = [process(["jq", "-c", ".", run], "/dev/null") for _ in range(min(runs, 3) + 1)][1:]
        peers.append(("jq -c . (whole process)", median_of(samples)[0]))
    else:
        print("jq is not installed: its row is skipped", file=sys.stderr)

    return peers, duck


def show(shape, rows, peers, duck):
    run = f"{work}/{shape}/run.ndjson"
    size = os.path.getsize(run) / 1e6
    print(f"\n{shape} shape: {events:,} events, {size:.1f} MB; medians of {runs} runs (Python's loop and jq: {min(runs, 3)})")
    head = f"{'work':<44} {'wall s':>8} {'CPU s':>7} {'peak MB':>8} {'/DuckDB':>8}"
    if before:
        head += f" {'before s':>9} {'after/before':>13}"
    print(head)
    print("-" * len(head))
    for name, (wall, cpu, mb), old in rows:
        line = f"{name:<44} {wall:8.3f} {cpu:7.3f} {mb:8.1f} {wall / duck if duck else float('nan'):8.2f}"
        if old:
            line += f" {old[0]:9.3f} {wall / old[0]:13.2f}"
        print(line)
    for name, wall in peers:
        print(f"{name:<44} {wall:8.3f} {'':>7} {'':>8} {wall / duck if duck else float('nan'):8.2f}")

timed = {shape: measure(shape) for shape in shapes}
results = {}
for shape in shapes:
    peers, duck = peers_of(shape)
    show(shape, timed[shape], peers, duck)
    results[shape] = (timed[shape], duck)
print("\n/DuckDB: wall time over DuckDB's aggregate query (every column read and aggregated) over the same file in this run.")
if len(shapes) > 1:
    print("\nBoth shapes side by side: wall-time ratios of this run (/check: over check of the same journal;")
    print("for record, over check of the journal it wrote)")
    head = f"{'work':<44}"
    for shape in shapes:
        head += f" {shape + ' /DuckDB':>15} {'/check':>7}" + (f" {'after/before':>13}" if before else "")
    print(head)
    print("-" * len(head))
    names = [name for name, _, _ in results[shapes[0]][0]]
    for i, name in enumerate(names):
        line = f"{name:<44}"
        for shape in shapes:
            rows, duck = results[shape]
            _, (wall, _, _), old = rows[i]
            check = rows[i + 1][1][0] if name.startswith("record") else rows[0][1][0]
            line += f" {wall / duck if duck else float('nan'):15.2f} {wall / check:7.2f}"
            if before:
                line += f" {wall / old[0]:13.2f}"
        print(line)
EOF
