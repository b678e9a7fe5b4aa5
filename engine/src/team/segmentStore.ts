// The team index's segment store in PostgreSQL (schema.ts): index files content-addressed by
// their sha256 in bounded parts, and published commits naming them. The publisher writes
// (uploadSegment, recordCommit, collect); editors read (findPublished, readPart) with a role that
// may only SELECT. Every row is scoped to one repository.
import { createHash } from 'crypto';
import * as fs from 'fs';
import type { Client } from 'pg';
import { TeamIndexError } from './connection';
import { LOCK_NAMESPACE, PART_BYTES, SCHEMA } from './schema';

/** A published commit as a reader finds it. */
export interface PublishedCommit {
  repoId: number;
  commit: string;
  manifest: string;
  modelId: string | null;
  dim: number;
  format: number;
  fields: string[];
  /** Every file the manifest lists, by name, with its sha256 and size. */
  files: Array<{ name: string; sha256: string; bytes: number; parts: number }>;
}

/** A repository's id; with `create`, its row is made if missing. Undefined: not in the store. */
export async function repoId(client: Client, name: string, create = false): Promise<number | undefined> {
  if (create) await client.query(`INSERT INTO ${SCHEMA}.repo (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`, [name]);
  const r = await client.query(`SELECT id FROM ${SCHEMA}.repo WHERE name = $1`, [name]);
  return r.rows.length ? Number(r.rows[0].id) : undefined;
}

/** The segments of `shas` the store already holds for the repository. */
export async function storedSegments(client: Client, repo: number, shas: string[]): Promise<Set<string>> {
  const r = await client.query(`SELECT sha256 FROM ${SCHEMA}.segment WHERE repo = $1 AND sha256 = ANY($2)`, [repo, shas]);
  return new Set(r.rows.map((x) => x.sha256 as string));
}

export async function inTransaction<T>(client: Client, fn: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const out = await fn();
    await client.query('COMMIT');
    return out;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}

/**
 * Uploads one file as a segment: its row and parts in one transaction, so a killed upload leaves
 * nothing. The bytes sent are hashed as they are read and must be `sha256` (the manifest's
 * digest), else nothing is committed. False when another publisher stored it first.
 */
export async function uploadSegment(client: Client, repo: number, sha256: string, file: string, onPart?: (bytes: number) => Promise<void> | void): Promise<boolean> {
  const size = fs.statSync(file).size;
  const parts = Math.max(1, Math.ceil(size / PART_BYTES));
  return inTransaction(client, async () => {
    // A concurrent publisher of the same segment holds this key until it commits; then we skip.
    const fresh = await client.query(`INSERT INTO ${SCHEMA}.segment (repo, sha256, bytes, parts) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING sha256`, [repo, sha256, size, parts]);
    if (!fresh.rows.length) return false;
    const hash = createHash('sha256');
    const fd = fs.openSync(file, 'r');
    try {
      const buf = Buffer.allocUnsafe(Math.min(PART_BYTES, Math.max(size, 1)));
      for (let part = 0; part < parts; part++) {
        const n = fs.readSync(fd, buf, 0, Math.min(PART_BYTES, size - part * PART_BYTES), part * PART_BYTES);
        const data = buf.subarray(0, n);
        hash.update(data);
        await client.query(`INSERT INTO ${SCHEMA}.segment_part (repo, sha256, part, data) VALUES ($1, $2, $3, $4)`, [repo, sha256, part, data]);
        await onPart?.(n);
      }
    } finally {
      fs.closeSync(fd);
    }
    const got = hash.digest('hex');
    if (got !== sha256) throw new TeamIndexError(`${file} changed while it was uploaded (sha256 ${got}, its manifest says ${sha256}); nothing of it was stored`, 'server');
    return true;
  });
}

export interface CommitRecord extends Pick<PublishedCommit, 'commit' | 'manifest' | 'modelId' | 'dim' | 'format' | 'fields'> {
  files: Array<{ name: string; sha256: string }>;
  bytes: number;
}

/**
 * The commit point: the published row and its file rows in one transaction. Every file's segment
 * must be stored (a foreign key). False when the commit was already published (by this publisher
 * before, or another one meanwhile): the first stays, so every reader sees one manifest for it.
 */
