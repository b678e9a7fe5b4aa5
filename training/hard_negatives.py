"""BM25-mined hard negatives (CoRet's in-repository negatives, chosen the way the engine's lexical
signal would confuse them).

The engine fuses the dense signal with BM25, so a dense model that ranks like BM25 adds nothing. For
each next-fragment query we score every 20-line fragment of the same source package with BM25 over the
same sub-token pieces the model sees, and hand the trainer one of the best-scoring fragments that is not
the positive: the model is then pushed to separate exactly what lexical overlap cannot.
"""
import numpy as np
import scipy.sparse as sp

FRAG = 20


def _bags_matrix(bags, vocab_size, keep):
    lens = np.array([len(x) for x in bags], dtype=np.int64)
    cols = np.concatenate(bags).astype(np.int64) if len(bags) else np.zeros(0, np.int64)
    rows = np.repeat(np.arange(len(bags)), lens)
    sel = keep[cols]
    m = sp.csr_matrix((np.ones(int(sel.sum()), np.float32), (rows[sel], cols[sel])), shape=(len(bags), vocab_size))
    m.sum_duplicates()
    return m


def bm25_stats(bags, vocab_size, keep):
    """The collection statistics BM25 needs: per-piece idf and the average document length."""
    m = _bags_matrix(bags, vocab_size, keep)
    n = m.shape[0]
    df = np.bincount(m.indices, minlength=vocab_size)
    idf = np.log(1 + (n - df + 0.5) / (df + 0.5)).astype(np.float32)
    return idf, max(float(np.asarray(m.sum(axis=1)).mean()), 1.0)


def bm25_weights(bags, vocab_size, keep, idf, avg, k1=1.2, b=0.75):
    """Documents x vocabulary, each entry its BM25 term weight (idf x saturated tf) under given statistics."""
    m = _bags_matrix(bags, vocab_size, keep)
    dl = np.asarray(m.sum(axis=1)).ravel()
    row_len = np.repeat(dl, np.diff(m.indptr))
    tf = m.data
    m.data = (tf * (k1 + 1) / (tf + k1 * (1 - b + b * row_len / avg)) * idf[m.indices]).astype(np.float32)
    return m


def bm25_matrix(bags, vocab_size, keep, k1=1.2, b=0.75):
    """Fragments x vocabulary, each entry its BM25 term weight, with the fragments' own statistics."""
    idf, avg = bm25_stats(bags, vocab_size, keep)
    return bm25_weights(bags, vocab_size, keep, idf, avg, k1, b)


def bm25_scores(queries, docs, vocab_size, keep, idf, avg):
    """queries x docs BM25 scores (each query piece counted once, as the engine's query terms)."""
    Q = _bags_matrix(queries, vocab_size, keep)
    Q.data[:] = 1.0
    return (Q @ bm25_weights(docs, vocab_size, keep, idf, avg).T).toarray()


def grid_fragments(files, prefix_ids, file_ids):
    """The 20-line grid fragments (fi, start, end) of the given files and their path-prefixed token ids
    (the engine's chunk shape)."""
    frags, bags = [], []
    for fi in file_ids:
        f = files[fi]
        n = len(f.starts) - 1
        for s in range(0, n, FRAG):
            e = min(n, s + FRAG)
            frags.append((fi, s, e))
            bags.append(np.concatenate([prefix_ids[fi], f.span(s, e)]))
    return frags, bags


def _select(files, frags, frag_file, frag_start, frag_end, query, s, rng, top, forbid_before, max_overlap, floor):
    """One of the `top` best-scoring fragments (scores `s`, modified in place) that obeys the exclusion
    rules, or None. Entries scoring <= `floor` are never taken."""
    fi, (q0, L), (ps, pe) = query
    bad = (frag_file == fi) & (frag_end > L - forbid_before) & (frag_start < L + FRAG)
    s[bad] = floor
    order = np.argpartition(-s, min(top * 3, len(s) - 1))[:top * 3]
    order = order[np.argsort(-s[order])]
    pos_set = set(files[fi].span(ps, pe).tolist())
    cands = []
    for j in order:
        if s[j] <= floor:
            break
        fj, a, b = frags[j]
        bag = set(files[fj].span(a, b).tolist())
        if pos_set and len(bag & pos_set) / max(1, len(bag | pos_set)) > max_overlap:
            continue
        cands.append((fj, (a, b)))
        if len(cands) >= top:
            break
    return rng.choice(cands) if cands else None


