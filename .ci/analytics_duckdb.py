"""paths, funnel and latency against DuckDB SQL over the exported tables.

Usage: python analytics_duckdb.py BINARY WORKDIR INPUT...   (each INPUT a file or folder)

For each input set: export the paths, visits, events, moves and sessions tables
as NDJSON, compute top paths (K = 2 and 3, by class and by controller; K = 2
per build, as `paths --by KEY,build` splits them), a funnel over three frequent
screens, and the latency percentiles (nearest rank: quantile_disc; p50, p90,
p99 and, as `--percentiles 50,95,99` asks, p95) in SQL, and compare them with
the commands' --json output.
Prints 'N passed, M failed' and exits 1 on any disagreement.
"""
import json
import subprocess
import sys

import duckdb

binary, work, inputs = sys.argv[1], sys.argv[2], sys.argv[3:]
passed = failed = 0


def run(*args):
    result = subprocess.run([binary, *args], capture_output=True, text=True)
    if result.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)}: exit {result.returncode}: {result.stderr[:500]}")
    return result.stdout


def check(name, ours, theirs):
    global passed, failed
    if ours == theirs:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {name}\n  ours:   {str(ours)[:600]}\n  duckdb: {str(theirs)[:600]}")


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) < 1e-6


for index, source in enumerate(inputs):
    tables = {}
    for table in ("paths", "visits", "events", "moves", "sessions"):
        out = f"{work}/t{index}-{table}.ndjson"
        run("export", "--table", table, "-o", out, source)
        tables[table] = out
    con = duckdb.connect()
    for table, path in tables.items():
        con.execute(f"create table {table} as select * from read_json('{path}', format='newline_delimited')")
    label = source
    for key, column in (("class", "coalesce(class, controller)"), ("controller", "controller")):
        con.execute(f"create or replace view seq as select session, file, step, time, {column} as screen from paths")
        for k in (2, 3):
            leads = ", ".join(f"lead(screen, {j}) over w as s{j}" for j in range(1, k))
            cols = ", ".join(["screen"] + [f"s{j}" for j in range(1, k)])
            rows = con.execute(
                f"""select [{cols}] as path, count(*) as n, count(distinct session) as sessions
                from (select session, screen, {leads} from seq window w as (partition by file order by step))
                where s{k - 1} is not null group by all"""
            ).fetchall()
            theirs = sorted(
                ((list(p), n, s) for p, n, s in rows),
                key=lambda r: (-r[1], -r[2], [x.encode() for x in r[0]]),
            )
            ours = [
                (e["path"], e["count"], e["sessions"])
                for e in json.loads(run("paths", "--steps", str(k), "--by", key, "--top", "0", "--json", source))["paths"]
            ]
            check(f"{label}: paths --steps {k} --by {key} ({len(ours)} paths)", ours, theirs)

        # paths --by KEY,build: each build's paths are those of its sessions (the sessions table's build).
        rows = con.execute(
            """select s.build, [a.screen, a.s1] as path, count(*) as n, count(distinct a.session) as sessions
            from (select file, session, screen, lead(screen, 1) over w as s1 from seq
                  window w as (partition by file order by step)) a
            join sessions s on s.file = a.file where a.s1 is not null group by all"""
        ).fetchall()
        theirs = {}
        for build, p, n, s in rows:
            theirs.setdefault(build, []).append((list(p), n, s))
        theirs = {b: sorted(v, key=lambda r: (-r[1], -r[2], [x.encode() for x in r[0]])) for b, v in theirs.items()}
        grouped = json.loads(run("paths", "--steps", "2", "--by", f"{key},build", "--top", "0", "--json", source))
        ours = {
            g["key"]["build"]: [(e["path"], e["count"], e["sessions"]) for e in g["paths"]]
            for g in grouped["groups"] if g["paths"]
        }
        check(f"{label}: paths --steps 2 --by {key},build ({len(ours)} builds)", ours, theirs)

        # A funnel over the three screens most often arrived at, greedy in step order.
        top = [r[0] for r in con.execute("select screen from seq group by screen order by count(*) desc, screen limit 3").fetchall()]
        if len(top) == 3:
            a, b, c = top[2], top[0], top[1]
            rows = con.execute(
                """with f1 as (select file, session, min(step) as s1 from seq where screen = ? group by all),
                f2 as (select f1.*, (select min(step) from seq where seq.file = f1.file and screen = ? and step > s1) as s2 from f1),
                f3 as (select f2.*, (select min(step) from seq where seq.file = f2.file and screen = ? and step > s2) as s3 from f2),
                t as (select f3.*, (select time from seq where seq.file = f3.file and step = s1) as t1,
                  (select time from seq where seq.file = f3.file and step = s2) as t2,
                  (select time from seq where seq.file = f3.file and step = s3) as t3 from f3)
                select count(distinct session), count(distinct session) filter (where s2 is not null),
                  count(distinct session) filter (where s3 is not null),
                  quantile_disc(epoch_us(t2) - epoch_us(t1), 0.5) filter (where s2 is not null),
                  quantile_disc(epoch_us(t3) - epoch_us(t2), 0.5) filter (where s3 is not null) from t""",
                [a, b, c],
            ).fetchall()[0]
            result = json.loads(run("funnel", "--steps", f"{a},{b},{c}", "--by", key, "--json", source))
            ours = [s["sessions"] for s in result["steps"]] + [
                round(s["medianMsFromPrevious"] * 1000) if s["medianMsFromPrevious"] is not None else None
                for s in result["steps"][1:]
            ]
            check(f"{label}: funnel {a},{b},{c} --by {key}", ours, list(rows))

        # Latency: dwell from visits, first arrival from paths and sessions, appearance from events.
        visit_screen = "coalesce(class, controller)" if key == "class" else "controller"
        dwell = {
            r[0]: r[1:]
            for r in con.execute(
                f"""select {visit_screen}, count(*), quantile_disc(dwell_ms, 0.5), quantile_disc(dwell_ms, 0.9),
                quantile_disc(dwell_ms, 0.99), max(dwell_ms) from visits group by all"""
            ).fetchall()
        }
        first = {
            r[0]: r[1:]
            for r in con.execute(
                """with f as (select p.file, p.screen, epoch_us(min(p.time)) - epoch_us(any_value(s.start_time)) as us
                from seq p join sessions s on s.file = p.file group by p.file, p.screen)
                select screen, count(*), quantile_disc(us, 0.5) / 1000, quantile_disc(us, 0.9) / 1000,
                quantile_disc(us, 0.99) / 1000, max(us) / 1000 from f group by all"""
            ).fetchall()
        }
        # A transition starts at each move with a row in moves and at the initial display (step 1);
        # a didAppear is timed from the last willAppear of its controller in the same transition,
        # unless another didAppear of that controller came in between.
        ev_screen = "coalesce(a.class, e.controller)" if key == "class" else "e.controller"
        appear = {
            r[0]: r[1:]
            for r in con.execute(
                f"""with b as (select file, seq from moves union select file, seq from paths where step = 1),
                cls as (select file, controller, any_value(class) as class from events where type = 'alloc' group by all),
                d as (select e.file, e.seq, e.time, e.controller, {ev_screen} as screen,
                  (select max(b.seq) from b where b.file = e.file and b.seq <= e.seq) as start
                  from events e left join cls a on a.file = e.file and a.controller = e.controller
                  where e.type = 'lifecycle' and e.callback = 'didAppear'),
                w as (select d.*, (select max(x.seq) from events x where x.file = d.file and x.controller = d.controller
                  and x.type = 'lifecycle' and x.callback = 'willAppear' and x.seq < d.seq and x.seq >= d.start) as wseq from d),
                t as (select w.*, (select epoch_us(w.time) - epoch_us(x.time) from events x where x.file = w.file and x.seq = w.wseq) as us
                  from w where wseq is not null and not exists (select 1 from events y where y.file = w.file
                  and y.controller = w.controller and y.type = 'lifecycle' and y.callback = 'didAppear' and y.seq > w.wseq and y.seq < w.seq))
                select screen, count(*), quantile_disc(us, 0.5) / 1000, quantile_disc(us, 0.9) / 1000,
                quantile_disc(us, 0.99) / 1000, max(us) / 1000 from t group by all"""
            ).fetchall()
        }
        ours = json.loads(run("latency", "--by", key, "--json", source))["screens"]
        bad = []
        for entry in ours:
            screen = entry["screen"]
            for name, reference in (("dwell", dwell), ("firstArrival", first), ("appearance", appear)):
                m = entry[name]
                ref = reference.get(screen)
                mine = (m["count"], m["p50"], m["p90"], m["p99"], m["max"])
                if ref is None:
                    ok = m["count"] == 0
                else:
                    ok = mine[0] == ref[0] and all(close(x, y) for x, y in zip(mine[1:], ref[1:]))
                if not ok:
                    bad.append((screen, name, mine, ref))
        screens = {e["screen"] for e in ours}
        missing = [s for s in list(dwell) + list(first) + list(appear) if s not in screens]
        check(f"{label}: latency --by {key} ({len(ours)} screens)", (bad[:3], missing[:3]), ([], []))

        # latency --percentiles 50,95,99: the dwell's percentiles as asked.
        asked = {
            r[0]: r[1:]
            for r in con.execute(
                f"""select {visit_screen}, count(*), quantile_disc(dwell_ms, 0.5), quantile_disc(dwell_ms, 0.95),
                quantile_disc(dwell_ms, 0.99), max(dwell_ms) from visits group by all"""
            ).fetchall()
        }
        ours = json.loads(run("latency", "--by", key, "--percentiles", "50,95,99", "--json", source))["screens"]
        bad = []
        for entry in ours:
            m = entry["dwell"]
            mine = (m["count"], m["p50"], m["p95"], m["p99"], m["max"])
            ref = asked.get(entry["screen"])
            ok = m["count"] == 0 if ref is None else mine[0] == ref[0] and all(close(x, y) for x, y in zip(mine[1:], ref[1:]))
            if not ok:
                bad.append((entry["screen"], mine, ref))
        check(f"{label}: latency --percentiles 50,95,99 --by {key} (dwell)", bad[:3], [])

# docs/analytics.md's SQL runs as written, over the fleet's tables under the names it uses.
import os
import re

docs = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "analytics.md")).read()
blocks = re.findall(r"```sql\n(.*?)```", docs, re.S)
os.makedirs(f"{work}/docs-sql", exist_ok=True)
for table in ("paths", "visits", "findings", "sessions"):
    run("export", "--table", table, "-o", f"{work}/docs-sql/{table}.ndjson", inputs[-1])
here = os.getcwd()
os.chdir(f"{work}/docs-sql")
con = duckdb.connect()
statements = [x.strip() for block in blocks for x in block.split(";") if x.strip()]
for statement in statements:
    try:
        con.execute(statement).fetchall()
        passed += 1
    except Exception as error:  # noqa: BLE001
        failed += 1
        print(f"FAIL docs/analytics.md SQL: {error}\n{statement[:300]}")
os.chdir(here)
check("docs/analytics.md has its five statements", len(statements), 5)

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
