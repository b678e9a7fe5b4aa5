// BM25 over the team index's postings, scored by the server exactly as Bm25Index scores (reader.ts
// says how), without ordering and summing every matched document's postings in the engine's order:
//  1. each term's df, largest tf and smallest document length come from one pass over its
//     postings, or from the reader's cache of the committed generation's term statistics;
//  2. each posting's contribution is computed once (the engine's expression) and summed per
//     document in any order (a hash aggregate): within rounding of the exact score, so the k-th
//     best of these sums, less a relative slack far above rounding, is a threshold no document of
//     the exact top k is under;
//  3. only the documents at or above it are summed in the engine's order (the same floating-point
//     sums as the local index) and sorted, ties to the lower id.
// Optionally (bm25Tuning.essentialTerms), MaxScore's split first: per-term bounds from max tf and
// min length, θ from the rarest terms' documents, and only documents with an essential term as
// candidates. The result equals exhaustive scoring: team.postgres.test.ts and bench:team compare.
import type { Client } from 'pg';
import { MIN_QUERY_TERMS } from '../lexical/bm25';
import { BM25_B as B, BM25_K1 as K1, bm25Idf } from '../lexical/bm25Segments';
import { FIELD_LEXICAL, FIELD_NORMALIZED, SCHEMA } from './schema';

/** Relative slack on score bounds, far above floating-point summation error (as bm25.ts). */
const BOUND_SLACK = 1e-9;
/** Phase 2 scores the rarest terms until they hold this many postings (at least one term). */
const SEED_POSTINGS = 2_000;

export interface Bm25Repo {
  id: number;
  generation: number;
  nDocs: number;
  lenLexical: number;
  lenNormalized: number;
}

export interface Bm25Request {
  field: 'lexical' | 'normalized';
  terms: string[];
}

export interface TermStats {
  df: number;
  maxTf: number;
  minLen: number;
}

/**
 * Term statistics of one committed generation (they cannot change within it), kept by the reader
 * between queries: an editor's successive windows share most of their terms, so most of a
 * query's statistics come from here instead of a pass over the terms' postings. Absent terms are
 * kept too (as null).
 */
export class TermStatsCache {
  private generation = -1;
  private readonly byKey = new Map<string, TermStats | null>();
  constructor(private readonly maxEntries = 200_000) {}

  get(generation: number, field: number, term: string): TermStats | null | undefined {
    if (generation !== this.generation) return undefined;
    return this.byKey.get(`${field}\0${term}`);
  }

  set(generation: number, field: number, term: string, st: TermStats | null): void {
    if (generation !== this.generation || this.byKey.size >= this.maxEntries) {
      this.byKey.clear();
      this.generation = generation;
    }
    this.byKey.set(`${field}\0${term}`, st);
  }
}

/** df, largest tf and smallest length of each term's postings in the committed generation (null: no postings). */
async function termStats(c: Client, info: Bm25Repo, field: number, terms: string[], cache: TermStatsCache | undefined): Promise<Map<string, TermStats | null>> {
  const out = new Map<string, TermStats | null>();
  const missing: string[] = [];
  for (const t of terms) {
    const st = cache?.get(info.generation, field, t);
    if (st === undefined) missing.push(t);
    else out.set(t, st);
  }
  if (missing.length) {
    const r = await c.query(
      `SELECT term, count(*) AS df, max(tf) AS max_tf, min(len) AS min_len FROM ${SCHEMA}.posting WHERE repo = $1 AND field = $2 AND gen <= $3 AND term = ANY($4::text[]) GROUP BY term`,
      [info.id, field, info.generation, missing],
    );
    const found = new Map<string, TermStats>(r.rows.map((x) => [x.term as string, { df: Number(x.df), maxTf: Number(x.max_tf), minLen: Number(x.min_len) }]));
    for (const t of missing) {
      const st = found.get(t) ?? null;
      out.set(t, st);
      cache?.set(info.generation, field, t, st);
    }
  }
  return out;
}

/**
 * Whether the pruned query first restricts candidates to documents holding an essential term
 * (MaxScore's split, θ from the rarest terms). Off: measured slower on held-out repositories (one
 * more round trip and a semi-join for few lists it restricts; test/bench/results/2026-11-26-team-pruning-heldout.txt).
 */