def _grid(files, prefix_ids, file_ids):
    """The source's 20-line grid fragments, their token bags, and their file / start / end as arrays; None if none."""
    frags, bags = grid_fragments(files, prefix_ids, file_ids)
    if not frags:
        return None
    return frags, bags, np.array([x[0] for x in frags]), np.array([x[1] for x in frags]), np.array([x[2] for x in frags])


def mine(files, prefix_ids, file_ids, queries, vocab_size, keep, rng, top=3, forbid_before=60, max_overlap=0.7):
    """For each query (fi, (q0, L), (L, pe)) of one source, a hard negative (fj, (s, e)) or None.

    Candidates are the 20-line grid fragments of every file of the source (path-prefixed, like the
    engine's chunks); fragments of the query's own file that overlap [L - forbid_before, L + 20) are
    excluded (protocol A excludes what the user already typed, and those overlapping the positive hold
    its lines). One of the `top` best is drawn; near-copies of the positive (token-set Jaccard above
    `max_overlap`) are skipped as likely false negatives.
    """
    grid = _grid(files, prefix_ids, file_ids)
    if grid is None or not queries:
        return [None] * len(queries)
    frags, bags, frag_file, frag_start, frag_end = grid
    D = bm25_matrix(bags, vocab_size, keep).T.tocsr()
    out = []
    CH = 256
    for c0 in range(0, len(queries), CH):
        chunk = queries[c0:c0 + CH]
        Q = _bags_matrix([np.concatenate([prefix_ids[fi], files[fi].span(*qs)]) for fi, qs, _ in chunk], vocab_size, keep)
        Q.data[:] = 1.0
        S = (Q @ D).toarray()
        for r, query in enumerate(chunk):
            out.append(_select(files, frags, frag_file, frag_start, frag_end, query, S[r], rng, top, forbid_before,
                               max_overlap, 0.0))
    return out


def mine_dense(files, prefix_ids, file_ids, queries, embed_docs, embed_queries, rng, top=3, forbid_before=60,
               max_overlap=0.7, bm25_pool=0, vocab_size=0, keep=None):
    """Self-mined (ANCE-style) hard negatives: like `mine`, with the model's own cosine instead of BM25.

    `embed_docs` / `embed_queries` map lists of token-id arrays to L2-normalised float32 matrices (the
    trainer's current encoder, with the document / query truncation it trains with). Same candidates
    (the package's 20-line grid fragments) and the same exclusion rules as the BM25 miner.

    `bm25_pool` > 0: only the query's `bm25_pool` best BM25 fragments are candidates, ranked by the model.
    The engine fuses the dense list with a small weight next to the lexical lists (reciprocal ranks), so the
    top of its result is made of lexical candidates that the dense rank reorders: the negatives that cost it
    are the fragments BM25 *and* the model both rank high.
    """
    grid = _grid(files, prefix_ids, file_ids)
    if grid is None or not queries:
        return [None] * len(queries)
    frags, bags, frag_file, frag_start, frag_end = grid
    D = embed_docs(bags)
    B = bm25_matrix(bags, vocab_size, keep).T.tocsr() if bm25_pool > 0 else None
    out = []
    CH = 512
    for c0 in range(0, len(queries), CH):
        chunk = queries[c0:c0 + CH]
        Q = embed_queries([np.concatenate([prefix_ids[fi], files[fi].span(*qs)]) for fi, qs, _ in chunk])
        S = Q @ D.T
        if B is not None:
            Qb = _bags_matrix([np.concatenate([prefix_ids[fi], files[fi].span(*qs)]) for fi, qs, _ in chunk], vocab_size, keep)
            Qb.data[:] = 1.0
            L = (Qb @ B).toarray()
            for r, (fi, (q0, Lc), _) in enumerate(chunk):
                # the query's own window and the positive do not take places in the pool
                bad = (frag_file == fi) & (frag_end > Lc - forbid_before) & (frag_start < Lc + FRAG)
                lr = L[r]
                lr[bad] = 0.0
                k = min(bm25_pool, len(lr) - 1)
                pool = np.argpartition(-lr, k)[:bm25_pool]
                keep_mask = np.zeros(len(lr), dtype=bool)
                keep_mask[pool[lr[pool] > 0]] = True
                S[r][~keep_mask] = -2.0
        for r, query in enumerate(chunk):
            out.append(_select(files, frags, frag_file, frag_start, frag_end, query, S[r], rng, top, forbid_before,
                               max_overlap, -2.0))
    return out
