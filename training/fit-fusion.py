#!/usr/bin/env python3
"""Fit the engine's score-aware fusion weights on a bench feature dump (numpy only).

The engine fuses its signals by weighted reciprocal rank (engine/src/retrieve/hybrid.ts). Ranks
throw away how far apart two candidates are: a dense model that agrees with BM25 gives all of BM25's
top candidates nearly the same vote. This tool learns, from protocol A tasks of a split that is
neither training data nor evaluation data, a linear score over the candidates' per-signal features
(the weighted RRF terms, plus each scored signal's score relative to its best candidate), by a
listwise softmax loss: the positive against every other candidate protocol A does not exclude.

  node out/test/bench/run.js --split ~/.cache/reporecall-train/fusion-fit --systems engine \\
      --dump-features fit.jsonl --out /tmp/fit.json
  /usr/bin/python3 training/fit-fusion.py --fit fit.jsonl [--eval other.jsonl ...]

Prints protocol A MRR@10 of the default weights and of the fitted ones (leave-one-repository-out on
the fit file, then trained on all of it and applied to each --eval file), and the fitted weights
in the form FusionWeights takes them.
"""
import argparse
import json

import numpy as np

SIGNALS = ["bm25", "recent", "dense", "symbol", "normalized"]
# The rank-only weights the engine shipped before score terms (the baseline to beat, and the
# start of the fit; symbol and normalized keep their ratio to bm25 under --fix).
DEFAULT = {"bm25": 1.0, "recent": 1.0, "dense": 0.3, "symbol": 0.25, "normalized": 0.2}
RRF_K = 30.0
# Scored signals: their score relative to the best candidate's (dense: cosine difference;
# BM25: ratio), a candidate the signal did not retrieve gets the signal's worst retrieved value.
SCORED = ["bm25", "recent", "dense"]


def features(cands, names):
    """Matrix (candidates x features) in the order of `names`."""
    n = len(cands)
    cols = {}
    for s in SIGNALS:
        cols[f"rrf:{s}"] = np.array([1.0 / (RRF_K + c["r"][s]) if s in c["r"] else 0.0 for c in cands])
        # The same with a sharp constant: the top few of a list apart from the rest.
        cols[f"top:{s}"] = np.array([1.0 / (1.0 + c["r"][s]) if s in c["r"] else 0.0 for c in cands])
    for s in SCORED:
        vals = [c["v"][s] for c in cands if s in c["v"]]
        if not vals:
            cols[f"rel:{s}"] = np.zeros(n)
            cols["z:dense"] = np.zeros(n)
            continue
        top, worst = max(vals), min(vals)
        if s == "dense":
            col = [(c["v"][s] if s in c["v"] else worst) - top for c in cands]
        else:
            col = [(c["v"][s] if s in c["v"] else 0.0) / top if top > 0 else 0.0 for c in cands]
        cols[f"rel:{s}"] = np.array(col)
        if s == "dense":
            # Standardised within the list: how far above the list's typical candidate.
            arr = np.array(vals)
            cols["z:dense"] = (np.array([c["v"][s] if s in c["v"] else worst for c in cands]) - arr.mean()) / (arr.std() + 1e-6)
    return np.stack([cols[k] for k in names], axis=1) if n else np.zeros((0, len(names)))


def load(path, names):
    tasks = []
    with open(path) as f:
        for line in f:
            t = json.loads(line)
            cands = [c for c in t["cands"] if not c["x"]]
            # Protocol A counts distinct fragments; the dump's keys are already distinct per task.
            X = features(cands, names)
            y = np.array([c["pos"] for c in cands])
            tasks.append({"repo": t["repo"], "language": t["language"], "X": X, "y": y})
    return tasks


def mrr10(tasks, w):
    total = 0.0
    for t in tasks:
        if not t["y"].any():
            continue
        s = t["X"] @ w
        p = s[t["y"] == 1].max()
        rank = 1 + int((s > p).sum())
        total += 1.0 / rank if rank <= 10 else 0.0
    return total / len(tasks)