export const bm25Tuning = { essentialTerms: false };

/**
 * What pruning did in this process (tests, bench:team): lists scored; lists restricted to
 * documents with an essential term; documents matched by some query term, and documents returned
 * (the exactly ordered and sorted ones are these and ties within the slack).
 */
export const pruningCounts = { lists: 0, restricted: 0, matched: 0, returned: 0 };

interface QueryTerm {
  term: string;
  df: number;
  weight: number;
  bound: number;
}

/** The engine's expression, operation for operation, summed in the query's order (q.ord). */
export const SCORE = `sum((q.weight * p.tf::float8 * ($6::float8 + 1)) / (p.tf::float8 + $6::float8 * (1 - $7::float8 + ($7::float8 * p.len::float8) / $8::float8)) ORDER BY q.ord)`;

/** Every posting of every query term scored, grouped and sorted (the team index before pruning). */
const EXHAUSTIVE = `WITH q AS (SELECT * FROM unnest($4::text[], $5::float8[]) WITH ORDINALITY AS q(term, weight, ord))
  SELECT p.chunk_id AS id, ${SCORE} AS score
  FROM ${SCHEMA}.posting p JOIN q ON q.term = p.term
  WHERE p.repo = $1 AND p.field = $2 AND p.gen <= $3 AND NOT (p.chunk_id = ANY($9::bigint[]))
  GROUP BY p.chunk_id ORDER BY score DESC, p.chunk_id LIMIT $10`;

/** Relative slack between a document's score summed in any order and in the engine's (far above rounding). */
const APPROX_SLACK = 1e-9;

/**
 * The pruned query: each posting's contribution computed once (the engine's expression); an
 * unordered (hash) sum per document, whose k-th best, less the slack, bounds the k-th best exact
 * score from below; only the documents at or above it are summed in the engine's order and sorted.
 * `restricted`: only documents holding an essential term ($11) are candidates.
 */
function twoPass(restricted: boolean): string {
  const CONTRIB = `(q.weight * p.tf::float8 * ($6::float8 + 1)) / (p.tf::float8 + $6::float8 * (1 - $7::float8 + ($7::float8 * p.len::float8) / $8::float8))`;
  return `WITH q AS (SELECT * FROM unnest($4::text[], $5::float8[]) WITH ORDINALITY AS q(term, weight, ord)),
  j AS MATERIALIZED (
    SELECT p.chunk_id, q.ord, ${CONTRIB} AS x
    FROM ${SCHEMA}.posting p JOIN q ON q.term = p.term
    WHERE p.repo = $1 AND p.field = $2 AND p.gen <= $3 AND NOT (p.chunk_id = ANY($9::bigint[]))
    ${restricted ? `AND p.chunk_id IN (SELECT chunk_id FROM ${SCHEMA}.posting WHERE repo = $1 AND field = $2 AND gen <= $3 AND term = ANY($11::text[]))` : `AND cardinality($11::text[]) = 0`}),
  s AS MATERIALIZED (SELECT chunk_id, sum(x) AS approx FROM j GROUP BY chunk_id),
  kth AS (SELECT approx FROM s ORDER BY approx DESC LIMIT 1 OFFSET $10 - 1)
  SELECT j.chunk_id AS id, sum(j.x ORDER BY j.ord) AS score, (SELECT count(*) FROM s) AS matched
  FROM j WHERE j.chunk_id IN (SELECT chunk_id FROM s WHERE approx >= coalesce((SELECT approx FROM kth), 0) * (1 - $12::float8))
  GROUP BY j.chunk_id ORDER BY score DESC, j.chunk_id LIMIT $10`;
}

