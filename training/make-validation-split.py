"""Write a validation split in the benchmark's format from corpus files the trainer did NOT take.

The trainer takes at most --max-source-mb of text per package (train.py load_corpus, seeded); the larger
packages have many more files. Their remaining files were never seen in training, so they make a
validation set for choices that must not be tuned on the DEV benchmark (e.g. the dense fusion weight):

  /usr/bin/python3 training/make-validation-split.py            # -> ~/.cache/reporecall-train/validation
  node out/test/bench/run.js --split ~/.cache/reporecall-train/validation --systems engine --variant d0.5:dense=0.5 ...

Caveat: the packages themselves were in training (other files of the same project), so this is a
held-out-files split, not a held-out-projects split like DEV. Tasks are built the RepoEval way the
benchmark's README describes: cursor on a non-blank line whose previous line is non-blank, target = that
line, prefix = the lines before it up to ~1000 tokens (4 characters per token), protocol-A positive =
the 20 lines from the cursor.
"""
import argparse
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pairs as pm  # noqa: E402
from train import load_corpus  # noqa: E402

LANG = {"py": "python", "ts": "typescript", "tsx": "typescriptreact", "mts": "typescript", "cts": "typescript"}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", default=os.path.expanduser("~/.cache/reporecall-train/corpus.jsonl"))
    ap.add_argument("--out", default=os.path.expanduser("~/.cache/reporecall-train/validation"))
    ap.add_argument("--sources", default="npm:effect,npm:openai,debian:python3-pandas,debian:python3-torch",
                    help="packages whose untaken files become one validation repository each; "
                         "NAME=SRC+SRC+... makes one repository NAME of several packages (one project's packages)")
    ap.add_argument("--heldout", action="store_true",
                    help="--corpus is a held-out corpus (training/heldout-sources.json): every file may be used")
    ap.add_argument("--max-source-mb", type=float, default=4.0, help="must equal train.py's (which files were taken)")
    ap.add_argument("--seed", type=int, default=20250717, help="must equal train.py's")
    ap.add_argument("--repo-mb", type=float, default=2.0, help="text per validation repository (DEV repos: 0.8-2.5 MB)")
    ap.add_argument("--tasks", type=int, default=100, help="line-completion tasks per repository")
    a = ap.parse_args()

    taken = set()
    if not a.heldout:
        chosen = load_corpus(a.corpus, a.max_source_mb * 1e6, random.Random(a.seed))
        taken = {(s, d["path"]) for s, docs in chosen.items() for d in docs}
    wanted, group_of = [], {}
    for spec in a.sources.split(","):
        name, _, members = spec.rpartition("=") if "=" in spec else ("", "", spec)
        key = name or spec
        wanted.append(key)
        for m in members.split("+"):
            group_of[m] = key
    rest = {s: [] for s in wanted}
    with open(a.corpus) as f:
        for line in f:
            d = json.loads(line)
            g = group_of.get(d["source"])
            if g and (d["source"], d["path"]) not in taken and d["path"].rsplit(".", 1)[-1] in LANG:
                rest[g].append(d)
    rng = random.Random(a.seed + 7)
    tasks = []
    for src in wanted:
        docs = sorted(rest[src], key=lambda d: d["path"])
        rng.shuffle(docs)
        repo = src.split(":", 1)[-1].replace("/", "_").replace("@", "")
        keep, size = [], 0
        for d in docs:
            if size >= a.repo_mb * 1e6:
                break
            keep.append(d)
            size += len(d["text"])
        for d in keep:
            p = os.path.join(a.out, "repos", repo, d["path"])
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w") as f:
                f.write(d["text"])
        cands = [d for d in keep if len(pm.split_lines(d["text"])) >= 40]
        n_tasks = 0
        while n_tasks < a.tasks and cands:
            d = rng.choice(cands)
            lines = pm.split_lines(d["text"])
            n = len(lines)
            L = rng.randrange(10, n)
            if not lines[L].strip() or not lines[L - 1].strip():
                continue
            s, chars = L, 0
            while s > 0 and chars + len(lines[s - 1]) + 1 <= 4000:
                s -= 1
                chars += len(lines[s]) + 1
            lang = LANG[d["path"].rsplit(".", 1)[-1]]
            tasks.append({
                "id": f"validation/{repo}/{n_tasks}", "repo": repo, "file": d["path"], "cursor": {"line": L, "character": 0},
                "prefix_lines": lines[s:L], "target": lines[L], "language": lang, "context_start_line": s, "target_end_line": L,
                "left_context": "\n".join(lines[:L]) + "\n", "right_context": None,
                "positive_fragment": {"file": d["path"], "start_line": L, "end_line": min(L + 19, n - 1)},
                "positive_fragment_grid": {"file": d["path"], "start_line": 20 * (L // 20), "end_line": min(20 * (L // 20) + 19, n - 1)},
                "file_line_count": n, "source": "reporecall-validation",
            })
            n_tasks += 1
        print(f"{repo}: {len(keep)} untaken files ({size / 1e6:.1f} MB), {n_tasks} tasks", flush=True)
    with open(os.path.join(a.out, "tasks.jsonl"), "w") as f:
        for t in tasks:
            f.write(json.dumps(t) + "\n")
    print(f"wrote {len(tasks)} tasks to {a.out}")


if __name__ == "__main__":
    main()
