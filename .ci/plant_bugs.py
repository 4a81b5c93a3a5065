"""Plants one real app's bug in each of 120 journals that `simulate` writes (both shapes, 10 seeds, 6
bug classes: a retain cycle, a modal never dismissed, a didAppear twice, a lost willDisappear, a
didLoad twice, a lost didLoad) and asserts that `check` gives exactly one error of the right rule at
the right seq naming the controller, and that its findings equal the independent oracle's
(.ci/check_oracle.py). A second generator beside the test suite's corpus (PlantedBugCorpusTests).

Usage: python3 .ci/plant_bugs.py PATH/TO/spatial-replay
"""
import json, random, subprocess, sys, os, tempfile
B = sys.argv[1]
ORACLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'check_oracle.py')
out = tempfile.mkdtemp(prefix='spatial-replay-plant-')
def load(path): return [json.loads(l) for l in open(path)]
def write(path, recs):
    with open(path, 'w') as f:
        for i, r in enumerate(recs):
            r = dict(r); r['seq'] = i
            f.write(json.dumps(r, separators=(',', ':'), ensure_ascii=False) + '\n')
def check(path):
    p = subprocess.run([B, 'check', '--json', path], capture_output=True, text=True)
    return [json.loads(l) for l in p.stdout.splitlines() if '"summary":true' not in l]
def oracle(path):
    p = subprocess.run([sys.executable, ORACLE, path], capture_output=True, text=True)
    return sorted((d['rule'], d['seq']) for d in map(json.loads, p.stdout.splitlines()))
results = {}
bad = 0
for shape in ['churn', 'simple']:
  for seed in range(1, 11):
    src = f'{out}/clean-{shape}-{seed}.ndjson'
    subprocess.run([B, 'simulate', '--events', '6000', '--shape', shape, '--seed', str(seed + 100), '-o', src], check=True)
    recs = load(src)
    rnd = random.Random(seed)
    assert check(src) == [], src
    cases = []
    # modal removal blocks: dealloc M preceded by unlinks back to a didAppear of P
    modals = {r['controller']: r['presenter'] for r in recs if r['type'] == 'modal'}
    presented_by = {}
    for m, p in modals.items(): presented_by.setdefault(p, []).append(m)
    blocks = []
    for i, r in enumerate(recs):
        if r['type'] == 'dealloc' and r['controller'] in modals and not presented_by.get(r['controller']):
            m = r['controller']; p = modals[m]
            j = i - 1
            while recs[j]['type'] == 'unlink': j -= 1
            if recs[j]['type'] == 'lifecycle' and recs[j]['callback'] == 'didAppear' and recs[j]['controller'] == p:
                if all(recs[k]['from'] in (p, m) for k in range(j + 1, i)):
                    blocks.append((j, i, m, p))
    if blocks:
        j, i, m, p = rnd.choice(blocks)
        cases.append(('retain-cycle', recs[:i] + recs[i + 1:], 'modal-leak', j, m))
        cases.append(('never-dismissed', recs[:j + 1] + recs[i + 1:], 'modal-leak', j, m))
    das = [i for i, r in enumerate(recs) if r.get('callback') == 'didAppear']
    k = rnd.choice(das)
    cases.append(('didAppear-twice', recs[:k + 1] + [recs[k]] + recs[k + 1:], 'did-repeated', k + 1, recs[k]['controller']))
    wds = [i for i, r in enumerate(recs) if r.get('callback') == 'willDisappear']
    k = rnd.choice(wds)
    c = recs[k]['controller']
    dd = next(x for x in range(k + 1, len(recs)) if recs[x].get('controller') == c and recs[x].get('callback') == 'didDisappear')
    cases.append(('lost-willDisappear', recs[:k] + recs[k + 1:], 'did-without-will', dd - 1, c))
    dls = [i for i, r in enumerate(recs) if r.get('callback') == 'didLoad']
    k = rnd.choice(dls)
    cases.append(('didLoad-twice', recs[:k + 1] + [recs[k]] + recs[k + 1:], 'load-repeated', k + 1, recs[k]['controller']))
    cands = [i for i in dls if any(r.get('controller') == recs[i]['controller'] and r.get('callback') in ('willAppear','willDisappear','didAppear','didDisappear') for r in recs[i+1:])]
    k = rnd.choice(cands); c = recs[k]['controller']
    first = next(x for x in range(k + 1, len(recs)) if recs[x].get('controller') == c and recs[x].get('callback') in ('willAppear','willDisappear','didAppear','didDisappear'))
    cases.append(('lost-didLoad', recs[:k] + recs[k + 1:], 'appear-before-load', first - 1, c))
    for name, planted, rule, seq, ctl in cases:
        path = f'{out}/{name}-{shape}-{seed}.ndjson'
        write(path, planted)
        found = check(path)
        errs = [f for f in found if f['severity'] == 'error']
        ok = len(errs) == 1 and errs[0]['rule'] == rule and errs[0]['seq'] == seq and ctl in errs[0]['controllers']
        orc = oracle(path) == sorted((f['rule'], f['seq']) for f in found)
        results.setdefault(name, [0, 0]); results[name][0] += ok and orc; results[name][1] += 1
        if not (ok and orc):
            bad += 1
            print('MISMATCH', path, rule, seq, ctl, [(f['rule'], f['seq'], f['controllers']) for f in found][:5], 'oracle agrees' if orc else 'ORACLE DIFFERS')
for k, (a, n) in results.items(): print(f'{k}: {a}/{n} exactly one right finding, oracle agrees')
import shutil
shutil.rmtree(out, ignore_errors=True)
sys.exit(1 if bad else 0)
