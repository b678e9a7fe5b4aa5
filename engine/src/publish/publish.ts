// `reporecall publish DIR --to postgres://… --repo NAME [--commit SHA]` (meant for CI, once per
// commit): brings its own local index of DIR up to date (kept between runs, so a one-file commit
// parses one file), uploads the index files the store lacks (content-addressed by sha256, in
// parts of PART_BYTES), then records the commit in one transaction: the commit point. Editors sync
// that index and search it locally (sync.ts). The files published are the index's own: chunk text
// is never stored, and what the index holds of it (terms, signatures) was redacted when indexed.
import * as fs from 'fs';
import * as path from 'path';
import { Engine } from '../engine';
import { defaultIndexDir } from '../indexLocation';
import { listedFiles, MANIFEST_FILE, parseManifest, STORE_FORMAT_VERSION } from '../index/manifest';
import { connectTeam, describePgError, TeamIndexError, type ConnectOptions } from '../team/connection';
import { headCommit } from '../team/gitCommits';
import { migrate, SCHEMA } from '../team/schema';
import { collect, recordCommit, repoId, storedSegments, uploadSegment, type Collected } from '../team/segmentStore';

export interface PublishOptions extends ConnectOptions {
  root: string;
  url: string;
  /** The repository's name in the store (default: the folder's name). */
  repo?: string;
  /** The git commit the index is published for (default: DIR's HEAD). */
  commit?: string;
  /** The local index kept between runs (default: the per-user cache, as `reporecall index`). */
  localIndexDir?: string;
  modelDir?: string;
  dense?: boolean;
  /** Keep only this many newest published commits of the repository (and the segments they list). */
  keepCommits?: number;
  log?: (line: string) => void;
  /** Tests: called after each part is sent (a publisher killed mid-upload). */
  afterPart?: (bytes: number) => Promise<void> | void;
}

export interface PublishStats {
  repo: string;
  commit: string;
  /** False when the commit was already published (nothing recorded; the first publish stands). */
  published: boolean;
  files: number;
  chunks: number;
  /** Index files the commit lists, and their bytes. */
  segments: number;
  bytes: number;
  /** Of those, the ones this run uploaded (the store lacked them), and their bytes. */
  uploadedSegments: number;
  uploadedBytes: number;
  manifestBytes: number;
  /** Files the local index parsed in this run. */
  parsedFiles: number;
  indexSeconds: number;
  collected?: Collected;
  seconds: number;
}

/** Indexes DIR into the kept local index and returns its manifest's text. */
async function updateLocalIndex(opts: PublishOptions, indexDir: string, log: (l: string) => void): Promise<{ files: number; chunks: number; parsed: number }> {
  const engine = await Engine.open({ root: path.resolve(opts.root), indexDir, modelDir: opts.modelDir, dense: opts.dense, log });
  try {
    if (!engine.writable) throw new TeamIndexError(`another process is writing the local index at ${indexDir}; nothing was published (retry when it is done)`, 'locked');
    const stats = await engine.indexAll();
    await engine.flush();
    return { files: stats.files, chunks: stats.chunks, parsed: stats.changedFiles };
  } finally {
    await engine.close();
  }
}

export async function publishTeamIndex(opts: PublishOptions): Promise<PublishStats> {
  const t0 = performance.now();
  const log = opts.log ?? (() => undefined);
  const root = path.resolve(opts.root);
  const repoName = opts.repo ?? path.basename(root);
  let commit = opts.commit;
  if (!commit) {
    try {
      commit = await headCommit(root);
    } catch (e) {
      throw new TeamIndexError(`${root} has no git HEAD to publish for (${(e as Error).message}); pass --commit SHA`, 'no-commit');
    }
  }
  const indexDir = path.resolve(opts.localIndexDir ?? defaultIndexDir(root));
  const local = await updateLocalIndex(opts, indexDir, log);
  const indexSeconds = (performance.now() - t0) / 1000;
  const manifestText = fs.readFileSync(path.join(indexDir, MANIFEST_FILE), 'utf8');
  const manifest = parseManifest(manifestText);
  if (typeof manifest === 'string') throw new TeamIndexError(`the local index at ${indexDir} cannot be published: ${manifest}`, 'server');
  const files = listedFiles(manifest).map((name) => ({ name, sha256: manifest.digests[name], path: path.join(indexDir, name) }));
  const bytes = files.reduce((a, f) => a + fs.statSync(f.path).size, 0);
  const stats: PublishStats = {
    repo: repoName, commit, published: false, files: local.files, chunks: local.chunks, segments: files.length, bytes, uploadedSegments: 0, uploadedBytes: 0,
    manifestBytes: Buffer.byteLength(manifestText), parsedFiles: local.parsed, indexSeconds, seconds: 0,
  };
  const client = await connectTeam(opts.url, opts);
  try {
    const before = await migrate(client);
    if (before === 0) log('created the team index schema');
    else if (before < 3) log(`migrated the team index schema from version ${before} (the retired per-posting tables were dropped)`);
    const repo = (await repoId(client, repoName, true))!;
    const already = await client.query(`SELECT 1 FROM ${SCHEMA}.published WHERE repo = $1 AND commit = $2`, [repo, commit]);
    for (let attempt = 0; !already.rows.length && attempt < 2; attempt++) {
      const stored = await storedSegments(client, repo, files.map((f) => f.sha256));
      const todo = [...new Map(files.filter((f) => !stored.has(f.sha256)).map((f) => [f.sha256, f])).values()];
      for (const f of todo) {
        const size = fs.statSync(f.path).size;
        if (await uploadSegment(client, repo, f.sha256, f.path, opts.afterPart)) {
          stats.uploadedSegments++;
          stats.uploadedBytes += size;
        }
      }
      try {
        stats.published = await recordCommit(client, repo, {
          commit, manifest: manifestText, modelId: manifest.modelId, dim: manifest.dim, format: STORE_FORMAT_VERSION,
          fields: manifest.fields ?? [], files: files.map(({ name, sha256 }) => ({ name, sha256 })), bytes,
        });
        break;
      } catch (e) {
        // A retention run removed a segment between our check and the commit: upload it again.
        if ((e as { code?: string }).code !== '23503' || attempt > 0) throw e;
        log('a segment was collected while publishing; uploading it again');
      }
    }
    if (!stats.published) log(`commit ${commit.slice(0, 12)} of ${repoName} was already published; it stays as it was`);
    if (opts.keepCommits !== undefined) stats.collected = await collect(client, repo, opts.keepCommits);
  } catch (e) {
    throw describePgError(e, opts.url);
  } finally {
    await client.end().catch(() => undefined);
  }
  stats.seconds = (performance.now() - t0) / 1000;
  return stats;
}
