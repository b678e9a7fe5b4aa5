"""How much of oracle-normalised.cjs's reach a calibrated confidence could offer where main abstains.

python3 training/completion/oracle-fit.py ORACLE_DUMP.jsonl [RANK_DUMP.jsonl]   (RANK_DUMP: dump-rank.cjs of main, for the reach beyond its candidates)
A logistic regression of "the adapted first candidate is the target" on its features (depth, votes, share among
the deepest matches, evidence = IDF of context tokens matched as they are, renamed names, distinct candidates),
fitted on one half of the held-out repositories and applied to the other (cross-fitted), over the tasks where main
abstains. Prints, per threshold, the line EM it would add and its precision when offered.
"""
import json, math, sys
import numpy as np
rows = [json.loads(l) for l in open(sys.argv[1])]
HALF_A = {'msal', 'python3-pygments', 'python3-sympy'}
n = len(rows)
if len(sys.argv) > 2:
    eng = {}
    for l in open(sys.argv[2]):
        d = json.loads(l); eng[d['id']] = any(g['ok'] for g in d['groups'])
    print(f"main's candidates contain the target on {sum(eng.values())} of {n}")
    for mode in ('verbatim', 'bound', 'names'):
        beyond = [r for r in rows if (r.get(mode + ':d1') or r.get('verbatim:d1')) and not eng.get(r['id'])]
        print(f'  {mode} (with verbatim) reaches {len(beyond)} tasks beyond them ({len(beyond) / n:.3f})')
    new = [r for r in rows if r.get('names:d1') and not r.get('verbatim:d1') and not eng.get(r['id'])]
    first = [r for r in new if r['names:best']['rank'] == 1]
    print(f'  names only: {len(new)} ({len(new) / n:.3f}); its first candidate on {len(first)} ({len(first) / n:.3f}: {sum(1 for r in first if r["names:best"]["renamed"] >= 1)} with a name adapted, '
          f'{sum(1 for r in first if r["names:best"]["renamed"] == 0)} copied as they are after renamed context); main abstains on {sum(1 for r in new if r["main"] == "abstain")} of them')
    print(f'  names only: distinct adapted lines per such task, median {sorted(r["names:best"]["n"] for r in new)[len(new) // 2]}')
wrong = [r for r in rows if r['main'] == 'wrong']
for mode in ('verbatim', 'bound', 'names'):
    has = [r for r in wrong if r.get(mode + ':best')]
    print(f'where main is wrong ({len(wrong)}): {mode} first candidate right on {sum(r[mode + ":best"]["ok"] for r in has)} of {len(has)}')
def feats(b): return [1.0, b['depth'], math.log2(b['votes']), b['shareAtDepth'], b['evidence'] / 10, min(b['renamed'], 5), math.log2(b['n'])]
def fit(X, y, l2=0.1, iters=3000, lr=0.5):
    w = np.zeros(X.shape[1])
    for _ in range(iters):
        p = 1 / (1 + np.exp(-(X @ w)))
        w += lr * (X.T @ (y - p) / len(y) - l2 * w / len(y))
    return w
for mode in ['bound', 'names']:
    ab = [r for r in rows if r['main'] == 'abstain' and r.get(mode + ':best')]
    halves = [[r for r in ab if r['id'].split('/')[1] in HALF_A], [r for r in ab if r['id'].split('/')[1] not in HALF_A]]
    scored = []
    for i in (0, 1):
        tr, te = halves[1 - i], halves[i]
        w = fit(np.array([feats(r[mode + ':best']) for r in tr]), np.array([r[mode + ':best']['ok'] for r in tr], float))
        for r in te: scored.append((1 / (1 + math.exp(-float(np.array(feats(r[mode + ':best'])) @ w))), r[mode + ':best']['ok'], i))
    print(f'{mode}: main abstains and a candidate exists on {len(ab)} tasks, its first candidate right on {sum(s[1] for s in scored)}')
    for th in (0.3, 0.4, 0.5, 0.6, 0.7):
        off = [s for s in scored if s[0] >= th]; ok = sum(s[1] for s in off)
        per = [f"{sum(s[1] for s in off if s[2] == h)}/{sum(1 for s in off if s[2] == h)}" for h in (0, 1)]
        print(f'  confidence >= {th}: offered {len(off)}, right {ok} (precision {ok / max(1, len(off)):.3f}; halves a {per[0]}, b {per[1]}), line EM +{ok / n:.3f}')
    # Simple rules instead of the regression (read off the whole split: in-sample, an upper estimate).
    for d, v in ((3, 2), (4, 1), (4, 2), (4, 3)):
        off = [r for r in ab if r[mode + ':best']['depth'] >= d and r[mode + ':best']['shareAtDepth'] >= 1 and r[mode + ':best']['votes'] >= v]
        ok = sum(r[mode + ':best']['ok'] for r in off)
        per = [f"{sum(r[mode + ':best']['ok'] for r in off if (r['id'].split('/')[1] in HALF_A) == h)}/{sum(1 for r in off if (r['id'].split('/')[1] in HALF_A) == h)}" for h in (True, False)]
        print(f'  rule depth >= {d}, every deepest match agrees, votes >= {v}: offered {len(off)}, right {ok} (precision {ok / max(1, len(off)):.3f}; halves a {per[0]}, b {per[1]}), line EM +{ok / n:.3f}')
