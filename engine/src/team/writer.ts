// `reporecall index DIR --to postgres://…`: writes a repository's index into the team index.
//
// The engine itself indexes the folder (scanner with its secret deny-list, chunker, call-graph
// enrichment, embedder: the same code as a local index, into a throwaway local index) and hands
// each embedded batch to this writer (EngineTuning.onIndexed). Chunks of files whose content hash
// the team index already holds are dropped; the others are written under the next generation,
// one transaction per batch, and the last transaction swaps them in (schema.ts, "Visibility").
// One writer per repository at a time: a session advisory lock; a second writer waits up to
// `waitMs` for it, then fails with a clear message, having written nothing.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Client } from 'pg';
import { Engine, type IndexedChunk, type IndexedSink } from '../engine';
import type { DefinitionRef } from '../enrich/callgraph';
import { connectTeam, describePgError, TeamIndexError, type ConnectOptions } from './connection';
import { ensureVectorExtension, ensureVectorTable, FIELD_LEXICAL, FIELD_NORMALIZED, LOCK_NAMESPACE, migrate, SCHEMA, vectorLiteral, vectorTable } from './schema';
export { vectorLiteral };
import { fieldTermCounts } from './terms';
import { l2Normalise } from '../embed/pooling';
import { lexicalTerms } from '../lexical/tokenize';
import { recordBytes, writeRecord } from '../vector/int8Kernel';

export interface TeamWriteOptions extends ConnectOptions {
  root: string;
  url: string;
  /** Repository name in the team index (default: the folder's name). */
  repo?: string;
  modelDir?: string;
  dense?: boolean;
  secretPatterns?: string[];
  excludePatterns?: string[];
  maxFileBytes?: number;
  /** Index only files with these extensions (EngineOptions.extensions). */
  extensions?: string[];
  /** How long to wait for another writer of the same repository (ms). Default 0: fail at once. */
  waitMs?: number;
  log?: (line: string) => void;
  /**
   * A local index kept between runs (a CI cache directory): only files whose content changed since
   * are parsed and embedded. Default: a throwaway index, every file parsed.
   */
  localIndexDir?: string;
  /** Tests: called after each batch transaction has committed. */
  afterBatch?: (batch: number) => Promise<void> | void;
}

export interface TeamWriteStats {
  repo: string;
  generation: number;
  /** False when nothing changed (no new generation was written). */
  committed: boolean;
  files: number;
  changedFiles: number;
  /** Unchanged files rewritten because a callee's definitions changed (their stored enrichment was stale). */
  staleCallers: number;
  removedFiles: number;
  chunksWritten: number;
  /** Files the writer's local index parsed in this run (all of them without a kept local index). */
  parsedFiles: number;
  /** Whether vectors are stored (pgvector present and the dense signal on). */
  vectors: boolean;
  vectorNote?: string;
  seconds: number;
}

/** The advisory lock key of a repository's writer. */
async function lockKey(client: Client, repo: string): Promise<number> {
  return (await client.query('SELECT hashtext($1) AS k', [repo])).rows[0].k as number;
}

