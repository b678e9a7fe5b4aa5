"""Train the RepoRecall code embedding model and write OUT/{model.onnx, tokenizer.json, config.json,
training-stats.json}. Run through `npm run train-model` (see training/README.md).

Objective: InfoNCE with in-batch negatives, where every batch is drawn from ONE source package (so the
other rows are in-repository negatives) plus per next-fragment query a BM25-mined hard negative and a
same-file negative; optionally (--self-mine-steps) hard negatives re-mined with the model itself
(ANCE-style). Pair kinds: code before a cursor -> the next 20 lines, doc comment <-> path-prefixed code,
definition <-> call site.
"""
import argparse
import hashlib
import json
import math
import os
import pickle
import random
import subprocess
import sys
import time
from collections import defaultdict

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import code_tokenizer as ct  # noqa: E402
import pairs as pm  # noqa: E402
import hard_negatives as hn  # noqa: E402
from model import CodeEncoder, export_onnx  # noqa: E402

PREP_VERSION = 3  # bump when tokenisation or pair mining changes


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--corpus", default=os.path.expanduser("~/.cache/reporecall-train/corpus.jsonl"),
                    help="corpus.jsonl written by training/fetch-corpus.mjs")
    ap.add_argument("--out", default="models/reporecall-code", help="output model directory")
    ap.add_argument("--arch", default="static", choices=["static", "conv", "asym"], help="encoder (see model.py)")
    ap.add_argument("--query-head", type=int, default=0, help="1: also train/export a query-side projection")
    ap.add_argument("--dim", type=int, default=256, help="embedding dimension")
    ap.add_argument("--vocab-size", type=int, default=32000, help="vocabulary rows (before case spellings)")
    ap.add_argument("--min-count", type=int, default=3, help="a piece must occur this often to enter the vocabulary")
    ap.add_argument("--max-source-mb", type=float, default=4.0, help="cap on text taken from one package (balance)")
    ap.add_argument("--steps", type=int, default=1400, help="optimiser steps")
    ap.add_argument("--static-steps", type=int, default=1200,
                    help="conv and asym: steps trained as the static model before the mixing block or the query table is switched on")
    ap.add_argument("--snapshot-static", default="", help="conv only: also export the static model reached at --static-steps here")
    ap.add_argument("--kernel", type=int, default=5, help="conv only: width of the token-mixing window")
    ap.add_argument("--mix-rank", type=int, default=128, help="conv only: bottleneck width of the mixing block")
    ap.add_argument("--minutes", type=float, default=60.0, help="safety cap on training wall time (the schedule is step-based)")
    ap.add_argument("--batch", type=int, default=128, help="queries per batch (documents: 2x)")
    ap.add_argument("--query-tokens", type=int, default=256,
                    help="keep the first N tokens of a query (the product's OnnxEmbedder keeps the first 256)")
    ap.add_argument("--doc-tokens", type=int, default=256, help="keep the first N tokens of a document")
    ap.add_argument("--query-lines", type=int, default=10,
                    help="next-fragment queries are the last N lines before the cursor, path-prefixed: what the engine embeds "
                         "(engine/src/retrieve/query.ts trimmedLines)")
    ap.add_argument("--bm25-top", type=int, default=3, help="a next-fragment query's hard negative is drawn from its N best BM25 fragments")
    ap.add_argument("--self-mine-steps", default="",
                    help="ANCE-style self-mined hard negatives: comma-separated steps (e.g. 700) after which every "
                         "next-fragment query's hard negative is re-mined with the model being trained (its cosine over "
                         "the package's 20-line fragments, same exclusion rules as the BM25 miner: not overlapping the "
                         "query's 60-line window or the positive, not a near-copy of the positive); training then goes "
                         "on with it. Empty (default): off. The model, optimiser and RNG state at each such step and the "
                         "mined negatives are cached in the scratch directory (selfneg-*.pkl), so a rerun resumes there")
    ap.add_argument("--self-top", type=int, default=3, help="a self-mined negative is drawn from the query's N best dense fragments")
    ap.add_argument("--self-pool", type=int, default=0,
                    help="> 0: self-mined negatives are taken only among the query's N best BM25 fragments (ranked by the "
                         "model): the fragments BM25 and the model both rank high, which are what the engine's fusion "
                         "confuses (0: all fragments of the package)")
    ap.add_argument("--self-neg", default="add", choices=["add", "replace"],
                    help="add: the self-mined negative is a further negative next to the BM25 one (4 documents per "
                         "next-fragment query); replace: it takes the BM25 negative's place (3 per query)")
    ap.add_argument("--reverse-frac", type=float, default=0.5,
                    help="share of doc and call-site batches trained in the other direction (code -> its doc, call site -> "
                         "definition), with other functions' code as negatives")
    ap.add_argument("--doc-frac", type=float, default=0.2, help="share of batches made of doc -> code pairs")
    ap.add_argument("--call-frac", type=float, default=0.2, help="share of batches made of definition -> call site pairs")
    ap.add_argument("--residual-bm25", type=float, default=0.0,
                    help="next-fragment batches: the loss ranks by dense/tau + this x z(BM25), z being each document's "
                         "BM25 score for the query standardised over the batch's documents (the package's statistics). "
                         "The model then learns what corrects BM25's ranking instead of re-learning word overlap: the "
                         "engine fuses the two. 0 = plain InfoNCE")
    ap.add_argument("--text-prior", default="",
                    help="float32 file [vocab x D] from training/text-prior.mjs (the reference text model's vector "
                         "for each piece): its first --text-prior-dims principal directions are appended, frozen, to "
                         "the learned token table, under one learned scale. Empty (default): off")
    ap.add_argument("--text-prior-dims", type=int, default=128, help="columns kept from --text-prior (PCA)")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--tau", type=float, default=0.05, help="InfoNCE temperature")
    ap.add_argument("--threads", type=int, default=1, help="torch CPU threads (the machine is shared)")
    ap.add_argument("--seed", type=int, default=20250717)
    return ap.parse_args()


