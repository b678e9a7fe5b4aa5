// BM25 over the team index's postings, scored by the server exactly as Bm25Index scores (reader.ts
// says how), with MaxScore pruning so a query does not score every posting of its common terms:
//  1. one pass over the query terms' postings gives each term's df, largest tf and smallest
//     document length; the client computes the engine's weights and, per term, an upper bound of
//     its contribution (BM25 grows with tf and falls with length, so tf = max, len = min bounds it);
//  2. the rarest terms (few postings) score their documents: the k-th best of these partial
//     scores, θ, is a lower bound of the k-th best full score;
//  3. the most common terms whose bounds sum below θ cannot lift a document that has none of the
//     other ("essential") terms into the top k: only documents with an essential term are scored,
//     over all terms, in the engine's order (the same floating-point sums).
// The result equals exhaustive scoring (places, scores, ties to the lower id): team.postgres.test.ts
// and bench:team compare it with the local engine.
import type { Client } from 'pg';
import { MIN_QUERY_TERMS } from '../lexical/bm25';
import { FIELD_LEXICAL, FIELD_NORMALIZED, SCHEMA } from './schema';

/** Okapi parameters of the engine's Bm25Index (its defaults). */
export const K1 = 1.2;
export const B = 0.75;
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

/** Lexical lists scored in this process, and how many of them were pruned (tests, bench:team). */
export const pruningCounts = { lists: 0, pruned: 0 };

interface QueryTerm {
  term: string;
  df: number;
  weight: number;
  bound: number;
}

/** The engine's expression, operation for operation, summed in the query's order (q.ord). */
const SCORE = `sum((q.weight * p.tf::float8 * ($6::float8 + 1)) / (p.tf::float8 + $6::float8 * (1 - $7::float8 + ($7::float8 * p.len::float8) / $8::float8)) ORDER BY q.ord)`;

/** Bm25Index.search, with the scoring done by the server; `prune` false scores every posting (the bench's before). */
export async function teamBm25(c: Client, info: Bm25Repo, l: Bm25Request, k: number, excluded: number[], maxPostings: number, prune = true): Promise<{ id: number; score: number }[]> {
  const field = l.field === 'lexical' ? FIELD_LEXICAL : FIELD_NORMALIZED;
  const qCounts = new Map<string, number>();
  for (const t of l.terms) qCounts.set(t, (qCounts.get(t) ?? 0) + 1);
  const N = info.nDocs;
  if (qCounts.size === 0 || N === 0 || k <= 0) return [];
  const totalLen = l.field === 'lexical' ? info.lenLexical : info.lenNormalized;
  const avgLen = totalLen / N || 1;
  const stats = await c.query(
    `SELECT term, count(*) AS df, max(tf) AS max_tf, min(len) AS min_len FROM ${SCHEMA}.posting WHERE repo = $1 AND field = $2 AND gen <= $3 AND term = ANY($4::text[]) GROUP BY term`,
    [info.id, field, info.generation, [...qCounts.keys()]],
  );
  const query: QueryTerm[] = stats.rows.map((r) => {
    const df = Number(r.df);
    const weight = Math.log(1 + (N - df + 0.5) / (df + 0.5)) * qCounts.get(r.term)!;
    const tf = Number(r.max_tf);
    const bound = (weight * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * Number(r.min_len)) / avgLen));
    return { term: r.term as string, df, weight, bound };
  });
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
  const essential = prune ? await essentialTerms(c, query, k, params) : query.length;
  pruningCounts.lists++;
  if (essential < query.length) pruningCounts.pruned++;
  const sql = essential >= query.length
    ? `WITH q AS (SELECT * FROM unnest($4::text[], $5::float8[]) WITH ORDINALITY AS q(term, weight, ord))
       SELECT p.chunk_id AS id, ${SCORE} AS score
       FROM ${SCHEMA}.posting p JOIN q ON q.term = p.term
       WHERE p.repo = $1 AND p.field = $2 AND p.gen <= $3 AND NOT (p.chunk_id = ANY($9::bigint[]))
       GROUP BY p.chunk_id ORDER BY score DESC, p.chunk_id LIMIT $10`
    : `WITH q AS (SELECT * FROM unnest($4::text[], $5::float8[]) WITH ORDINALITY AS q(term, weight, ord)),
       cand AS (SELECT DISTINCT chunk_id FROM ${SCHEMA}.posting WHERE repo = $1 AND field = $2 AND gen <= $3 AND term = ANY($11::text[]) AND NOT (chunk_id = ANY($9::bigint[])))
       SELECT p.chunk_id AS id, ${SCORE} AS score
       FROM ${SCHEMA}.posting p JOIN q ON q.term = p.term
       WHERE p.repo = $1 AND p.field = $2 AND p.gen <= $3 AND p.chunk_id IN (SELECT chunk_id FROM cand)
       GROUP BY p.chunk_id ORDER BY score DESC, p.chunk_id LIMIT $10`;
  const args = essential >= query.length ? params(query) : [...params(query), query.slice(0, essential).map((q) => q.term)];
  const r = await c.query(sql, args);
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
