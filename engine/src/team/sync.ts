// The team index in the editor: with reporecall.teamIndex.url set, the engine looks for the newest
// published commit (publish.ts) that is the workspace's HEAD or one of its ancestors, downloads the
// segment files it lacks into its index folder's TEAM_SYNC_DIR (resumable, each verified by its
// sha256: download.ts), and installs that commit as its local index: the files are linked into
// place and its manifest written last, so a crash or a full disk leaves the previous commit whole.
// The engine then opens it and catches up with the workspace as after any reopen. Queries are
// always answered by the local index: the network is never on the keystroke path.
import * as fs from 'fs';
import * as path from 'path';
import type { Client } from 'pg';
import type { TeamIndexOptions, TeamState } from '../api';
import { writeFileAtomic } from '../store/atomic';
import { incompatibility, MANIFEST_FILE, parseManifest, STORE_FORMAT_VERSION, TEAM_SYNC_DIR, type IndexExpectation, type Manifest } from '../index/manifest';
import { connectTeam, describePgError, maskUrl } from './connection';
import { fetchSegment, segmentPath } from './download';
import { ancestry, MAX_ANCESTORS } from './gitCommits';
import { checkSchema } from './schema';
import { findPublished, type PublishedCommit } from './segmentStore';

/** The commit a synced index was installed from (TEAM_SYNC_DIR/INSTALLED_FILE). */
const INSTALLED_FILE = 'installed.json';

export interface SyncTarget {
  team: TeamIndexOptions;
  root: string;
  indexDir: string;
  /** What this engine needs of an index (its model and fields): another one is ignored. */
  expect: IndexExpectation;
  onState?: (state: TeamState) => void;
  log: (line: string) => void;
  /** Stops a download between parts (the engine closing). */
  signal?: AbortSignal;
}

/** A published commit whose files are all in the sync folder, ready to install. */
export interface SyncPlan {
  published: PublishedCommit;
  manifest: Manifest;
  /** Bytes this sync fetched from the store. */
  downloaded: number;
}

export class TeamSync {
  state: TeamState = { state: 'checking' };
  private readonly dir: string;

  constructor(private readonly t: SyncTarget) {
    this.dir = path.join(t.indexDir, TEAM_SYNC_DIR);
  }

  private set(state: TeamState): void {
    this.state = state;
    this.t.onState?.(state);
  }