def bm25_term_mask(vocab):
    """Which vocabulary pieces count as BM25 terms: those with a letter or digit (the engine's
    lexical terms are identifier sub-tokens), never padding or unknown."""
    return np.array([any(ch.isalnum() for ch in p) and p not in (ct.PAD, ct.UNK) for p in vocab])


def load_text_prior(path, rows, dims):
    """The prior table projected on its top `dims` principal directions (uncentred: the reference
    already removed its common mean; row norms keep its SIF weights), and a scale that gives its
    rows the mean norm of the learned table's initial rows."""
    u = np.fromfile(path, dtype=np.float32)
    if u.size % rows:
        raise SystemExit(f"{path} does not hold {rows} rows (the vocabulary changed: rerun training/text-prior.mjs)")
    u = u.reshape(rows, -1)
    _, _, vt = np.linalg.svd(u, full_matrices=False)
    p = (u @ vt[:dims].T).astype(np.float32)
    norms = np.linalg.norm(p, axis=1)
    scale = 0.1 * np.sqrt(256) / max(float(norms[norms > 0].mean()), 1e-9)
    return torch.from_numpy(p), scale


def load_corpus(path, cap_bytes, rng):
    by_source = defaultdict(list)
    with open(path) as f:
        for line in f:
            d = json.loads(line)
            by_source[d["source"]].append(d)
    chosen = {}
    for src, docs in sorted(by_source.items()):
        docs.sort(key=lambda d: d["path"])
        rng.shuffle(docs)
        keep, size = [], 0
        for d in docs:
            if size >= cap_bytes:
                break
            keep.append(d)
            size += len(d["text"])
        chosen[src] = keep
    return chosen


class TokenizedFile:
    __slots__ = ("path", "ids", "starts")

    def __init__(self, path, tok, lines):
        self.path = path
        per_line = [tok.encode(l) for l in lines]
        self.starts = np.zeros(len(lines) + 1, dtype=np.int64)
        np.cumsum([len(x) for x in per_line], out=self.starts[1:])
        self.ids = np.fromiter((i for x in per_line for i in x), dtype=np.int32, count=int(self.starts[-1]))

    def span(self, a, b):
        return self.ids[self.starts[a]:self.starts[b]]


