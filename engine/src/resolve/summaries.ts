// The module summaries the resolver reads (resolver.ts), kept per file text: a repository file's as
// the index holds it, and the text a name is being resolved in (an unsaved buffer's) while it is.
import type { Tree } from 'web-tree-sitter';
import type { LoadedGrammar } from '../chunk/grammar';
import { parseReusing } from '../chunk/reparse';
import { RecentMap } from '../util/recentMap';
import { cacheKey, summarizeAll } from './helpers';
import type { ModuleSummary } from './types';

/** A file's parse for its summary gives up after this long (a hover never waits on one file). */
const PARSE_TIMEOUT_MS = 250;
/** Larger files are not summarised (generated code, bundles). */
export const MAX_PARSE_CHARS = 1_000_000;
/** Summaries kept (repository files and buffers). */
const KEPT = 256;

export interface SummarySource {
  textOf(file: string): string | undefined;
  grammarFor(file: string, text: string): Promise<LoadedGrammar | undefined>;
}

/** A buffer being resolved in: its summary, or the tree it is read from when asked. */
interface LiveBuffer { key: string; python: boolean; n: number; s?: ModuleSummary; copy?: Tree }

export class ModuleSummaries {
  private readonly kept = new RecentMap<string, { key: string; s: ModuleSummary }>(KEPT);
  /** The file being resolved in, as its editor text (an unsaved buffer differs from the index's). */
  private readonly live = new Map<string, LiveBuffer>();

  /** `summarised`: whether a grammar's files have summaries (the languages the resolver follows). */
  constructor(private readonly src: SummarySource, private readonly summarised: (grammar: LoadedGrammar) => boolean) {}

  /** The summary of the text `file` is being resolved in (`key`: cacheKey of that text), kept for that text. */
  ofBuffer(file: string, tree: Tree, python: boolean, key: string): ModuleSummary {
    const live = this.kept.get(`\0live:${file}`);
    if (live?.key === key) return live.s;
    const s = summarizeAll(file, tree, python);
    this.kept.set(`\0live:${file}`, { key, s });
    return s;
  }

  /**
   * Runs `work` with the buffer's text (`tree`, `key`: its cacheKey) standing for `file`, its summary
   * read only when `work` asks for the file: a name imported from another module needs none (12-38 ms
   * for hono's 4,100-line types.test.ts). The tree belongs to the shared cache, which may replace it
   * while `work` awaits: the read is from a copy taken now (shared nodes, no parse), released when the
   * runs on that text end. Runs may overlap (SymbolLookup.resolvedNear); the last to end clears it.
   */
  async holding<T>(file: string, tree: Tree, python: boolean, key: string, work: () => Promise<T>): Promise<T> {
    const held = this.live.get(file);
    const kept = this.kept.get(`\0live:${file}`);
    const entry: LiveBuffer = held?.key === key ? held : kept?.key === key ? { key, python, n: 0, s: kept.s } : { key, python, n: 0, copy: tree.copy() };
    entry.n++;
    this.live.set(file, entry);
    try {
      return await work();
    } finally {
      if (--entry.n === 0) {
        if (this.live.get(file) === entry) this.live.delete(file);
        entry.copy?.delete();
        entry.copy = undefined;
      }
    }
  }

  /** A repository file's module summary, kept per text (an open buffer's text when it is being resolved in). */
  async of(file: string): Promise<ModuleSummary | undefined> {
    const live = this.live.get(file);
    if (live) return (live.s ??= this.ofBuffer(file, live.copy!, live.python, live.key));
    const text = this.src.textOf(file);
    if (text === undefined || text.length > MAX_PARSE_CHARS) return undefined;
    const key = cacheKey(text);
    const hit = this.kept.get(file);
    if (hit && hit.key === key) return hit.s;
    const grammar = await this.src.grammarFor(file, text);
    if (!grammar || !this.summarised(grammar)) return undefined;
    const deadline = Date.now() + PARSE_TIMEOUT_MS;
    const tree = parseReusing(grammar.parser, text, undefined, () => Date.now() > deadline);
    if (!tree) return undefined;
    try {
      const s = summarizeAll(file, tree, grammar.name === 'python');
      this.kept.set(file, { key, s });
      return s;
    } finally {
      tree.delete();
    }
  }

  clear(): void {
    this.kept.clear();
    this.live.clear();
  }
}
