// Reads ranked candidate lists from a team index. Only a query's terms, its vector and the ids
// (with their scores and line ranges) cross the wire; no file contents are sent either way.
//
// BM25 is the local engine's (lexical/bm25.ts) computed by the server: the same statistics (live
// documents of the committed generation, their term counts as lengths, df per term), the same
// idf (ln(1 + (N - df + 0.5) / (df + 0.5)) × query tf), the same k1 and b, the same query-term
// budget, and each document's score summed term by term in the engine's order (rarest first) so
// the floating-point sums are the same numbers. The client computes the query terms' weights
// from df and N (a few numbers per term) with the engine's own formula; the server scores.
// Ties go to the lower id, as locally: a team index written in one run numbers chunks in the
// engine's order. The dense list is pgvector's cosine search (HNSW) over the stored vectors.
import type { Client } from 'pg';
import { DEFAULT_MAX_QUERY_POSTINGS } from '../lexical/bm25Segments';
import type { DocInfo } from '../retrieve/hybrid';
import type { ChunkKind } from '../types';
import { TermStatsCache, teamBm25 } from './bm25Sql';
import { connectTeam, describePgError, TeamIndexError, type ConnectOptions } from './connection';
import { checkSchema, hasVectorTable, SCHEMA, vectorTable } from './schema';
import { vectorLiteral } from './schema';
import { l2Normalise } from '../embed/pooling';
import { Int8Scorer } from '../vector/int8Kernel';

const scorers = new Map<number, Int8Scorer>();

/** The engine's query quantisation (Int8Scorer.setQuery, on the unit query VectorIndex.search scores with). */
function engineQuery(vec: Float32Array, dim: number): { q16: number[]; queryScale: number } {
  let scorer = scorers.get(dim);
  if (!scorer) scorers.set(dim, (scorer = new Int8Scorer(dim, true)));
  scorer.setQuery(l2Normalise(Float32Array.from(vec)));
  const s = scorer as unknown as { q16: Int16Array; queryScale: number };
  return { q16: Array.from(s.q16), queryScale: s.queryScale };
}

export type TeamField = 'lexical' | 'normalized';

export interface TeamListRequest {
  /** The list's name in the fusion (bm25, recent, normalized). */
  name: string;
  field: TeamField;
  terms: string[];
}

export interface TeamSearchRequest {
  lexical: TeamListRequest[];
  /** Names near the cursor, most recent first (the `symbol` signal). */
  identifiers?: string[];
  /** Query vector (the dense signal), when the caller has one and the index stores vectors. */
  vector?: Float32Array;
  /** Chunks of this file overlapping [from, to] are left out (what the user is typing or sees). */
  exclude?: { file: string; from: number; to: number };
  /** Chunks of these files are left out (the editor's overlay answers for them: team/overlay.ts). */
  excludePaths?: string[];
  /** Candidates per list. Default 100. */
  depth?: number;
  /** MaxScore pruning of the lexical lists (bm25Sql.ts); false scores every posting. Default true. */
  prune?: boolean;
  /** The lexical work budget (Bm25Options.maxQueryPostings). */
  maxQueryPostings?: number;
  /** Documents defining a name more often than this are no lead (hybrid.ts MAX_DEFINITIONS_PER_NAME). */
  maxDefinitions?: number;
}

export interface TeamLists {
  generation: number;
  /** [name, ranked ids] per list that ran. */
  lists: Map<string, number[]>;
  /** The scores behind the scored lists (BM25, cosine). */
  values: Map<string, Map<number, number>>;
}

export interface TeamRepoInfo {
  id: number;
  generation: number;
  modelId: string | null;
  dim: number;
  nDocs: number;
  lenLexical: number;
  lenNormalized: number;
  hasVectors: boolean;
}

export class TeamIndexReader {
  private client: Client | undefined;
  /** Term statistics of the committed generation, between queries (bm25Sql.ts). */
  private readonly termStats = new TermStatsCache();

  private constructor(
    private readonly url: string,
    readonly repo: string,
    private readonly opts: ConnectOptions,
  ) {}

  /** Connects and checks the schema and the repository; errors are TeamIndexErrors. */
  static async open(url: string, repo: string, opts: ConnectOptions = {}): Promise<TeamIndexReader> {
    const r = new TeamIndexReader(url, repo, opts);
    await r.run(async () => undefined);
    return r;
  }

