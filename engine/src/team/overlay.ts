// The editor's view of a team index (reporecall.teamIndex.url): the team's rows for the files the
// user has not changed, the local index's for the ones they have. A file whose local content hash
// differs from the team's commit (edited, saved or unsaved), a file the team does not have, and a
// file the team has but the workspace no longer does are the overlay: the team's chunks of those
// paths are left out on the server and the local index's chunks of them ranked beside the rest, list
// by list, then fused by the engine's own fusion (overlayLists.ts). When the server is slow (no
// answer within the request's deadline) or unreachable, retrieval answers from the local index
// alone and the state says so (IndexStats.team, the status bar); a later request, after a pause, tries the server again.
import type { TeamIndexOptions, TeamState, TeamStateName } from '../api';
import type { FileTable } from '../store/fileTable';
import type { HybridIndex, Hit } from '../retrieve/hybrid';
import type { RetrievalQuery } from '../retrieve/query';
import { DEFAULT_WEIGHTS, type FusionWeights } from '../retrieve/weights';
import { TeamIndexError, maskUrl, type ConnectOptions } from './connection';
import { TeamIndexReader } from './reader';
import { localLists, mergeAndFuse, TEAM_ID_BASE } from './overlayLists';
import { lexicalRequests } from './retrieve';

export interface OverlaySearch {
  q: RetrievalQuery;
  vec: Float32Array | undefined;
  k: number;
  weights?: Partial<FusionWeights>;
  accept: (id: number) => boolean;
  /** The current file's lines the user is typing or sees (the team's chunks there are left out). */
  exclude?: { file: string; from: number; to: number };
  signal?: AbortSignal;
}

function abortError(): Error {
  const e = new Error('cancelled');
  e.name = 'AbortError';
  return e;
}

export class TeamOverlay {
  private reader: TeamIndexReader | undefined;
  private opening: Promise<void> | undefined;
  private retryAt = 0;
  private teamFiles: { generation: number; hashes: Map<string, string> } | undefined;
  /** Paths the local index answers for (see the file's comment). */
  private overlay = new Set<string>();
  /** Whether the local index has seen the whole workspace (before that, a file it lacks is not "deleted"). */
  private localComplete = false;
  private current: TeamState = { state: 'connecting' };
  private closed = false;
  /** MaxScore pruning of the team's lexical lists (bm25Sql.ts); the bench turns it off for its before. */
  prune = true;