  private installedCommit(): string | undefined {
    try {
      const v = JSON.parse(fs.readFileSync(path.join(this.dir, INSTALLED_FILE), 'utf8')) as { repo?: string; commit?: string };
      return v.repo === this.t.team.repo && fs.existsSync(path.join(this.t.indexDir, MANIFEST_FILE)) ? v.commit : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Finds the commit to sync and downloads what it lacks; undefined when there is nothing to
   * install (none published, already installed, another model, unreachable: the state says which).
   * Never throws.
   */
  async prepare(onProgress?: (done: number, total: number) => void): Promise<SyncPlan | undefined> {
    const where = maskUrl(this.t.team.url);
    this.set({ state: 'checking' });
    let client: Client | undefined;
    try {
      client = await connectTeam(this.t.team.url, { password: this.t.team.password, urlOrigin: this.t.team.urlOrigin ?? 'workspace', passwordFromEnvironment: this.t.team.passwordFromEnvironment, applicationName: 'reporecall-sync' });
      await checkSchema(client);
      let commits: string[];
      try {
        commits = await ancestry(this.t.root);
      } catch (e) {
        this.set({ state: 'local', message: `the workspace's git history cannot be read (${(e as Error).message}): the index is built locally` });
        return undefined;
      }
      const published = await findPublished(client, this.t.team.repo, commits);
      if (!published) {
        this.set({ state: 'local', message: `no commit of ${this.t.team.repo} published at ${where} is HEAD or one of its ${MAX_ANCESTORS} newest ancestors: the index is built locally` });
        return undefined;
      }
      const short = published.commit.slice(0, 12);
      const manifest = parseManifest(published.manifest);
      const unusable = published.format !== STORE_FORMAT_VERSION ? `index format ${published.format}, this RepoRecall uses ${STORE_FORMAT_VERSION}`
        : typeof manifest === 'string' ? manifest : incompatibility(manifest, this.t.expect);
      if (unusable || typeof manifest === 'string') {
        this.set({ state: 'ignored', commit: published.commit, message: `the index published for ${short} was ignored (${unusable}): the index is built locally` });
        this.t.log(`team index: ${this.state.message}`);
        return undefined;
      }
      if (this.installedCommit() === published.commit) {
        this.set({ state: 'synced', commit: published.commit, message: `synced from ${short}` });
        return undefined;
      }
      const downloaded = await this.download(client, published, onProgress);
      return { published, manifest, downloaded };
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      const disk = err.code === 'ENOSPC' || err.code === 'EDQUOT' ? `the disk is full (${err.message})` : undefined;
      const te = disk ? undefined : describePgError(e, this.t.team.url);
      const lost = te && (te.code === 'unreachable' || te.code === 'timeout' || te.code === 'connection-lost');
      // A sync cut off (network, disk) resumes from the parts it has; a refusal (URL, password, schema) needs the user.
      this.set({ state: lost ? 'unreachable' : 'error', message: disk || lost ? `${disk ?? te!.message}; the index is built locally, and the sync resumes at the next start` : te!.message });
      this.t.log(`team index: ${this.state.message}`);
      return undefined;
    } finally {
      await client?.end().catch(() => undefined);
    }
  }

  /** Fetches every segment the sync folder lacks (a file the local commit lists with the same digest is linked, not fetched). */
  private async download(client: Client, p: PublishedCommit, onProgress?: (done: number, total: number) => void): Promise<number> {
    fs.mkdirSync(this.dir, { recursive: true });
    const local = this.localManifestOrNone();
    const need = new Map<string, PublishedCommit['files'][number]>();
    for (const f of p.files) {
      const cached = segmentPath(this.dir, f.sha256);
      if (fs.existsSync(cached) || need.has(f.sha256)) continue;
      if (local?.digests[f.name] === f.sha256 && linkOrCopy(path.join(this.t.indexDir, f.name), cached)) continue;
      need.set(f.sha256, f);
    }
    const total = [...need.values()].reduce((a, f) => a + f.bytes, 0);
    let done = 0;
    const report = () => {
      this.set({ state: 'downloading', commit: p.commit, done, total, message: `downloading the index of ${p.commit.slice(0, 12)}: ${mb(done)} of ${mb(total)} MB` });
      onProgress?.(done, total);
    };
    report();
    for (const f of need.values()) {
      await fetchSegment(client, p.repoId, this.dir, f, (n) => {
        this.t.signal?.throwIfAborted();
        done += n;
        report();
      });
    }
    return done;
  }

  /** The local index's committed manifest, if it has a readable one. */
  private localManifestOrNone(): Manifest | undefined {
    try {
      const m = parseManifest(fs.readFileSync(path.join(this.t.indexDir, MANIFEST_FILE), 'utf8'));
      return typeof m === 'string' ? undefined : m;
    } catch {
      return undefined;
    }
  }

  /**
   * Installs a prepared commit as the local index (the engine's save queue runs it, so no save
   * meanwhile): its files linked into place from the sync folder, then its manifest, written last.
   * A file the local commit lists under the same name with other bytes means that commit goes
   * first (its manifest removed before anything is replaced): a crash then leaves no index, which
   * the next start syncs again, never a mix.
   */
  install(plan: SyncPlan): void {
    try {
      this.place(plan);
    } catch (e) {
      this.set({ state: 'error', commit: plan.published.commit, message: `the synced index could not be installed (${(e as Error).message}); the local index is built instead` });
      this.t.log(`team index: ${this.state.message}`);
      return;
    }
    this.set({ state: 'synced', commit: plan.published.commit, message: `synced from ${plan.published.commit.slice(0, 12)} (${mb(plan.downloaded)} MB downloaded)` });
    this.t.log(`team index: installed the index published for ${plan.published.commit} (${plan.published.files.length} files, ${mb(plan.downloaded)} MB downloaded)`);
  }

  private place(plan: SyncPlan): void {
    const local = this.localManifestOrNone();
    const placed = plan.published.files.map((f) => ({ ...f, target: path.join(this.t.indexDir, f.name) }));
    const todo = placed.filter((f) => !(local?.digests[f.name] === f.sha256 && fs.existsSync(f.target)));
    if (todo.some((f) => fs.existsSync(f.target))) fs.rmSync(path.join(this.t.indexDir, MANIFEST_FILE), { force: true });
    for (const f of todo) {
      fs.mkdirSync(path.dirname(f.target), { recursive: true });
      fs.rmSync(f.target, { force: true });
      if (!linkOrCopy(segmentPath(this.dir, f.sha256), f.target)) throw new Error(`cannot place ${f.name} in ${this.t.indexDir}`);
    }
    writeFileAtomic(path.join(this.t.indexDir, MANIFEST_FILE), plan.published.manifest);
    writeFileAtomic(path.join(this.dir, INSTALLED_FILE), JSON.stringify({ repo: this.t.team.repo, commit: plan.published.commit }));
    // The sync folder keeps this commit's files (a later commit shares most of them), nothing else.
    const keep = new Set([...plan.published.files.map((f) => f.sha256), INSTALLED_FILE]);
    for (const name of fs.readdirSync(this.dir)) if (!keep.has(name)) fs.rmSync(path.join(this.dir, name), { force: true, recursive: true });
  }
}

const mb = (bytes: number) => (bytes / 1e6).toFixed(1);

/** A hard link (the index's files are immutable, so both names may share the bytes), else a copy. */
function linkOrCopy(from: string, to: string): boolean {
  try {
    fs.linkSync(from, to);
    return true;
  } catch {
    try {
      fs.copyFileSync(from, to);
      return true;
    } catch {
      return false;
    }
  }
}