def pad(seqs, max_len, from_end=False):
    seqs = [(s[-max_len:] if from_end else s[:max_len]) for s in seqs]
    seqs = [s if len(s) else np.array([ct.UNK_ID], dtype=np.int32) for s in seqs]
    L = max(len(s) for s in seqs)
    ids = np.zeros((len(seqs), L), dtype=np.int64)
    for i, s in enumerate(seqs):
        ids[i, :len(s)] = s
    ids_t = torch.from_numpy(ids)
    return ids_t, (ids_t != 0).long()


def write_parity_sample(wrap, tok, files, path):
    """Token ids and embeddings computed by torch, for training/check-parity.mjs to compare with Node."""
    texts = ["def forward(self, x):\n    return self.proj(F.gelu(self.fc(x)))",
             "export function parseHTTPResponse_v2(body: string): Response { return JSON.parse(body); }",
             "  MAX_RETRY_COUNT = 3  # été\n\tfor (let i = 0; i < n; i++) total += items[i].price;"]
    ids = [tok.encode(t) for t in texts]
    with torch.no_grad():
        embs = []
        for x in ids:
            t = torch.tensor([x], dtype=torch.long)
            out = wrap(t, torch.ones_like(t))
            embs.append((out[0] if isinstance(out, tuple) else out)[0].tolist())
    with open(path, "w") as f:
        json.dump({"texts": texts, "ids": ids, "sentence_embedding": embs}, f)


def main():
    a = parse_args()
    a.self_mine_steps_list = sorted({int(x) for x in a.self_mine_steps.split(",") if x.strip()})
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    rng = random.Random(a.seed)
    t_start = time.time()

    cache_key = hashlib.sha1(json.dumps([os.path.getmtime(a.corpus), os.path.getsize(a.corpus), a.max_source_mb, a.vocab_size,
                                         a.min_count, a.seed, a.query_lines, a.bm25_top, PREP_VERSION]).encode()).hexdigest()[:16]
    cache_file = os.path.join(os.path.dirname(a.corpus), f"prepared-{cache_key}.pkl")
    if os.path.exists(cache_file):
        with open(cache_file, "rb") as f:
            vocab, files, prefix_ids, next_pairs, doc_pairs, call_pairs, stats = pickle.load(f)
        tok = ct.CodeTokenizer(vocab)
        print(f"prepared data from {cache_file}", flush=True)
    else:
        vocab, tok, files, prefix_ids, next_pairs, doc_pairs, call_pairs, stats = prepare(a, rng, t_start)
        with open(cache_file, "wb") as f:
            pickle.dump((vocab, files, prefix_ids, next_pairs, doc_pairs, call_pairs, stats), f, protocol=4)
    rng = random.Random(a.seed + 1)
    train(a, vocab, tok, files, prefix_ids, next_pairs, doc_pairs, call_pairs, stats, rng, t_start, cache_key)