  constructor(
    readonly opts: TeamIndexOptions,
    private readonly localFiles: () => FileTable,
    private readonly onState: (s: TeamState) => void = () => undefined,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  get state(): TeamState {
    return this.current;
  }

  /** The paths answered locally (tests, the status bar's tooltip). */
  overlayPaths(): string[] {
    return [...this.overlay].sort();
  }

  private setState(s: TeamState): void {
    const changed = s.state !== this.current.state || s.message !== this.current.message || s.overlayFiles !== this.current.overlayFiles;
    this.current = s;
    if (!changed) return;
    if (s.state !== 'team') this.log(`team index ${maskUrl(this.opts.url)}: ${s.state}${s.message ? ` (${s.message})` : ''}; answering from the local index`);
    else this.log(`team index ${maskUrl(this.opts.url)}: serving generation ${s.generation}, ${s.overlayFiles} changed files from the local index`);
    this.onState(s);
  }

  /** The local index has seen the whole workspace (after indexAll): recompute the overlay. */
  localIndexed(): void {
    this.localComplete = true;
    this.recompute();
  }

  /** A file's local row changed (updated, buffer edited, removed): re-check it against the team's hash. */
  localChanged(rel: string): void {
    if (!this.teamFiles) return;
    const files = this.localFiles();
    if (!files.has(rel) && !this.teamFiles.hashes.has(rel)) {
      // A folder removed as one event, or an unknown path: check every path.
      this.recompute();
      return;
    }
    this.check(rel, files);
  }

  private check(rel: string, files: FileTable): void {
    const local = files.get(rel)?.hash;
    const team = this.teamFiles?.hashes.get(rel);
    const differs = local === undefined ? team !== undefined && this.localComplete : local !== team;
    if (differs) this.overlay.add(rel);
    else this.overlay.delete(rel);
  }

  private recompute(): void {
    if (!this.teamFiles) return;
    this.overlay.clear();
    const files = this.localFiles();
    for (const rel of files.relPaths()) this.check(rel, files);
    for (const rel of this.teamFiles.hashes.keys()) if (!files.has(rel)) this.check(rel, files);
  }

  /**
   * Ranked hits from the team index with the overlay's local lists, or undefined when the team
   * index cannot answer now (the caller searches the local index alone). Never waits longer than
   * the deadline; an aborted signal rejects at once.
   */
  async search(index: HybridIndex, s: OverlaySearch): Promise<Hit[] | undefined> {
    if (this.closed) return undefined;
    s.signal?.throwIfAborted();
    if (!this.reader) {
      this.connectInBackground();
      return undefined;
    }
    const reader = this.reader;
    const work = this.searchTeam(reader, index, s);
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const deadline = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), this.opts.timeoutMs)));
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(abortError());
      s.signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const out = await Promise.race([work, deadline, aborted]);
      if (out === 'timeout') {
        // The connection may be stuck behind a server that does not answer: drop it, answer
        // locally, and try again after the pause.
        work.catch(() => undefined);
        this.fail(reader, 'slow', `no answer within ${this.opts.timeoutMs} ms`);
        return undefined;
      }
      return out;
    } catch (e) {
      if ((e as Error).name === 'AbortError') {
        // The query finishes on the server; its answer is dropped (the connection stays).
        work.catch(() => undefined);
        throw e;
      }
      const err = e as TeamIndexError;
      this.fail(reader, err.code === 'timeout' ? 'slow' : err.code === 'connection-lost' || err.code === 'unreachable' ? 'unreachable' : 'error', err.message);
      return undefined;
    } finally {
      clearTimeout(timer);
      if (onAbort) s.signal?.removeEventListener('abort', onAbort);
    }
  }

  private fail(reader: TeamIndexReader, state: TeamStateName, message: string): void {
    if (this.reader === reader) this.reader = undefined;
    reader.abandon();
    this.retryAt = Date.now() + this.opts.retryMs;
    this.setState({ state, message });
  }

  /** Connects (and reads the team's file hashes) without holding up the request that asked. */
  private connectInBackground(): void {
    if (this.opening || Date.now() < this.retryAt) return;
    this.opening = (async () => {
      let reader: TeamIndexReader | undefined;
      try {
        reader = await TeamIndexReader.open(this.opts.url, this.opts.repo, { ...teamCredentials(this.opts), connectTimeoutMs: this.opts.timeoutMs * 4, applicationName: 'reporecall-editor' });
        await this.loadTeamFiles(reader);
        if (this.closed) throw new TeamIndexError('closed', 'server');
        this.reader = reader;
        this.setState({ state: 'team', generation: this.teamFiles!.generation, overlayFiles: this.overlay.size });
      } catch (e) {
        reader?.abandon();
        const err = e instanceof TeamIndexError ? e : new TeamIndexError(String((e as Error).message ?? e), 'server');
        this.retryAt = Date.now() + this.opts.retryMs;
        if (!this.closed) this.setState({ state: err.code === 'unreachable' || err.code === 'connection-lost' ? 'unreachable' : err.code === 'timeout' ? 'slow' : 'error', message: err.message });
      } finally {
        this.opening = undefined;
      }
    })();
  }

  /** Waits for a connection attempt in progress (tests; a caller that wants the team's first answer). */
  async settled(): Promise<TeamState> {
    if (!this.reader) this.connectInBackground();
    await this.opening;
    return this.current;
  }

  private async loadTeamFiles(reader: TeamIndexReader): Promise<void> {
    const { generation, hashes } = await reader.fileHashesAt();
    this.teamFiles = { generation, hashes };
    this.recompute();
  }

  private async searchTeam(reader: TeamIndexReader, index: HybridIndex, s: OverlaySearch): Promise<Hit[]> {
    // The off-by-default stages the team index does not serve count 0 on both sides.
    const w: FusionWeights = { ...DEFAULT_WEIGHTS, ...s.weights, intent: 0, docField: 0, next: 0, expand: 0, hyde: 0, rerank: 0 };
    for (let attempt = 0; ; attempt++) {
      const overlay = this.overlay;
      const generation = this.teamFiles!.generation;
      const lexical = lexicalRequests(s.q, w);
      const local = localLists(index, s.q, s.vec, lexical, w, (id) => s.accept(id) && overlay.has(index.docs.fileOf(id) ?? ''));
      let hits: Hit[] = [];
      const res = await reader.search(
        {
          lexical,
          identifiers: w.symbol > 0 ? s.q.identifiers : undefined,
          vector: w.dense > 0 ? s.vec : undefined,
          exclude: s.exclude && !overlay.has(s.exclude.file) ? s.exclude : undefined,
          excludePaths: [...overlay],
          depth: 100,
          prune: this.prune,
        },
        (team) => {
          if (team.generation !== generation) return [];
          hits = mergeAndFuse(local, team, w, s.k, index);
          return hits.filter((h) => h.id >= TEAM_ID_BASE).map((h) => h.id - TEAM_ID_BASE);
        },
      );
      if (res.generation !== generation) {
        // A commit landed since the hashes were read: the overlay is recomputed against it.
        if (attempt > 0) throw new TeamIndexError('the team index changed during the query twice', 'server');
        await this.loadTeamFiles(reader);
        continue;
      }
      const out = hits.flatMap((h) => {
        if (h.id < TEAM_ID_BASE) return [h];
        const d = res.docs.get(h.id - TEAM_ID_BASE);
        return d ? [{ ...h, ...d, id: h.id }] : [];
      });
      this.setState({ state: 'team', generation, overlayFiles: overlay.size });
      return out;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.opening?.catch(() => undefined);
    const r = this.reader;
    this.reader = undefined;
    await r?.close();
  }
}

/** What the editor's connection may use: a URL of unknown origin is treated as the workspace's, and only a user's URL may opt in to the environment. */
export function teamCredentials(opts: TeamIndexOptions): Pick<ConnectOptions, 'password' | 'urlOrigin' | 'passwordFromEnvironment'> {
  const urlOrigin = opts.urlOrigin === 'user' ? 'user' : 'workspace';
  return { password: opts.password, urlOrigin, passwordFromEnvironment: urlOrigin === 'user' && opts.passwordFromEnvironment === true };
}
