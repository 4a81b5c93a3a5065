#!/usr/bin/env bash
# Runs the same matrix of commands with two spatial-replay binaries and prints every difference in stdout, stderr,
# exit status and written files: the proof that a refactoring changed no output. Every command and format, --help
# and --man, errors and exit statuses, on the bundled journals, app-shaped simulated ones (churn, 200 screens, a
# fleet) and broken ones. Run it with the build before a change and the build after:
#   Benchmarks/identical.sh /tmp/before/spatial-replay .build/release/spatial-replay [--big] [--keep DIR]
#   --big   also 1M-event journals of both shapes (slow with a debug binary: use release binaries)
# The last line says "identical: N cases" or "DIFFERENT: K of N cases".
set -u
REF=$(realpath "$1"); NEW=$(realpath "$2"); shift 2
BIG=0; KEEP=""
while [ $# -gt 0 ]; do case "$1" in --big) BIG=1;; --keep) KEEP=$2; shift;; esac; shift; done
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK=${KEEP:-$(mktemp -d /tmp/identical.XXXXXX)}
mkdir -p "$WORK/in"
IN=$WORK/in
# Inputs: the bundled journals, app-shaped simulated ones, hostile ones (made once with the reference binary).
cp "$ROOT"/Journals/*.ndjson "$ROOT"/Journals/*.scenario "$IN"/ 2>/dev/null
mkdir -p "$IN/bisect" && cp "$ROOT"/Journals/bisect/*.ndjson "$IN/bisect/"
if [ ! -s "$IN/churn.legacy.ndjson" ]; then
  "$REF" simulate --events 20000 --shape churn --profile legacy --seed 7 --build 41 --device phone > "$IN/churn.legacy.ndjson"
  "$REF" simulate --events 20000 --shape churn --seed 8 --build 42 --device tablet > "$IN/churn.intended.ndjson"
  "$REF" simulate --events 20000 --profile legacy --seed 3 --build 41 --device phone > "$IN/simple.legacy.ndjson"
  "$REF" simulate --events 3000 --shape churn --screens 200 --profile legacy --seed 11 > "$IN/screens.legacy.ndjson"
  { head -c 300000 "$IN/simple.legacy.ndjson"; printf '\n\n{"seq":\n   \n{"type":"move"}\r\nnot json\n'; tail -c 2000 "$IN/simple.legacy.ndjson"; printf '{"seq":99999999,"ty'; } > "$IN/broken.ndjson"
  printf '\xef\xbb\xbf' > "$IN/bom.ndjson"; head -n 200 "$IN/demo.legacy.ndjson" | sed 's/$/\r/' >> "$IN/bom.ndjson"
  mkdir -p "$IN/fleet" && cp "$IN/churn.legacy.ndjson" "$IN/churn.intended.ndjson" "$IN/simple.legacy.ndjson" "$IN/fleet/"
fi
if [ $BIG = 1 ] && [ ! -s "$IN/big.simple.ndjson" ]; then
  "$REF" simulate --events 1000000 --profile legacy --seed 5 --build 41 > "$IN/big.simple.ndjson"
  "$REF" simulate --events 1000000 --shape churn --profile legacy --seed 6 --build 42 > "$IN/big.churn.ndjson"
fi
J="demo.intended.ndjson demo.legacy.ndjson notes.intended.ndjson notes.legacy.ndjson cycle.legacy.ndjson gotoroot.legacy.ndjson cycle.intended.ndjson gotoroot.intended.ndjson churn.legacy.ndjson churn.intended.ndjson simple.legacy.ndjson screens.legacy.ndjson broken.ndjson bom.ndjson"
CASES=$WORK/cases.txt
{
  echo "--help"; echo "help --man"; echo "--version"; echo "nonsense-command"; echo "completion bash"; echo "completion zsh"; echo "completion fish"
  for c in check cat append record script shrink testgen diff bisect at map log step report stats paths funnel latency export trace simulate tail; do echo "$c --help"; done
  echo "check --bogus in/demo.legacy.ndjson"; echo "stats --format nope in/demo.legacy.ndjson"; echo "export --table nope in/demo.legacy.ndjson"
  for j in $J; do
    f=in/$j
    for fmt in text json sarif github junit; do echo "check --format $fmt $f"; done
    echo "check --model $f"; echo "check --model legacy --summary $f"; echo "check --strict --source-root Src --format sarif $f"; echo "check --color always $f"
    echo "cat $f"; echo "cat --replayable --from 40 --to 90 $f"; echo "cat --type move,pan $f"
    echo "log $f"; echo "log --ascii --type move,pan $f"; echo "log --json --from 5 --to 50 $f"; echo "log --color always $f"
    echo "at $f 40"; echo "at --json $f 60"; echo "at --ascii --alive --width 120 $f 30"; echo "at --color always $f 25"
    echo "map $f"; echo "map --ascii --width 100 --at 40 $f"; echo "map --color always $f"
    echo "stats $f"; echo "stats --json $f"; echo "stats --format csv --by build $f"
    echo "paths $f"; echo "paths --json --steps 2 $f"; echo "paths --format csv --by controller $f"
    echo "latency $f"; echo "latency --json $f"; echo "latency --format csv --percentiles 50,95 $f"
    for t in events visits moves pans findings sessions paths; do echo "export --table $t $f"; echo "export --table $t --format csv $f"; done
    echo "export --table visits --format parquet -o out/$j.visits.parquet $f"; echo "export --table events --format parquet --compression gzip -o out/$j.events.parquet $f"
    echo "trace --format chrome -o out/$j.chrome.json $f"; echo "trace --format otlp -o out/$j.otlp.jsonl $f"; echo "trace --format otlp --from 10 --to 200 $f"
    echo "report -o out/$j.html $f"; echo "report --model --trace -o out/$j.m.html $f"
    echo "script $f"; echo "step --keys 'l l l G f f :12 /didAppear n q' --size 100x30 $f"
    echo "tail -n 20 $f"
  done
  for p in "demo" "notes" "cycle" "gotoroot"; do
    echo "diff in/$p.intended.ndjson in/$p.legacy.ndjson"; echo "diff --json in/$p.intended.ndjson in/$p.legacy.ndjson"; echo "diff --ascii --match id in/$p.intended.ndjson in/$p.legacy.ndjson"
    echo "report -o out/$p.ab.html in/$p.intended.ndjson in/$p.legacy.ndjson"
    echo "step --keys 'l l j G q' in/$p.intended.ndjson in/$p.legacy.ndjson"
    echo "record --profile legacy in/$p.scenario"; echo "record in/$p.scenario"
    echo "shrink --rule modal-leak in/$p.legacy.ndjson"; echo "testgen -o out/t1 in/$p.scenario"; echo "testgen -o out/t2 --framework both --rule modal-leak in/$p.legacy.ndjson"
  done
  echo "diff in/churn.intended.ndjson in/churn.legacy.ndjson"; echo "diff --json in/churn.intended.ndjson in/churn.legacy.ndjson"
  echo "bisect in/bisect"; echo "bisect --json in/bisect"
  echo "report -o out/fleet.html in/fleet"; echo "stats --by build,device in/fleet"; echo "stats --by build --format csv in/fleet"; echo "check --summary in/fleet"
  echo "funnel --steps NotesListViewController,NoteEditorViewController in/notes.legacy.ndjson in/notes.intended.ndjson"
  echo "funnel --by controller --json --steps c1,c2,c3 in/simple.legacy.ndjson"
  echo "paths --by build,device --steps 2 in/fleet"; echo "latency --group build --format csv in/fleet"
  echo "simulate --events 500 --seed 9"; echo "simulate --events 500 --shape churn --profile legacy --seed 9"
  if [ $BIG = 1 ]; then
    for s in simple churn; do f=in/big.$s.ndjson
      echo "check $f"; echo "check --format json $f"; echo "check --format sarif --model $f"; echo "stats --json $f"; echo "stats $f"
      echo "export --table visits --format parquet -o out/big.$s.visits.parquet $f"; echo "export --table moves --format csv -o out/big.$s.moves.csv $f"
      echo "trace --format otlp -o out/big.$s.otlp.jsonl $f"; echo "trace --format chrome -o out/big.$s.chrome.json $f"
      echo "paths $f"; echo "latency --json $f"; echo "cat --replayable --from 500000 --to 500100 $f"; echo "report -o out/big.$s.html --max-events 50000 $f"
    done
  fi
} > "$CASES"
run_all() { # BIN OUTDIR
  local bin=$1 out=$2 i=0 run=$2.run
  rm -rf "$out" "$run"; mkdir -p "$out" "$run"
  while IFS= read -r line; do
    i=$((i+1)); mkdir -p "$run/out"
    ( cd "$run" && ln -sfn "$IN" in && eval "NO_COLOR= COLUMNS=100 timeout 600 \"$bin\" $line" > "$out/$i.stdout" 2> "$out/$i.stderr" < /dev/null; echo $? > "$out/$i.rc" )
    if [ -n "$(ls -A "$run/out")" ]; then mkdir -p "$out/$i.files"; mv "$run/out"/* "$out/$i.files/"; fi
  done < "$CASES"
  # The binary's own path appears in some messages: name it the same on both sides.
  grep -rlF "$bin" "$out" 2>/dev/null | xargs -r sed -i "s|$bin|BIN|g"
}
run_all "$REF" "$WORK/ref" &
run_all "$NEW" "$WORK/new"
wait
N=$(wc -l < "$CASES"); K=0; i=0
while IFS= read -r line; do
  i=$((i+1))
  if ! diff -rq "$WORK/ref/$i.stdout" "$WORK/new/$i.stdout" >/dev/null 2>&1 || ! cmp -s "$WORK/ref/$i.stderr" "$WORK/new/$i.stderr" || ! cmp -s "$WORK/ref/$i.rc" "$WORK/new/$i.rc" || ! diff -rq "$WORK/ref/$i.files" "$WORK/new/$i.files" >/dev/null 2>&1; then
    if [ -d "$WORK/ref/$i.files" ] || [ -d "$WORK/new/$i.files" ] || ! cmp -s "$WORK/ref/$i.stdout" "$WORK/new/$i.stdout" || ! cmp -s "$WORK/ref/$i.stderr" "$WORK/new/$i.stderr" || ! cmp -s "$WORK/ref/$i.rc" "$WORK/new/$i.rc"; then
      K=$((K+1)); echo "DIFF case $i: $line   (outputs in $WORK/{ref,new}/$i.*)"
      for s in stdout stderr rc; do cmp -s "$WORK/ref/$i.$s" "$WORK/new/$i.$s" || diff "$WORK/ref/$i.$s" "$WORK/new/$i.$s" | head -6 | sed 's/^/    /'; done
      diff -rq "$WORK/ref/$i.files" "$WORK/new/$i.files" 2>&1 | head -3 | sed 's/^/    /'
    fi
  fi
done < "$CASES"
if [ $K = 0 ]; then echo "identical: $N cases ($WORK)"; else echo "DIFFERENT: $K of $N cases ($WORK)"; fi