export async function writeTeamIndex(opts: TeamWriteOptions): Promise<TeamWriteStats> {
  const t0 = performance.now();
  const log = opts.log ?? (() => undefined);
  const repoName = opts.repo ?? path.basename(path.resolve(opts.root));
  const client = await connectTeam(opts.url, opts);
  const tmpIndex = opts.localIndexDir ? path.resolve(opts.localIndexDir) : fs.mkdtempSync(path.join(os.tmpdir(), 'reporecall-team-write-'));
  let locked = false;
  let engine: Engine | undefined;
  try {
    const before = await migrate(client);
    if (before === 0) log('created the team index schema');
    else if (before < 2) log(`migrated the team index schema from version ${before}`);
    const key = await lockKey(client, repoName);
    locked = (await client.query('SELECT pg_try_advisory_lock($1, $2) AS ok', [LOCK_NAMESPACE, key])).rows[0].ok;
    if (!locked && (opts.waitMs ?? 0) > 0) {
      log(`another writer is writing ${repoName}; waiting up to ${Math.round(opts.waitMs! / 1000)} s`);
      try {
        await client.query(`SET lock_timeout = ${Math.round(opts.waitMs!)}`);
        await client.query('SELECT pg_advisory_lock($1, $2)', [LOCK_NAMESPACE, key]);
        locked = true;
      } catch (e) {
        if ((e as { code?: string }).code !== '55P03') throw e;
      } finally {
        await client.query('SET lock_timeout = 0').catch(() => undefined);
      }
    }
    if (!locked) throw new TeamIndexError(`another writer is writing repository ${repoName} in the team index; nothing was written (retry later, or pass --wait SECONDS)`, 'locked');

    await client.query(`INSERT INTO ${SCHEMA}.repo (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`, [repoName]);
    const repoRow = (await client.query(`SELECT id, generation, model_id, dim FROM ${SCHEMA}.repo WHERE name = $1`, [repoName])).rows[0];
    const repoId: number = repoRow.id;
    const committedGen = Number(repoRow.generation);
    const gen = committedGen + 1;
    // Rows of a write that never committed (killed, connection lost) go first.
    await inTransaction(client, async () => {
      for (const t of ['chunk', 'file', 'definition']) await client.query(`DELETE FROM ${SCHEMA}.${t} WHERE repo = $1 AND gen > $2`, [repoId, committedGen]);
    });
    const known = new Map<string, string>();
    for (const r of (await client.query(`SELECT path, hash FROM ${SCHEMA}.file WHERE repo = $1`, [repoId])).rows) known.set(r.path, r.hash);

    const wantDense = opts.dense !== false;
    let vectorNote: string | undefined;
    let vectorsOn = false;
    if (wantDense) {
      const ext = await ensureVectorExtension(client);
      if (ext.ok) vectorsOn = true;
      else {
        vectorNote = `${ext.reason}: vectors are not stored (nothing is embedded); the team index serves the lexical and symbol signals only`;
        log(vectorNote);
      }
    }

    const seen = new Map<string, { hash: string; language: string; defs: DefinitionRef[] }>();
    const idMap = new Map<number, number>();
    let modelChecked = false;
    let model: { modelId: string; dim: number } | undefined;
    let rewriteAll = false;
    let batches = 0;
    let chunksWritten = 0;
    /** Unchanged files whose stored chunks carry callee signatures that changed: rewritten too. */
    const stale = new Set<string>();
    const sink: IndexedSink = {
      file(rel, hash, language, defs) {
        seen.set(rel, { hash, language, defs });
      },
      async chunks(items: IndexedChunk[], m) {
        if (!modelChecked) {
          modelChecked = true;
          model = vectorsOn ? m : undefined;
          const storedModel = repoRow.model_id ?? null;
          if ((model?.modelId ?? null) !== storedModel && known.size) {
            log(`the stored index was written ${storedModel ? `with model ${storedModel}` : 'without vectors'}; rewriting every file`);
            rewriteAll = true;
          }
          if (model) await ensureVectorTable(client, model.dim);
        }
        const fresh = items.filter((it) => rewriteAll || known.get(it.chunk.file) !== it.fileHash || stale.has(it.chunk.file));
        if (!fresh.length) return;
        await inTransaction(client, () => writeChunks(client, repoId, gen, fresh, model, idMap));
        chunksWritten += fresh.length;
        await opts.afterBatch?.(++batches);
      },
    };

    engine = await Engine.open(
      { root: path.resolve(opts.root), indexDir: tmpIndex, modelDir: opts.modelDir, dense: vectorsOn, secretPatterns: opts.secretPatterns, excludePatterns: opts.excludePatterns, maxFileBytes: opts.maxFileBytes, extensions: opts.extensions, log },
      { onIndexed: sink, allFields: false },
    );
    // A kept local index: its files whose hash is not the team's (changed since its last run, or
    // written there by a run that never committed) are dropped so indexAll parses and hands them over.
    let reused = 0;
    if (opts.localIndexDir) {
      for (const [rel, f] of engine.fileHashes()) {
        if (known.get(rel) === f.hash) reused++;
        else await engine.removeFile(rel);
      }
    }
    const stats = await engine.indexAll();
    // Files the kept index did not parse again are the team's as they are.
    for (const [rel, f] of engine.fileHashes()) if (!seen.has(rel)) seen.set(rel, { hash: f.hash, language: f.language, defs: [] });
    // A chunk is stored with its callees' signatures: the unchanged files that mention a name whose
    // definitions changed are indexed again and rewritten, as a clean build would enrich them.
    if (!rewriteAll && known.size) {
      for (const rel of await staleCallers(client, repoId, committedGen, known, seen)) stale.add(rel);
      await engine.reindexFiles([...stale]);
    }
    await engine.close();
    engine = undefined;
    if (rewriteAll && reused > 0) {
      // Another model than the stored one: every file is rewritten, so every file must be parsed.
      log('the kept local index cannot rewrite every file for another model; rebuilding it');
      await client.query('SELECT pg_advisory_unlock_all()');
      locked = false;
      await client.end();
      fs.rmSync(tmpIndex, { recursive: true, force: true });
      return writeTeamIndex(opts);
    }
    // A first batch may never come (no chunks at all): the model is still checked here.
    if (!modelChecked) await sink.chunks([], undefined);

    const changed = [...seen].filter(([rel, f]) => rewriteAll || known.get(rel) !== f.hash || stale.has(rel)).map(([rel]) => rel);
    const removed = [...known.keys()].filter((rel) => !seen.has(rel));
    const result: TeamWriteStats = {
      repo: repoName, generation: committedGen, committed: false, files: seen.size, changedFiles: changed.length - stale.size, staleCallers: stale.size, removedFiles: removed.length,
      chunksWritten, parsedFiles: stats.changedFiles, vectors: !!model, vectorNote, seconds: 0,
    };
    if (changed.length || removed.length || (rewriteAll && known.size)) {
      await inTransaction(client, async () => {
        const doomed = rewriteAll ? [...known.keys()] : [...changed.filter((r) => known.has(r)), ...removed];
        if (doomed.length) {
          for (const t of ['chunk', 'file', 'definition']) await client.query(`DELETE FROM ${SCHEMA}.${t} WHERE repo = $1 AND gen <= $2 AND path = ANY($3)`, [repoId, committedGen, doomed]);
        }
        if (changed.length) {
          const files = changed.map((r) => [r, seen.get(r)!] as const);
          await client.query(
            `INSERT INTO ${SCHEMA}.file (repo, path, hash, language, gen) SELECT $1, p, h, l, $2 FROM unnest($3::text[], $4::text[], $5::text[]) AS x(p, h, l)`,
            [repoId, gen, files.map((f) => f[0]), files.map((f) => f[1].hash), files.map((f) => f[1].language)],
          );
          const defs = files.flatMap(([, f]) => f.defs);
          if (defs.length) {
            await client.query(
              `INSERT INTO ${SCHEMA}.definition (repo, path, name, signature, chunk_id, gen) SELECT $1, p, n, s, c, $2 FROM unnest($3::text[], $4::text[], $5::text[], $6::bigint[]) AS x(p, n, s, c)`,
              [repoId, gen, defs.map((d) => d.file), defs.map((d) => d.name), defs.map((d) => d.signature), defs.map((d) => idMap.get(d.chunkId) ?? null)],
            );
          }
        }
        const s = (await client.query(`SELECT count(*) AS n, coalesce(sum(len_lexical), 0) AS ll, coalesce(sum(len_normalized), 0) AS ln FROM ${SCHEMA}.chunk WHERE repo = $1`, [repoId])).rows[0];
        await client.query(
          `UPDATE ${SCHEMA}.repo SET generation = $2, committed_at = now(), model_id = $3, dim = $4, n_docs = $5, len_lexical = $6, len_normalized = $7 WHERE id = $1`,
          [repoId, gen, model?.modelId ?? null, model?.dim ?? 0, s.n, s.ll, s.ln],
        );
      });
      result.generation = gen;
      result.committed = true;
      // Readers score from the postings index alone (it covers every column they read) once the
      // pages are marked all-visible; VACUUM does that for the pages this write touched.
      await client.query(`VACUUM (ANALYZE) ${SCHEMA}.posting`).catch((e) => log(`VACUUM of the postings failed (${(e as Error).message}); autovacuum will do it`));
    }
    if (stats.files === 0 && !known.size) log('no indexable files found');
    result.seconds = (performance.now() - t0) / 1000;
    return result;
  } catch (e) {
    throw describePgError(e, opts.url);
  } finally {
    await engine?.close().catch(() => undefined);
    if (!opts.localIndexDir) fs.rmSync(tmpIndex, { recursive: true, force: true });
    if (locked) await client.query('SELECT pg_advisory_unlock_all()').catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}

/**
 * Files stored unchanged whose chunks mention a name whose definitions differ between the stored
 * files that changed or left and what this run parsed of them (found through the lexical postings).
 */
async function staleCallers(client: Client, repoId: number, gen: number, known: Map<string, string>, seen: Map<string, { hash: string; defs: DefinitionRef[] }>): Promise<string[]> {
  const moved = [...known.keys()].filter((rel) => seen.get(rel)?.hash !== known.get(rel));
  if (!moved.length) return [];
  const group = (defs: Array<{ path: string; name: string; signature: string }>) => {
    const m = new Map<string, string[]>();
    for (const d of defs) m.set(`${d.path}\0${d.name}`, [...(m.get(`${d.path}\0${d.name}`) ?? []), d.signature]);
    return new Map([...m].map(([k, sigs]) => [k, JSON.stringify(sigs.sort())]));
  };
  const before = group((await client.query(`SELECT path, name, signature FROM ${SCHEMA}.definition WHERE repo = $1 AND gen <= $2 AND path = ANY($3)`, [repoId, gen, moved])).rows);
  const after = group(moved.flatMap((rel) => (seen.get(rel)?.defs ?? []).map((d) => ({ path: rel, name: d.name, signature: d.signature }))));
  const names = new Set([...before.keys(), ...after.keys()].filter((k) => before.get(k) !== after.get(k)).map((k) => k.split('\0')[1]));
  const terms = [...names].map((n) => lexicalTerms(n).pop()).filter((t): t is string => t !== undefined);
  if (!terms.length) return [];
  const rows = (await client.query(
    `SELECT DISTINCT c.path FROM ${SCHEMA}.posting p JOIN ${SCHEMA}.chunk c ON c.id = p.chunk_id WHERE p.repo = $1 AND p.field = $2 AND p.term = ANY($3) AND c.gen <= $4`,
    [repoId, FIELD_LEXICAL, terms, gen],
  )).rows as Array<{ path: string }>;
  return rows.map((r) => r.path).filter((rel) => seen.has(rel) && !moved.includes(rel)).sort();
}

async function inTransaction(client: Client, fn: () => Promise<void>): Promise<void> {
  await client.query('BEGIN');
  try {
    await fn();
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}

/** One batch: chunk rows, their postings, defined names, callees and vectors. */
async function writeChunks(client: Client, repo: number, gen: number, items: IndexedChunk[], model: { dim: number } | undefined, idMap: Map<number, number>): Promise<void> {
  const terms = items.map((it) => fieldTermCounts(it));
  const ids: number[] = (
    await client.query(
      `INSERT INTO ${SCHEMA}.chunk (repo, path, start_line, end_line, kind, name, defines, len_lexical, len_normalized, gen)
       SELECT $1, p, s, e, k, n, CASE WHEN d = '' THEN '{}'::text[] ELSE string_to_array(d, chr(1)) END, ll, ln, $2
       FROM unnest($3::text[], $4::int[], $5::int[], $6::text[], $7::text[], $8::text[], $9::int[], $10::int[]) WITH ORDINALITY AS x(p, s, e, k, n, d, ll, ln, o)
       ORDER BY o RETURNING id`,
      [
        repo, gen,
        items.map((it) => it.chunk.file), items.map((it) => it.chunk.startLine), items.map((it) => it.chunk.endLine),
        items.map((it) => it.chunk.kind), items.map((it) => it.chunk.name ?? null), items.map((it) => it.chunk.defines.join('\u0001')),
        terms.map((t) => t.lenLexical), terms.map((t) => t.lenNormalized),
      ],
    )
  ).rows.map((r) => Number(r.id));
  // RETURNING follows the insertion order, which ORDER BY o fixes: ids ascend with the engine's.
  const sorted = [...ids].sort((a, b) => a - b);
  items.forEach((it, i) => idMap.set(it.chunk.id, sorted[i]));
  const pf: number[] = [], pt: string[] = [], pc: number[] = [], ptf: number[] = [], pl: number[] = [];
  terms.forEach((t, i) => {
    for (const [term, tf] of t.lexical) { pf.push(FIELD_LEXICAL); pt.push(term); pc.push(sorted[i]); ptf.push(tf); pl.push(t.lenLexical); }
    for (const [term, tf] of t.normalized) { pf.push(FIELD_NORMALIZED); pt.push(term); pc.push(sorted[i]); ptf.push(tf); pl.push(t.lenNormalized); }
  });
  if (pt.length) {
    await client.query(
      `INSERT INTO ${SCHEMA}.posting (repo, field, term, chunk_id, tf, len, gen) SELECT $1, f, t, c, tf, l, $2 FROM unnest($3::smallint[], $4::text[], $5::bigint[], $6::int[], $7::int[]) AS x(f, t, c, tf, l)`,
      [repo, gen, pf, pt, pc, ptf, pl],
    );
  }
  const dn: string[] = [], dc: number[] = [], dord: number[] = [];
  items.forEach((it, i) => it.chunk.defines.forEach((name, j) => { dn.push(name); dc.push(sorted[i]); dord.push(j); }));
  if (dn.length) {
    await client.query(`INSERT INTO ${SCHEMA}.define (repo, name, chunk_id, ord, gen) SELECT $1, n, c, o, $2 FROM unnest($3::text[], $4::bigint[], $5::int[]) AS x(n, c, o)`, [repo, gen, dn, dc, dord]);
  }
  const en: string[] = [], ep: string[] = [], ec: number[] = [];
  items.forEach((it, i) => it.callees.forEach((c) => { en.push(c.name); ep.push(c.file); ec.push(sorted[i]); }));
  if (en.length) {
    await client.query(`INSERT INTO ${SCHEMA}.call_edge (repo, chunk_id, callee_name, callee_path, gen) SELECT $1, c, n, p, $2 FROM unnest($3::bigint[], $4::text[], $5::text[]) AS x(c, n, p)`, [repo, gen, ec, en, ep]);
  }
  if (model) {
    const withVec = items.map((it, i) => [it.vector, sorted[i]] as const).filter(([v]) => v && v.length === model.dim);
    if (withVec.length) {
      const recs = withVec.map(([v]) => engineRecord(v!, model.dim));
      await client.query(
        `INSERT INTO ${vectorTable(model.dim)} (chunk_id, repo, gen, embedding, q8, q8_scale)
         SELECT c, $1, $2, v::vector, string_to_array(q, ',')::smallint[], s FROM unnest($3::bigint[], $4::text[], $5::text[], $6::float8[]) AS x(c, v, q, s)`,
        [repo, gen, withVec.map(([, id]) => id), recs.map((r) => vectorLiteral(r.unit)), recs.map((r) => r.q8.join(',')), recs.map((r) => r.scale)],
      );
    }
  }
}

/**
 * A vector as the engine's vector index stores it (VectorIndex, cosine space): normalised to unit
 * length, then one int8 record (writeRecord: int8 values and a float32 scale).
 */
export function engineRecord(v: ArrayLike<number>, dim: number): { unit: Float32Array; q8: number[]; scale: number } {
  const unit = l2Normalise(Float32Array.from(v));
  const buf = Buffer.alloc(recordBytes(dim));
  writeRecord(buf, 0, 0, unit, dim);
  return { unit, q8: Array.from(new Int8Array(buf.buffer, buf.byteOffset + 8, dim)), scale: buf.readFloatLE(4) };
}