def prepare(a, rng, t_start):
    corpus = load_corpus(a.corpus, a.max_source_mb * 1e6, rng)
    texts = [d["text"] for docs in corpus.values() for d in docs]
    vocab = ct.build_vocab(texts, a.vocab_size, min_count=a.min_count)
    tok = ct.CodeTokenizer(vocab)
    print(f"vocabulary: {len(vocab)} pieces from {len(texts)} files ({sum(map(len, texts)) / 1e6:.1f} MB)", flush=True)

    next_pairs, doc_pairs, call_pairs, files, prefix_ids = defaultdict(list), defaultdict(list), defaultdict(list), [], []
    keep = bm25_term_mask(vocab)
    stats = {"sources": {}}
    for src, docs in corpus.items():
        nf = nd = 0
        src_files, src_next = [], []
        for d in docs:
            lines = pm.split_lines(d["text"])
            tf = TokenizedFile(d["path"], tok, lines)
            fi = len(files)
            files.append(tf)
            # what the engine puts in front of every chunk and every dense query (retrieve/query.ts pathPrefix)
            prefix_ids.append(np.array(tok.encode(f"# file: {d['path']}"), dtype=np.int32))
            src_files.append((fi, lines))
            for (q0, L), p, n in pm.next_fragment_pairs(lines, rng):
                src_next.append((fi, (max(0, L - a.query_lines), L), p, n))
            path_ids = np.array(tok.encode(d["path"]), dtype=np.int32)
            for doc, code in pm.doc_pairs(lines, d["lang"]):
                doc_pairs[src].append((np.array(tok.encode(doc), dtype=np.int32),
                                       np.concatenate([path_ids, np.array(tok.encode(code), dtype=np.int32)])))
                nd += 1
        hard = hn.mine(files, prefix_ids, [fi for fi, _ in src_files], [(fi, q, p) for fi, q, p, _ in src_next],
                       len(vocab), keep, rng, top=a.bm25_top)
        next_pairs[src] = [(fi, q, p, n, h) for (fi, q, p, n), h in zip(src_next, hard)]
        nf = len(src_next)
        call_pairs[src] = pm.call_site_pairs(src_files, rng)
        stats["sources"][src] = {"files": len(docs), "bytes": sum(len(d["text"]) for d in docs),
                                 "license": docs[0]["license"] if docs else None, "next_pairs": nf, "doc_pairs": nd, "call_pairs": len(call_pairs[src])}
        print(f"  {src}: {len(docs)} files, {nf} next-fragment pairs, {nd} doc pairs, {len(call_pairs[src])} call pairs", flush=True)
    print(f"pairs: {sum(map(len, next_pairs.values()))} next-fragment, {sum(map(len, doc_pairs.values()))} doc->code; "
          f"prep {time.time() - t_start:.0f}s", flush=True)
    return vocab, tok, files, prefix_ids, dict(next_pairs), dict(doc_pairs), dict(call_pairs), stats


def self_mine_key(a, cache_key, upto):
    """Cache key of the training state after `upto` steps with self-mining: everything that shapes steps 1..upto."""
    d = {k: v for k, v in vars(a).items() if k not in ("out", "minutes", "snapshot_static", "corpus", "self_mine_steps",
                                                         "self_neg", "self_top", "self_pool")}
    done = [k for k in a.self_mine_steps_list if k <= upto]
    d.update(prepared=cache_key, mined_at=done, self_top=a.self_top, self_pool=a.self_pool, self_neg=a.self_neg if len(done) > 1 else None,
             version=1)
    return hashlib.sha1(json.dumps(d, sort_keys=True).encode()).hexdigest()[:16]


def self_mine(a, enc, vocab, files, prefix_ids, next_pairs, source_files, step):
    """Re-mine every next-fragment query's hard negative with the current encoder (hard_negatives.mine_dense)."""
    def embed(seqs, max_len):
        out = np.zeros((len(seqs), a.dim), dtype=np.float32)
        order = sorted(range(len(seqs)), key=lambda i: len(seqs[i]))
        with torch.no_grad():
            for c0 in range(0, len(order), 1024):
                idx = order[c0:c0 + 1024]
                ids, m = pad([seqs[i] for i in idx], max_len)
                out[idx] = enc(ids, m).numpy()
        return out

    enc.eval()
    mrng = random.Random(a.seed + 7 + step)
    keep = bm25_term_mask(vocab)
    negs, same = {}, 0
    for src in sorted(next_pairs):
        P = next_pairs[src]
        fids = sorted({fi for fi, _, _, _, _ in P})
        # candidates: every file of the source, as for the BM25 miner (files without pairs included)
        src_files = sorted(set(fids) | set(source_files.get(src, [])))
        negs[src] = hn.mine_dense(files, prefix_ids, src_files, [(fi, q, p) for fi, q, p, _, _ in P],
                                  lambda x: embed(x, a.doc_tokens), lambda x: embed(x, a.query_tokens), mrng, top=a.self_top,
                                  bm25_pool=a.self_pool, vocab_size=len(keep), keep=keep)
        same += sum(1 for r, n in zip(P, negs[src]) if n is not None and n == r[4])
    enc.train()
    total = sum(map(len, negs.values()))
    found = sum(1 for v in negs.values() for n in v if n is not None)
    return negs, {"step": step, "queries": total, "mined": found, "same_as_bm25": same}


