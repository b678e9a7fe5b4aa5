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

export class ModuleSummaries {
  private readonly kept = new RecentMap<string, { key: string; s: ModuleSummary }>(KEPT);
  /** The file being resolved in, as its editor text (an unsaved buffer differs from the index's). */
  private readonly live = new Map<string, { s: ModuleSummary; n: number }>();

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

  /** Runs `work` with `s` standing for `file` (its buffer's summary). Runs may overlap: the last to end clears it. */
  async holding<T>(file: string, s: ModuleSummary, work: () => Promise<T>): Promise<T> {
    const held = this.live.get(file);
    this.live.set(file, { s, n: held?.s === s ? held.n + 1 : 1 });
    try {
      return await work();
    } finally {
      const h = this.live.get(file);
      if (h?.s === s && --h.n === 0) this.live.delete(file);
    }
  }

  /** A repository file's module summary, kept per text (an open buffer's text when it is being resolved in). */
  async of(file: string): Promise<ModuleSummary | undefined> {
    const live = this.live.get(file);
    if (live) return live.s;
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