def fit(tasks, dim, l2=1e-3, steps=3000, lr=0.05, init=None, nonneg=False, fixed=(), anchor=0):
    """Listwise softmax over each task's candidates (tasks whose positive is among them), Adam."""
    usable = [t for t in tasks if t["y"].any()]
    w = np.array(init, dtype=float) if init is not None else np.zeros(dim)
    m, v = np.zeros(dim), np.zeros(dim)
    # Features scaled so one learning rate suits all of them.
    scale = np.concatenate([t["X"] for t in usable]).std(axis=0) + 1e-9
    w = w * scale
    for step in range(1, steps + 1):
        g = l2 * w
        for t in usable:
            Z = t["X"] / scale
            s = Z @ w
            s -= s.max()
            p = np.exp(s)
            p /= p.sum()
            target = t["y"] / t["y"].sum()
            g += Z.T @ (p - target) / len(usable)
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        w -= lr * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
        if nonneg:
            # The product adds each signal's evidence; a negative weight would punish it.
            w = np.maximum(w, 0.0)
        if fixed:
            # Fixed weights keep their default ratio to the anchor's (bm25), whatever the scale.
            wu = w / scale
            for i in fixed:
                wu[i] = init[i] * wu[anchor] / init[anchor]
            w = wu * scale
    return w / scale


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fit", required=True, help="feature dump to fit on")
    ap.add_argument("--eval", nargs="*", default=[], help="feature dumps to evaluate the fitted weights on")
    ap.add_argument("--features", default="rrf,rel:dense", help="rrf (the five RRF terms) and/or rel:SIGNAL, comma-separated")
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--l2", type=float, default=1e-2)
    ap.add_argument("--nonneg", action="store_true", help="keep every weight >= 0")
    ap.add_argument("--weights", help="JSON {feature: weight}: evaluate these on --fit and --eval instead of fitting")
    ap.add_argument("--fix", default="", help="features whose weight stays at the default (comma-separated)")
    a = ap.parse_args()

    names = []
    for f in a.features.split(","):
        names += [f"rrf:{s}" for s in SIGNALS] if f == "rrf" else [f]
    base = np.array([DEFAULT[n[4:]] if n.startswith("rrf:") else 0.0 for n in names])
    fixed = [names.index(f) for f in a.fix.split(",") if f]
    fit_tasks = load(a.fit, names)
    if a.weights:
        given = json.loads(a.weights)
        w = np.array([given.get(n, 0.0) for n in names])
        for path in [a.fit, *a.eval]:
            tasks = fit_tasks if path == a.fit else load(path, names)
            print(f"{path}: {len(tasks)} tasks, default {mrr10(tasks, base):.3f}, given {mrr10(tasks, w):.3f}")
        return
    repos = sorted({t["repo"] for t in fit_tasks})
    print(f"fit: {len(fit_tasks)} tasks in {len(repos)} repositories, positive among candidates in "
          f"{sum(t['y'].any() for t in fit_tasks)}; features {names}")
    print(f"{'held-out repository':28s} default  fitted")
    cv_d = cv_f = 0.0
    for r in repos:
        train = [t for t in fit_tasks if t["repo"] != r]
        test = [t for t in fit_tasks if t["repo"] == r]
        w = fit(train, len(names), a.l2, a.steps, init=base, nonneg=a.nonneg, fixed=fixed)
        d, f_ = mrr10(test, base), mrr10(test, w)
        cv_d += d * len(test)
        cv_f += f_ * len(test)
        print(f"{r:28s} {d:.3f}    {f_:.3f}")
    n = len(fit_tasks)
    print(f"{'leave-one-repo-out, all':28s} {cv_d / n:.3f}    {cv_f / n:.3f}")
    w = fit(fit_tasks, len(names), a.l2, a.steps, init=base, nonneg=a.nonneg, fixed=fixed)
    # Normalised so bm25's RRF weight is 1, as in DEFAULT_WEIGHTS.
    if "rrf:bm25" in names and w[names.index("rrf:bm25")] > 0:
        w = w / w[names.index("rrf:bm25")]
    print("fitted on all:", json.dumps({k: round(float(x), 4) for k, x in zip(names, w)}))
    for path in a.eval:
        tasks = load(path, names)
        print(f"eval {path}: {len(tasks)} tasks, default {mrr10(tasks, base):.3f}, fitted {mrr10(tasks, w):.3f}")


if __name__ == "__main__":
    main()
