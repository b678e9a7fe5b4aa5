// The team index's tables, in their own PostgreSQL schema `reporecall`, created and migrated by
// the publisher; readers only check the version. Layout (docs/team-index.md):
//
//   meta(key, value)                       schema_version
//   repo(id, name)                         one row per published repository; every other row is
//                                          scoped to one (a repository's rows go with it)
//   segment(repo, sha256, bytes, parts)    an index file, content-addressed by its sha256...
//   segment_part(repo, sha256, part, data) ...as bytea parts of at most PART_BYTES, in order
//   published(repo, commit, manifest, model_id, dim, format, fields, ...)
//                                          the commit point: a local index's manifest.json as
//                                          published for one git commit
//   published_file(repo, commit, name, sha256)
//                                          the files that manifest lists (a foreign key to
//                                          segment: a commit never names a segment the store lacks)
//
// Visibility: a segment's row and its parts are written in one transaction, and a commit's
// published row with its file rows in one more, after every segment is in: a reader sees a
// published commit whole or not at all, and a publisher killed at any point leaves no commit.
// Versions 1 and 2 held the retired per-posting search (one row per chunk, term and field);
// version 3 drops those tables.
import type { Client } from 'pg';
import { TeamIndexError } from './connection';

export const SCHEMA = 'reporecall';
/** The layout this code reads and writes. */
export const SCHEMA_VERSION = 3;
/** Largest part of a segment in the store (a bytea value per row; bounds a reader's and a writer's memory). */
export const PART_BYTES = 4 << 20;

/** Advisory lock keys (pg_advisory_lock(int, int)): the first is ours, the second the target. */
export const LOCK_NAMESPACE = 0x52524331; // 'RRC1'
export const MIGRATION_LOCK = 0;

/**
 * Migration steps, in order; step i takes the schema from version i to i + 1. Version 1 had the
 * per-posting retrieval tables; version 2 added definitions and call-graph edges; version 3
 * replaced them with published segment files.
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
  `DO $$ DECLARE t text; BEGIN
     FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = '${SCHEMA}' AND tablename LIKE 'vec\\_%' LOOP
       EXECUTE format('DROP TABLE ${SCHEMA}.%I CASCADE', t);
     END LOOP; END $$;
   DROP TABLE IF EXISTS ${SCHEMA}.call_edge, ${SCHEMA}.definition, ${SCHEMA}.define, ${SCHEMA}.posting, ${SCHEMA}.chunk, ${SCHEMA}.file CASCADE;
   ALTER TABLE ${SCHEMA}.repo DROP COLUMN IF EXISTS generation, DROP COLUMN IF EXISTS committed_at, DROP COLUMN IF EXISTS model_id,
     DROP COLUMN IF EXISTS dim, DROP COLUMN IF EXISTS n_docs, DROP COLUMN IF EXISTS len_lexical, DROP COLUMN IF EXISTS len_normalized;
   CREATE TABLE ${SCHEMA}.segment (
     repo int NOT NULL REFERENCES ${SCHEMA}.repo ON DELETE CASCADE, sha256 text NOT NULL,
     bytes bigint NOT NULL, parts int NOT NULL, uploaded_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (repo, sha256));
   CREATE TABLE ${SCHEMA}.segment_part (
     repo int NOT NULL, sha256 text NOT NULL, part int NOT NULL, data bytea NOT NULL,
     PRIMARY KEY (repo, sha256, part),
     FOREIGN KEY (repo, sha256) REFERENCES ${SCHEMA}.segment ON DELETE CASCADE);
   -- Index files are dense binary: compressing them costs the server time for little.
   ALTER TABLE ${SCHEMA}.segment_part ALTER COLUMN data SET STORAGE EXTERNAL;
   CREATE TABLE ${SCHEMA}.published (
     repo int NOT NULL REFERENCES ${SCHEMA}.repo ON DELETE CASCADE, commit text NOT NULL,
     manifest text NOT NULL, model_id text, dim int NOT NULL, format int NOT NULL, fields text[] NOT NULL,
     files int NOT NULL, bytes bigint NOT NULL, published_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (repo, commit));
   CREATE TABLE ${SCHEMA}.published_file (
     repo int NOT NULL, commit text NOT NULL, name text NOT NULL, sha256 text NOT NULL,
     PRIMARY KEY (repo, commit, name),
     FOREIGN KEY (repo, commit) REFERENCES ${SCHEMA}.published ON DELETE CASCADE,
     FOREIGN KEY (repo, sha256) REFERENCES ${SCHEMA}.segment);
   CREATE INDEX published_file_segment ON ${SCHEMA}.published_file (repo, sha256);`,
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
  if (v === 0) throw new TeamIndexError('the database holds no team index yet; publish one with `reporecall publish DIR --to URL --repo NAME`', 'schema');
  if (v < SCHEMA_VERSION) throw new TeamIndexError(`the team index has schema version ${v}, older than this RepoRecall reads (${SCHEMA_VERSION}); the next \`reporecall publish\` migrates it`, 'schema');
  throw new TeamIndexError(`the team index has schema version ${v}, newer than this RepoRecall reads (${SCHEMA_VERSION}); update RepoRecall`, 'schema');
}