export async function recordCommit(client: Client, repo: number, c: CommitRecord): Promise<boolean> {
  return inTransaction(client, async () => {
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_NAMESPACE, repo]);
    const fresh = await client.query(
      `INSERT INTO ${SCHEMA}.published (repo, commit, manifest, model_id, dim, format, fields, files, bytes) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT DO NOTHING RETURNING commit`,
      [repo, c.commit, c.manifest, c.modelId, c.dim, c.format, c.fields, c.files.length, c.bytes],
    );
    if (!fresh.rows.length) return false;
    await client.query(
      `INSERT INTO ${SCHEMA}.published_file (repo, commit, name, sha256) SELECT $1, $2, n, s FROM unnest($3::text[], $4::text[]) AS x(n, s)`,
      [repo, c.commit, c.files.map((f) => f.name), c.files.map((f) => f.sha256)],
    );
    return true;
  });
}

/** What a retention run removed. */
export interface Collected {
  commits: number;
  segments: number;
  bytes: number;
}

/**
 * Retention: keeps the repository's `keepCommits` newest published commits and deletes the older
 * ones, then every segment no remaining commit lists that is older than `graceMs` (a publisher
 * still uploading a commit's segments is not robbed of them; one that is, fails on the foreign key
 * and uploads them again).
 */
export async function collect(client: Client, repo: number, keepCommits: number, graceMs = 3_600_000): Promise<Collected> {
  return inTransaction(client, async () => {
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_NAMESPACE, repo]);
    const commits = await client.query(
      `DELETE FROM ${SCHEMA}.published WHERE repo = $1 AND commit NOT IN (
         SELECT commit FROM ${SCHEMA}.published WHERE repo = $1 ORDER BY published_at DESC, commit LIMIT $2)`,
      [repo, keepCommits],
    );
    const segs = await client.query(
      `DELETE FROM ${SCHEMA}.segment s WHERE s.repo = $1 AND s.uploaded_at < now() - make_interval(secs => $2)
         AND NOT EXISTS (SELECT 1 FROM ${SCHEMA}.published_file f WHERE f.repo = s.repo AND f.sha256 = s.sha256)
       RETURNING bytes`,
      [repo, graceMs / 1000],
    );
    return { commits: commits.rowCount ?? 0, segments: segs.rowCount ?? 0, bytes: segs.rows.reduce((a, r) => a + Number(r.bytes), 0) };
  });
}

/** The first of `commits` (newest first) that the store has published for the repository. */
export async function findPublished(client: Client, repo: string, commits: string[]): Promise<PublishedCommit | undefined> {
  const id = await repoId(client, repo);
  if (id === undefined || !commits.length) return undefined;
  const found = await client.query(`SELECT commit FROM ${SCHEMA}.published WHERE repo = $1 AND commit = ANY($2)`, [id, commits]);
  const have = new Set(found.rows.map((r) => r.commit as string));
  const commit = commits.find((c) => have.has(c));
  if (!commit) return undefined;
  const row = (await client.query(`SELECT manifest, model_id, dim, format, fields FROM ${SCHEMA}.published WHERE repo = $1 AND commit = $2`, [id, commit])).rows[0];
  const files = await client.query(
    `SELECT f.name, f.sha256, s.bytes, s.parts FROM ${SCHEMA}.published_file f JOIN ${SCHEMA}.segment s ON s.repo = f.repo AND s.sha256 = f.sha256
     WHERE f.repo = $1 AND f.commit = $2 ORDER BY f.name`,
    [id, commit],
  );
  return {
    repoId: id, commit, manifest: row.manifest, modelId: row.model_id ?? null, dim: Number(row.dim), format: Number(row.format), fields: row.fields ?? [],
    files: files.rows.map((r) => ({ name: r.name, sha256: r.sha256, bytes: Number(r.bytes), parts: Number(r.parts) })),
  };
}

/** One part of a segment (at most PART_BYTES). */
export async function readPart(client: Client, repo: number, sha256: string, part: number): Promise<Buffer> {
  const r = await client.query(`SELECT data FROM ${SCHEMA}.segment_part WHERE repo = $1 AND sha256 = $2 AND part = $3`, [repo, sha256, part]);
  if (!r.rows.length) throw new TeamIndexError(`segment ${sha256.slice(0, 12)} part ${part} is missing from the team index (collected meanwhile?); the next sync starts over`, 'server');
  return r.rows[0].data as Buffer;
}
