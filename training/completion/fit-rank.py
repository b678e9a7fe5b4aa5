"""Fits the built-in completion's ranking and confidence weights (engine/src/complete/rank.ts: RANK, CONF).

On a split that is neither training nor evaluation data: the held-out projects (training/README.md,
"Validation split"). Never on the benchmark's DEV or held-out splits. RANK was fitted on their first
validation split; CONF (shipped) was refitted with RANK kept (--conf-only) on the same projects' tasks
chosen with the benchmark's own rules (make-repoeval-split.cjs), whose precision matches DEV's:

  npm run compile
  node training/completion/make-repoeval-split.cjs      # -> ~/.cache/reporecall-heldout/repoeval
  node training/completion/capture.cjs ~/.cache/reporecall-heldout/repoeval .bench-out/cap-re.jsonl
  node training/completion/dump-rank.cjs .bench-out/cap-re.jsonl .bench-out/rank-re.jsonl
  python3 training/completion/fit-rank.py [--conf-only] .bench-out/rank-re.jsonl [OTHER_RANK_FILE_TO_REPORT ...]

RANK is a conditional logit over a task's candidate groups (which first line is the target); CONF a
logistic regression of "the best group's first line is the target" on its features. Prints both and
EM / offered / precision when offered at a few confidence thresholds (evidence >= 6).
"""
import json, math, sys
import numpy as np
def load(p): return [json.loads(l) for l in open(p)]
RN = ['evidence', 'votes', 'depth', 'share', 'missing', 'resembling']
def rx(g): return [g['evidence'], math.log2(g['votes']), g['depth'], g['share'], g['missing'] / 10, g['resembling']]
def fit_rank(tasks, l2=0.01, iters=600, lr=0.3):
    data = [(np.array([rx(g) for g in t['groups']]), np.array([g['ok'] for g in t['groups']], float)) for t in tasks if any(g['ok'] for g in t['groups'])]
    w = np.zeros(len(RN))
    for _ in range(iters):
        grad = -l2 * w
        for X, y in data:
            s = X @ w; p = np.exp(s - s.max()); p /= p.sum()
            grad += X.T @ (y / y.sum() - p)
        w += lr * grad / len(data)
    return w
CN = ['bias', 'evidence', 'votes', 'share', 'p', 'depth', 'resembling', 'groups', 'missing']
def top(t, w):
    if not t['groups']: return None
    X = np.array([rx(g) for g in t['groups']]); s = X @ w
    p = np.exp(s - s.max()); p /= p.sum(); i = int(np.argmax(s)); g = t['groups'][i]
    return g, [1, min(g['evidence'], 30) / 10, math.log2(g['votes']), g['share'], p[i], g['depth'], g['resembling'], math.log2(len(t['groups'])), g['missing'] / 10]
def fit_conf(tasks, w, l2=0.01, iters=3000, lr=0.3):
    rows = [top(t, w) for t in tasks]; rows = [r for r in rows if r]
    X = np.array([r[1] for r in rows]); y = np.array([r[0]['ok'] for r in rows], float)
    v = np.zeros(X.shape[1])
    for _ in range(iters):
        p = 1 / (1 + np.exp(-(X @ v))); v += lr * (X.T @ (y - p) / len(y) - l2 * v)
    return v
def ev(tasks, w, v, th, minev):
    n = len(tasks); em = off = 0
    for t in tasks:
        r = top(t, w)
        if not r: continue
        g, x = r
        c = 1 / (1 + math.exp(-np.dot(v, x)))
        if g['evidence'] >= minev and c >= th: off += 1; em += g['ok']
    return 'EM %.3f off %.3f prec %.3f' % (em / n, off / n, em / max(off, 1))
# rank.ts's RANK, kept by --conf-only (the refit on the RepoEval-rules split ranked no better across its halves).
SHIPPED_RANK = [0.26, 0.43, 0.81, 1.81, -2.57, -0.44]
if __name__ == '__main__':
    args = sys.argv[1:]
    conf_only = '--conf-only' in args
    args = [a for a in args if a != '--conf-only']
    tr = load(args[0])
    others = [(p, load(p)) for p in args[1:]]
    w = np.array(SHIPPED_RANK) if conf_only else fit_rank(tr); print('RANK', ', '.join('%s: %.2f' % kv for kv in zip(RN, w)))
    v = fit_conf(tr, w); print('CONF', ', '.join('%s: %.2f' % kv for kv in zip(CN, v)))
    for th in [0, 0.1, 0.2, 0.3]:
        print('confidence >= %.2f' % th, ' | '.join('%s %s' % (p, ev(s, w, v, th, 6)) for p, s in [(args[0], tr)] + others))