def train(a, vocab, tok, files, prefix_ids, next_pairs, doc_pairs, call_pairs, stats, rng, t_start, cache_key=""):

    B = a.batch
    nsrc = [s for s in next_pairs if len(next_pairs[s]) >= B]
    dsrc = [s for s in doc_pairs if len(doc_pairs[s]) >= 2 * B]
    csrc = [s for s in call_pairs if len(call_pairs[s]) >= 2 * B]
    cw = np.array([math.sqrt(len(call_pairs[s])) for s in csrc]); cw /= cw.sum()
    nw = np.array([math.sqrt(len(next_pairs[s])) for s in nsrc]); nw /= nw.sum()
    dw = np.array([math.sqrt(len(doc_pairs[s])) for s in dsrc]); dw /= dw.sum()
    nprng = np.random.default_rng(a.seed)

    def chunk(fi, span):
        """A fragment as the engine embeds it: path prefix, then its lines."""
        return np.concatenate([prefix_ids[fi], files[fi].span(*span)])

    # files are prepared source by source (sorted), so each source's files are one contiguous range
    source_files, o = {}, 0
    for src, st in stats["sources"].items():
        source_files[src] = range(o, o + st["files"])
        o += st["files"]
    assert o == len(files)
    self_negs = None  # source -> self-mined negative per next-fragment pair, once --self-mine-steps has passed
    # --residual-bm25: BM25 statistics per package, over its 20-line grid fragments (the engine's chunk shape)
    keep = bm25_term_mask(vocab)
    bm25_stats = {}

    def residual(src, q, d):
        """The batch's BM25 logits offset (queries x documents), or None."""
        if a.residual_bm25 <= 0:
            return None
        if src not in bm25_stats:
            _, bags = hn.grid_fragments(files, prefix_ids, source_files[src])
            bm25_stats[src] = hn.bm25_stats(bags, len(vocab), keep)
        S = hn.bm25_scores(q, d, len(vocab), keep, *bm25_stats[src])
        z = (S - S.mean(axis=1, keepdims=True)) / (S.std(axis=1, keepdims=True) + 1e-6)
        return torch.from_numpy((a.residual_bm25 * z).astype(np.float32))

    def next_batch():
        # query: the path-prefixed last lines before the cursor; documents: the next 20 lines, then per
        # query one BM25-mined hard negative of the same package, then one other fragment of its own file
        # (with self-mined negatives: those too, next to or instead of the BM25 ones)
        src = nsrc[nprng.choice(len(nsrc), p=nw)]
        idx = rng.sample(range(len(next_pairs[src])), B)  # same draws as sampling the rows themselves
        rows = [next_pairs[src][i] for i in idx]
        q = [chunk(fi, qr) for fi, qr, _, _, _ in rows]
        d = [chunk(fi, pr) for fi, _, pr, _, _ in rows]
        if self_negs is not None:
            sn = [self_negs[src][i] for i in idx]
            if a.self_neg == "add":
                d += [chunk(*(h if h is not None else (fi, nr))) for fi, _, _, nr, h in rows]
            d += [chunk(*(m if m is not None else h if h is not None else (fi, nr))) for (fi, _, _, nr, h), m in zip(rows, sn)]
        else:
            d += [chunk(*(h if h is not None else (fi, nr))) for fi, _, _, nr, h in rows]
        d += [chunk(fi, nr) for fi, _, _, nr, _ in rows]
        return q, d, residual(src, q, d)

    def doc_batch():
        src = dsrc[nprng.choice(len(dsrc), p=dw)]
        rows = rng.sample(doc_pairs[src], 2 * B)
        if rng.random() < a.reverse_frac:
            # code -> its own doc comment, against the docs of the batch and the code of other functions
            return [r[1] for r in rows[:B]], [r[0] for r in rows[:B]] + [r[1] for r in rows[B:]]
        return [r[0] for r in rows[:B]], [r[1] for r in rows[:B]] + [r[1] for r in rows[B:]]  # second half: extra negatives

    def call_batch():
        src = csrc[nprng.choice(len(csrc), p=cw)]
        seen, rows = set(), []
        for r in rng.sample(call_pairs[src], min(len(call_pairs[src]), 4 * B)):
            if (r[0], r[1]) not in seen:  # one row per definition, so no definition is another row's negative
                seen.add((r[0], r[1]))
                rows.append(r)
            if len(rows) == 2 * B:
                break
        h = len(rows) // 2
        defs = [chunk(fi, ds) for fi, ds, _, _ in rows]
        calls = [chunk(fj, cs) for _, _, fj, cs in rows]
        if rng.random() < a.reverse_frac:
            # call site -> the called definition, against other definitions
            return calls[:h], defs
        # definition -> a call site, against other functions' call sites and other definitions
        return defs[:h], calls + defs[h:]

    enc = CodeEncoder(len(vocab), a.dim, a.arch, kernel=a.kernel, query_head=bool(a.query_head), mix_rank=a.mix_rank)
    if a.text_prior:
        enc.set_text_prior(*load_text_prior(a.text_prior, len(vocab), a.text_prior_dims))
        print(f"text prior: {a.text_prior_dims} columns from {a.text_prior}", flush=True)
    enc.mixing = a.arch == "static" or a.static_steps <= 0
    if a.arch == "asym" and a.static_steps <= 0:
        enc.switch_on_query_table()
    opt = torch.optim.Adam(enc.parameters(), lr=a.lr)
    t_train, losses, step = time.time(), [], 0
    mine_at = set(a.self_mine_steps_list)
    mining_stats, resumed, first = [], 0, 1
    # resume from the latest cached self-mining state, if any
    for k in sorted(mine_at, reverse=True):
        cf = os.path.join(os.path.dirname(a.corpus), f"selfneg-{self_mine_key(a, cache_key, k)}.pkl")
        if os.path.exists(cf):
            with open(cf, "rb") as f:
                st = pickle.load(f)
            enc.load_state_dict(st["enc"])
            opt.load_state_dict(st["opt"])
            rng.setstate(st["rng"])
            nprng.bit_generator.state = st["nprng"]
            losses, self_negs, mining_stats, resumed = st["losses"], st["negs"], st["mining"], k
            first = k + 1
            for g in opt.param_groups:  # the decayed lr as it was after step k
                g["lr"] = st["lr"]
            print(f"resumed after step {k} from {cf}", flush=True)
            break
    for step in range(first, a.steps + 1):
        if step - 1 in mine_at and step - 1 > resumed:
            t0 = time.time()
            self_negs, ms = self_mine(a, enc, vocab, files, prefix_ids, next_pairs, source_files, step - 1)
            ms["seconds"] = round(time.time() - t0, 1)
            mining_stats.append(ms)
            print(f"step {step - 1}: self-mined negatives {ms}", flush=True)
            cf = os.path.join(os.path.dirname(a.corpus), f"selfneg-{self_mine_key(a, cache_key, step - 1)}.pkl")
            with open(cf, "wb") as f:
                pickle.dump({"enc": enc.state_dict(), "opt": opt.state_dict(), "rng": rng.getstate(),
                             "nprng": nprng.bit_generator.state, "losses": losses, "negs": self_negs,
                             "mining": mining_stats, "lr": opt.param_groups[0]["lr"]}, f, protocol=4)
        if not enc.mixing and step > a.static_steps:
            if a.snapshot_static:
                os.makedirs(a.snapshot_static, exist_ok=True)
                ct.save(tok, a.snapshot_static)
                export_onnx(enc, os.path.join(a.snapshot_static, "model.onnx"))
                enc.train()
            enc.mixing = True
            if a.arch == "asym":
                enc.switch_on_query_table()
                print(f"step {step}: query table on", flush=True)
            else:
                print(f"step {step}: token-mixing block on", flush=True)
        u = rng.random()
        offset = None
        if dsrc and u < a.doc_frac:
            q, d = doc_batch()
        elif csrc and u < a.doc_frac + a.call_frac:
            q, d = call_batch()
        else:
            q, d, offset = next_batch()
        qi, qm = pad(q, a.query_tokens)
        di, dm = pad(d, a.doc_tokens)
        dv = enc(di, dm)
        labels = torch.arange(len(q))
        logits = enc(qi, qm, query=a.arch == "asym") @ dv.T / a.tau
        loss = F.cross_entropy(logits if offset is None else logits + offset, labels)
        if enc.qhead is not None:
            qlogits = enc(qi, qm, query=True) @ dv.T / a.tau
            loss = loss + F.cross_entropy(qlogits if offset is None else qlogits + offset, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            enc.emb.weight[0].zero_()
            if enc.qemb is not None:
                enc.qemb.weight[0].zero_()
        losses.append(loss.item())
        if step % 50 == 0:
            el = time.time() - t_train
            print(f"step {step} loss {np.mean(losses[-50:]):.3f} ({el:.0f}s)", flush=True)
            if el > a.minutes * 60:
                break
        # cosine-free linear decay over the last 30% of steps
        if step > 0.7 * a.steps:
            for g in opt.param_groups:
                g["lr"] = a.lr * max(0.05, (a.steps - step) / (0.3 * a.steps))

    os.makedirs(a.out, exist_ok=True)
    ct.save(tok, a.out)
    wrap = export_onnx(enc, os.path.join(a.out, "model.onnx"))
    write_parity_sample(wrap, tok, files, os.path.join(os.path.dirname(a.corpus), "parity-sample.json"))
    with open(os.path.join(a.out, "config.json"), "w") as f:
        json.dump({"model_type": "reporecall-code", "architecture": a.arch, "hidden_size": a.dim + (a.text_prior_dims if a.text_prior else 0), "vocab_size": len(vocab),
                   "pad_token_id": ct.PAD_ID, "pooling": "mean", "normalize": True,
                   "outputs": ["sentence_embedding"] + (["query_embedding"] if a.query_head or a.arch == "asym" else []),
                   "max_query_tokens": a.query_tokens, "max_document_tokens": a.doc_tokens,
                   "query_truncation": "keep_last", "document_truncation": "keep_first"}, f, indent=1)
    args = dict(vars(a))
    args.pop("self_mine_steps_list", None)
    if getattr(enc, "prior", None) is not None:
        stats["text_prior_scale"] = float(enc.prior_scale.detach())
    stats.update({"args": args, "steps_done": step, "self_mining": mining_stats,
                  "resumed_after_step": resumed or None, "final_loss": float(np.mean(losses[-50:])),
                  "train_seconds": round(time.time() - t_train), "total_seconds": round(time.time() - t_start),
                  "vocab": len(vocab), "next_pairs": sum(map(len, next_pairs.values())),
                  "doc_pairs": sum(map(len, doc_pairs.values())),
                  "call_pairs": sum(map(len, call_pairs.values()))})
    with open(os.path.join(a.out, "training-stats.json"), "w") as f:
        json.dump(stats, f, indent=1)
    # The product runs the model in Node: check that it reproduces torch's token ids and vectors.
    here = os.path.dirname(os.path.abspath(__file__))
    subprocess.run(["node", os.path.join(here, "check-parity.mjs"), a.out,
                    os.path.join(os.path.dirname(a.corpus), "parity-sample.json")], check=True)
    print(f"wrote {a.out} (model.onnx {os.path.getsize(os.path.join(a.out, 'model.onnx')) / 1e6:.1f} MB); "
          f"total {time.time() - t_start:.0f}s", flush=True)


if __name__ == "__main__":
    main()
