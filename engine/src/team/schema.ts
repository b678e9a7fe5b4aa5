// The team index's tables, in their own PostgreSQL schema `reporecall`, created and migrated by
// the writer; readers only check the version. Layout (docs/team-index.md):
//
//   meta(key, value)            schema_version
//   repo                        one row per indexed repository: its committed generation, the
//                               model behind its vectors, and the BM25 statistics of that commit
//   file(repo, path, hash, gen) content hashes: what a re-run compares against
//   chunk(id, repo, path, lines, kind, name, defines, len_*, gen)
//                               chunks by reference (path + lines; the text stays in the checkout)
//   posting(repo, field, term, chunk_id, tf, len, gen)
//                               lexical postings over the engine's own terms (field 0: the
//                               enriched chunk text, 1: normalised structure trigrams)
//   define(repo, name, chunk_id, ord, gen)   names each chunk defines (the `symbol` signal)
//   definition, call_edge       definitions with signatures, and each chunk's resolved callees
//   vec_<dim>(chunk_id, repo, gen, embedding vector(dim))  only where pgvector is installed
//
// Visibility: rows carry the generation (`gen`) of the write that added them; a reader sees
// rows with gen <= repo.generation, read in one REPEATABLE READ transaction. A write adds its rows
// under generation G+1 in batches (one transaction each), then one last transaction deletes the
// rows they replace and sets repo.generation = G+1: readers see the old commit or the new one,
// never a part. Rows of a write that never committed (gen > generation) are deleted by the next.
import type { Client } from 'pg';
import { TeamIndexError } from './connection';

export const SCHEMA = 'reporecall';
/** The layout this code reads and writes. */
export const SCHEMA_VERSION = 2;

/** Fields of `posting`. */
export const FIELD_LEXICAL = 0;
export const FIELD_NORMALIZED = 1;

/** Advisory lock keys (pg_advisory_lock(int, int)): the first is ours, the second the target. */
export const LOCK_NAMESPACE = 0x52524331; // 'RRC1'
export const MIGRATION_LOCK = 0;

/**
 * Migration steps, in order; step i takes the schema from version i to i + 1. Version 1 had the
 * retrieval tables; version 2 added definitions and call-graph edges.
 */
const MIGRATIONS: string[] = [
  `CREATE SCHEMA IF NOT EXISTS ${SCHEMA};
   CREATE TABLE ${SCHEMA}.meta (key text PRIMARY KEY, value text NOT NULL);
   CREATE TABLE ${SCHEMA}.repo (
     id serial PRIMARY KEY, name text NOT NULL UNIQUE, generation bigint NOT NULL DEFAULT 0,
     committed_at timestamptz, model_id text, dim int NOT NULL DEFAULT 0,
     n_docs bigint NOT NULL DEFAULT 0, len_lexical bigint NOT NULL DEFAULT 0, len_normalized bigint NOT NULL DEFAULT 0);
   CREATE TABLE ${SCHEMA}.file (
     repo int NOT NULL REFERENCES ${SCHEMA}.repo ON DELETE CASCADE, path text NOT NULL, hash text NOT NULL,
     language text, gen bigint NOT NULL, PRIMARY KEY (repo, path, gen));
   CREATE TABLE ${SCHEMA}.chunk (
     id bigserial PRIMARY KEY, repo int NOT NULL REFERENCES ${SCHEMA}.repo ON DELETE CASCADE, path text NOT NULL,
     start_line int NOT NULL, end_line int NOT NULL, kind text NOT NULL, name text, defines text[] NOT NULL,
     len_lexical int NOT NULL, len_normalized int NOT NULL, gen bigint NOT NULL);
   CREATE INDEX chunk_repo_path ON ${SCHEMA}.chunk (repo, path);
   CREATE TABLE ${SCHEMA}.posting (
     repo int NOT NULL, field smallint NOT NULL, term text NOT NULL,
     chunk_id bigint NOT NULL REFERENCES ${SCHEMA}.chunk ON DELETE CASCADE, tf int NOT NULL, len int NOT NULL, gen bigint NOT NULL);
   CREATE INDEX posting_term ON ${SCHEMA}.posting (repo, field, term) INCLUDE (chunk_id, tf, len, gen);
   CREATE INDEX posting_chunk ON ${SCHEMA}.posting (chunk_id);
   CREATE TABLE ${SCHEMA}.define (
     repo int NOT NULL, name text NOT NULL, chunk_id bigint NOT NULL REFERENCES ${SCHEMA}.chunk ON DELETE CASCADE,
     ord int NOT NULL, gen bigint NOT NULL);
   CREATE INDEX define_name ON ${SCHEMA}.define (repo, name);
   CREATE INDEX define_chunk ON ${SCHEMA}.define (chunk_id);`,
  `CREATE TABLE ${SCHEMA}.definition (
     repo int NOT NULL REFERENCES ${SCHEMA}.repo ON DELETE CASCADE, path text NOT NULL, name text NOT NULL,
     signature text NOT NULL, chunk_id bigint REFERENCES ${SCHEMA}.chunk ON DELETE SET NULL, gen bigint NOT NULL);
   CREATE INDEX definition_name ON ${SCHEMA}.definition (repo, name);
   CREATE INDEX definition_path ON ${SCHEMA}.definition (repo, path);
   CREATE TABLE ${SCHEMA}.call_edge (
     repo int NOT NULL, chunk_id bigint NOT NULL REFERENCES ${SCHEMA}.chunk ON DELETE CASCADE,
     callee_name text NOT NULL, callee_path text NOT NULL, gen bigint NOT NULL);
   CREATE INDEX call_edge_chunk ON ${SCHEMA}.call_edge (chunk_id);
   CREATE INDEX call_edge_callee ON ${SCHEMA}.call_edge (repo, callee_name);`,
];