/** Bm25Index.search, with the scoring done by the server; `prune` false scores every posting (the bench's before). */
export async function teamBm25(c: Client, info: Bm25Repo, l: Bm25Request, k: number, excluded: number[], maxPostings: number, prune = true, cache?: TermStatsCache): Promise<{ id: number; score: number }[]> {
  const field = l.field === 'lexical' ? FIELD_LEXICAL : FIELD_NORMALIZED;
  const qCounts = new Map<string, number>();
  for (const t of l.terms) qCounts.set(t, (qCounts.get(t) ?? 0) + 1);
  const N = info.nDocs;
  if (qCounts.size === 0 || N === 0 || k <= 0) return [];
  const totalLen = l.field === 'lexical' ? info.lenLexical : info.lenNormalized;
  const avgLen = totalLen / N || 1;
  const stats = await termStats(c, info, field, [...qCounts.keys()], cache);
  const query: QueryTerm[] = [];
  for (const [term, st] of stats) {
    if (!st) continue;
    const weight = bm25Idf(N, st.df) * qCounts.get(term)!;
    const bound = (weight * st.maxTf * (K1 + 1)) / (st.maxTf + K1 * (1 - B + (B * st.minLen) / avgLen));
    query.push({ term, df: st.df, weight, bound });
  }
  if (!query.length) return [];
  // Rare terms first, ties by the term's bytes (the engine's dictionary order).
  query.sort((x, y) => y.weight - x.weight || Buffer.compare(Buffer.from(x.term), Buffer.from(y.term)));
  let postings = 0;
  for (let t = 0; t < query.length; t++) {
    postings += query[t].df;
    if (postings > maxPostings && t >= MIN_QUERY_TERMS) {
      query.length = t;
      break;
    }
  }
  const params = (terms: QueryTerm[]) => [info.id, field, info.generation, terms.map((q) => q.term), terms.map((q) => q.weight), K1, B, avgLen, excluded, k];
  const essential = prune && bm25Tuning.essentialTerms ? await essentialTerms(c, query, k, params) : query.length;
  pruningCounts.lists++;
  if (essential < query.length) pruningCounts.restricted++;
  const restricted = essential < query.length;
  const sql = !prune ? EXHAUSTIVE : twoPass(restricted);
  const args = restricted ? [...params(query), query.slice(0, essential).map((q) => q.term), APPROX_SLACK] : prune ? [...params(query), [], APPROX_SLACK] : params(query);
  const r = await c.query(sql, args);
  if (prune && r.rows.length) {
    pruningCounts.matched += Number(r.rows[0].matched);
    pruningCounts.returned += r.rows.length;
  }
  return r.rows.map((x) => ({ id: Number(x.id), score: Number(x.score) }));
}

/**
 * How many of the query's terms (rarest first) are essential: a document with none of them scores
 * at most the sum of the others' bounds, kept below θ, the k-th best partial score of the rarest
 * terms' documents. All of them when θ cannot be had (fewer than k documents) or prunes nothing.
 */
async function essentialTerms(c: Client, query: QueryTerm[], k: number, params: (terms: QueryTerm[]) => unknown[]): Promise<number> {
  // Suffix sums of the bounds: rest[i] bounds what terms i.. can add.
  const rest = new Array<number>(query.length + 1).fill(0);
  for (let i = query.length - 1; i >= 0; i--) rest[i] = rest[i + 1] + query[i].bound;
  let seed = 0;
  for (let postings = 0; seed < query.length && (seed === 0 || postings + query[seed].df <= SEED_POSTINGS); seed++) postings += query[seed].df;
  if (seed >= query.length) return query.length;
  const r = await c.query(
    `WITH q AS (SELECT * FROM unnest($4::text[], $5::float8[]) WITH ORDINALITY AS q(term, weight, ord))
     SELECT ${SCORE} AS score
     FROM ${SCHEMA}.posting p JOIN q ON q.term = p.term
     WHERE p.repo = $1 AND p.field = $2 AND p.gen <= $3 AND NOT (p.chunk_id = ANY($9::bigint[]))
     GROUP BY p.chunk_id ORDER BY score DESC LIMIT $10`,
    params(query.slice(0, seed)),
  );
  if (r.rows.length < k) return query.length;
  const theta = Number(r.rows[r.rows.length - 1].score);
  let essential = query.length;
  while (essential > 0 && rest[essential - 1] * (1 + BOUND_SLACK) < theta) essential--;
  return Math.max(essential, 1);
}