  /**
   * Drops the connection at once, without waiting for the server (one that hangs would never
   * answer a clean close); a query in flight fails, and the next call connects again.
   */
  abandon(): void {
    const c = this.client as (Client & { connection?: { stream?: { destroy(): void } } }) | undefined;
    this.client = undefined;
    c?.connection?.stream?.destroy();
    void c?.end().catch(() => undefined);
  }

  async close(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    await c?.end().catch(() => undefined);
  }

  /**
   * Runs `fn` in one read-only REPEATABLE READ transaction (one snapshot: one committed
   * generation throughout). A lost connection is reported, and the next call connects again.
   */
  private async run<T>(fn: (c: Client, repo: TeamRepoInfo) => Promise<T>): Promise<T> {
    let c = this.client;
    try {
      if (!c) {
        c = await connectTeam(this.url, this.opts);
        await checkSchema(c);
        this.client = c;
      }
      await c.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      try {
        const info = await this.repoInfo(c);
        const out = await fn(c, info);
        await c.query('COMMIT');
        return out;
      } catch (e) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw e;
      }
    } catch (e) {
      const err = describePgError(e, this.url);
      if (err.code === 'connection-lost' || err.code === 'unreachable' || err.code === 'timeout' || err.code === 'server') {
        this.client = undefined;
        await c?.end().catch(() => undefined);
      }
      throw err;
    }
  }

  private async repoInfo(c: Client): Promise<TeamRepoInfo> {
    const r = await c.query(`SELECT id, generation, model_id, dim, n_docs, len_lexical, len_normalized FROM ${SCHEMA}.repo WHERE name = $1`, [this.repo]);
    if (!r.rows.length || Number(r.rows[0].generation) === 0) throw new TeamIndexError(`the team index holds no commit of repository ${this.repo}`, 'no-repo');
    const x = r.rows[0];
    const dim = Number(x.dim);
    return {
      id: x.id, generation: Number(x.generation), modelId: x.model_id, dim, nDocs: Number(x.n_docs),
      lenLexical: Number(x.len_lexical), lenNormalized: Number(x.len_normalized), hasVectors: !!x.model_id && (await hasVectorTable(c, dim)),
    };
  }

  /** The repository's committed state (generation, model, BM25 statistics). */
  info(): Promise<TeamRepoInfo> {
    return this.run(async (_c, info) => info);
  }

  /**
   * Ranked candidate lists for a query, all read from one committed generation. `select` (the
   * caller's fusion) picks the ids whose line ranges it wants: they are read in the same snapshot,
   * so a commit landing meanwhile cannot take them away.
   */
  search(req: TeamSearchRequest, select?: (lists: TeamLists) => number[]): Promise<TeamLists & { docs: Map<number, DocInfo> }> {
    return this.run(async (c, info) => {
      const lists = await this.lists(c, info, req);
      const ids = select?.(lists) ?? [];
      return { ...lists, docs: ids.length ? await this.docsIn(c, info, ids) : new Map() };
    });
  }

  private async lists(c: Client, info: TeamRepoInfo, req: TeamSearchRequest): Promise<TeamLists> {
    const depth = req.depth ?? 100;
    const lists = new Map<string, number[]>();
    const values = new Map<string, Map<number, number>>();
    let excluded: number[] = [];
    const paths = req.excludePaths ?? [];
    if (req.exclude || paths.length) {
      const e = req.exclude ?? { file: '', from: 0, to: -1 };
      excluded = (await c.query(
        `SELECT id FROM ${SCHEMA}.chunk WHERE repo = $1 AND gen <= $2 AND ((path = $3 AND end_line >= $4 AND start_line <= $5) OR path = ANY($6::text[]))`,
        [info.id, info.generation, e.file, e.from, e.to, paths],
      )).rows.map((r) => Number(r.id));
    }
    for (const l of req.lexical) {
      const scored = await teamBm25(c, info, l, depth, excluded, req.maxQueryPostings ?? DEFAULT_MAX_QUERY_POSTINGS, req.prune !== false, req.prune === false ? undefined : this.termStats);
      lists.set(l.name, scored.map((s) => s.id));
      values.set(l.name, new Map(scored.map((s) => [s.id, s.score])));
    }
    if (req.identifiers?.length) lists.set('symbol', await this.symbols(c, info, req.identifiers, depth, new Set(excluded), req.maxDefinitions ?? 4));
    if (req.vector && info.hasVectors && req.vector.length === info.dim) {
      // As Engine.retrieve (which always filters): twice the depth, then filtered; the cosines of
      // all of them count in the fusion's score term.
      const want = depth * 2;
      // Candidates from pgvector's HNSW index (cosine on the float vectors), twice as many as
      // wanted and at least 200, then scored as the engine's vector index scores (the query as
      // int16, the stored int8 record, exact integer sums, the same float products), so the
      // dense list and its cosines equal a local index's. ef_search bounds what HNSW returns;
      // other repositories' rows are filtered after it, so pgvector 0.8's iterative scan goes on
      // until enough rows pass (a placeholder setting, ignored, on older pgvector).
      const candidates = Math.max(200, want * 2);
      await c.query(`SELECT set_config('hnsw.ef_search', $1, true), set_config('hnsw.iterative_scan', 'relaxed_order', true)`, [String(Math.min(1000, candidates))]);
      const { q16, queryScale } = engineQuery(req.vector, info.dim);
      const r = await c.query(
        `WITH cand AS (SELECT chunk_id, q8, q8_scale FROM ${vectorTable(info.dim)} WHERE repo = $1 AND gen <= $2 ORDER BY embedding <=> $3::vector LIMIT $4)
         SELECT chunk_id AS id, ((SELECT sum(a::int * b) FROM unnest(q8, $5::int[]) AS t(a, b))::float8 * $6::float8) * q8_scale AS score
         FROM cand ORDER BY score DESC, chunk_id LIMIT $7`,
        [info.id, info.generation, vectorLiteral(req.vector), candidates, q16, queryScale, want],
      );
      const found = r.rows.map((x) => ({ id: Number(x.id), score: Number(x.score) }));
      const skip = new Set(excluded);
      values.set('dense', new Map(found.map((f) => [f.id, f.score])));
      lists.set('dense', found.map((f) => f.id).filter((id) => !skip.has(id)).slice(0, depth));
    }
    return { generation: info.generation, lists, values };
  }

  /** Line ranges and names of chunks (the hits a caller shows; it reads their text from its checkout). */
  docs(ids: number[]): Promise<Map<number, DocInfo>> {
    return this.run((c, info) => this.docsIn(c, info, ids));
  }

  private async docsIn(c: Client, info: TeamRepoInfo, ids: number[]): Promise<Map<number, DocInfo>> {
    const r = await c.query(`SELECT id, path, start_line, end_line, kind, name, defines FROM ${SCHEMA}.chunk WHERE repo = $1 AND gen <= $2 AND id = ANY($3::bigint[])`, [info.id, info.generation, ids]);
    return new Map(r.rows.map((x) => [Number(x.id), { id: Number(x.id), file: x.path, startLine: x.start_line, endLine: x.end_line, kind: x.kind as ChunkKind, ...(x.name ? { name: x.name } : {}), defines: x.defines }]));
  }

  /** Path and content hash of every file in the commit (for an editor's overlay of changed files). */
  async fileHashes(): Promise<Map<string, string>> {
    return (await this.fileHashesAt()).hashes;
  }

  /** fileHashes with the generation they belong to. */
  fileHashesAt(): Promise<{ generation: number; hashes: Map<string, string> }> {
    return this.run(async (c, info) => {
      const r = await c.query(`SELECT path, hash FROM ${SCHEMA}.file WHERE repo = $1 AND gen <= $2`, [info.id, info.generation]);
      return { generation: info.generation, hashes: new Map(r.rows.map((x) => [x.path as string, x.hash as string])) };
    });
  }

  /** HybridIndex.symbolList: definers of each name in order, names defined too often skipped. */
  private async symbols(c: Client, info: TeamRepoInfo, names: string[], depth: number, excluded: Set<number>, max: number): Promise<number[]> {
    const r = await c.query(`SELECT name, chunk_id FROM ${SCHEMA}.define WHERE repo = $1 AND gen <= $2 AND name = ANY($3::text[]) ORDER BY chunk_id, ord`, [info.id, info.generation, [...new Set(names)]]);
    const by = new Map<string, number[]>();
    for (const x of r.rows) {
      let l = by.get(x.name);
      if (!l) by.set(x.name, (l = []));
      l.push(Number(x.chunk_id));
    }
    const out: number[] = [];
    const seen = new Set<number>();
    for (const name of names) {
      const ids = by.get(name) ?? [];
      for (const id of ids.length > max ? [] : ids) {
        if (seen.has(id) || excluded.has(id)) continue;
        seen.add(id);
        out.push(id);
      }
      if (out.length >= depth) break;
    }
    return out;
  }
}
