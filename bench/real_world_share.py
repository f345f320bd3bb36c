#!/usr/bin/env python3
"""Share of PTX statements translatable per census repo: runs `ptx2hip check --format json`."""
import csv, json, subprocess, sys
binary = sys.argv[1]
rows = list(csv.DictReader(open('/work/shared/reference/real-world-repos.tsv'), delimiter='\t'))
tot = trans = 0
out = []
for r in rows:
    d = '/work/repos/' + r['repo'].replace('/', '+')
    p = subprocess.run([binary, 'check', '--format', 'json', d], capture_output=True)
    try:
        findings = json.loads(p.stdout or b'[]')
    except Exception as e:
        print(r['repo'], 'bad json', e, file=sys.stderr); continue
    stmts = [f for f in findings if f.get('instructions')]
    t = sum(1 for f in stmts if f['status'] == 'translatable')
    tot += len(stmts); trans += t
    out.append((r['repo'], len(stmts), t))
    print(f"{r['repo']}\t{len(stmts)}\t{t}", flush=True)
print(f"TOTAL\t{tot}\t{trans}\t{100*trans/max(tot,1):.1f}%")