/** The schema version in the database; 0 when there is none. */
export async function schemaVersion(client: Client): Promise<number> {
  const t = await client.query(`SELECT to_regclass('${SCHEMA}.meta') AS t`);
  if (!t.rows[0].t) return 0;
  const r = await client.query(`SELECT value FROM ${SCHEMA}.meta WHERE key = 'schema_version'`);
  return r.rows.length ? Number(r.rows[0].value) : 0;
}

/**
 * Creates or migrates the schema up to `target` (default: SCHEMA_VERSION), under an advisory lock
 * so two writers never migrate at once. A database newer than this code is refused.
 * Returns the version found before.
 */
export async function migrate(client: Client, target = SCHEMA_VERSION): Promise<number> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_NAMESPACE, MIGRATION_LOCK]);
    const found = await schemaVersion(client);
    if (found > SCHEMA_VERSION) {
      throw new TeamIndexError(`the team index has schema version ${found}, newer than this RepoRecall's (${SCHEMA_VERSION}); update RepoRecall`, 'schema');
    }
    for (let v = found; v < target; v++) await client.query(MIGRATIONS[v]);
    if (found < target) {
      await client.query(`INSERT INTO ${SCHEMA}.meta (key, value) VALUES ('schema_version', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, [String(target)]);
    }
    await client.query('COMMIT');
    return found;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}

/** A reader's check: the schema exists and is the version this code reads. */
export async function checkSchema(client: Client): Promise<void> {
  const v = await schemaVersion(client);
  if (v === SCHEMA_VERSION) return;
  if (v === 0) throw new TeamIndexError('the database holds no team index yet; write one with `reporecall index DIR --to URL`', 'schema');
  if (v < SCHEMA_VERSION) throw new TeamIndexError(`the team index has schema version ${v}, older than this RepoRecall reads (${SCHEMA_VERSION}); the next \`reporecall index DIR --to URL\` migrates it`, 'schema');
  throw new TeamIndexError(`the team index has schema version ${v}, newer than this RepoRecall reads (${SCHEMA_VERSION}); update RepoRecall`, 'schema');
}

/** Whether the pgvector extension is installed or can be (CREATE EXTENSION needs the privilege). */
export async function ensureVectorExtension(client: Client): Promise<{ ok: true } | { ok: false; reason: string }> {
  const avail = await client.query(`SELECT installed_version FROM pg_available_extensions WHERE name = 'vector'`);
  if (!avail.rows.length) return { ok: false, reason: 'the pgvector extension is not available on this server' };
  if (avail.rows[0].installed_version) return { ok: true };
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS vector');
    return { ok: true };
  } catch (e) {
    return { ok: false, reason: `CREATE EXTENSION vector failed: ${(e as Error).message}` };
  }
}

/** The vector table for one width (a vector(dim) column needs a fixed width), with its HNSW index. */
export function vectorTable(dim: number): string {
  return `${SCHEMA}.vec_${dim}`;
}

export async function ensureVectorTable(client: Client, dim: number): Promise<void> {
  if (!Number.isInteger(dim) || dim <= 0 || dim > 16000) throw new Error(`bad vector width ${dim}`);
  const t = vectorTable(dim);
  // embedding: the unit vector, for pgvector's HNSW search. q8 and q8_scale: the same vector as
  // the engine's vector index holds it (int8 record, vector/int8Kernel.ts), so the reader re-scores
  // HNSW's candidates with the engine's own arithmetic and the dense list equals a local index's.
  await client.query(`CREATE TABLE IF NOT EXISTS ${t} (
    chunk_id bigint PRIMARY KEY REFERENCES ${SCHEMA}.chunk ON DELETE CASCADE, repo int NOT NULL, gen bigint NOT NULL,
    embedding vector(${dim}) NOT NULL, q8 smallint[] NOT NULL, q8_scale float8 NOT NULL)`);
  await client.query(`CREATE INDEX IF NOT EXISTS vec_${dim}_hnsw ON ${t} USING hnsw (embedding vector_cosine_ops)`);
}

/** Whether the vector table for `dim` exists. */
export async function hasVectorTable(client: Client, dim: number): Promise<boolean> {
  if (!dim) return false;
  const r = await client.query(`SELECT to_regclass($1) AS t`, [vectorTable(dim)]);
  return !!r.rows[0].t;
}

/** pgvector's text form; numbers printed in full so the stored float4 equals the engine's Float32. */
export function vectorLiteral(v: ArrayLike<number>): string {
  return `[${Array.from(v).join(',')}]`;
}
