// The answering logic of the Copilot context provider, vscode-free so the bench runs it as the
// editor does. Copilot asks for context within a few milliseconds (its request's `timeoutEnd`), far
// less than a retrieval takes, so the context is computed ahead: on each edit and cursor move the
// provider starts the retrieval for where the cursor now is (`prefetch`), and a request picks up
// the answer for exactly its document version and cursor, waiting for it until its deadline at most
// (`resolve`). Each prefetch runs two passes: the full retrieval, and a quick one without the
// embedding model that is ready in a few milliseconds (one engine request gives both, the quick
// answer first); a request the full pass cannot answer in time gets the quick pass's items just
// before its deadline. What arrives after the deadline is never delivered; `ready` is what
// resolveOnTimeout gives. Items are the packed excerpts, near-duplicates collapsed into one with
// `additionalUris`, secrets redacted as for any remote model, deny-listed files dropped.
import { createHash } from 'node:crypto';
import { isSecretPath, redactSecrets, type RetrievedChunk } from '../../../engine/src/public';
import type { CancellationToken, CodeSnippet, ContextUsageStatistics } from './copilotApi';
import { groupCopies } from './copies';

/** The context computed for one document state and cursor. */
export interface ProvidedContext {
  items: CodeSnippet[];
  /** Each item's chunk (the first of its copies), in item order: what Show Retrieved Context lists. */
  chunks: RetrievedChunk[];
  /** Milliseconds the retrieval took. */
  ms: number;
}

/**
 * Computes a context: resolves with the engine's whole retrieval, and gives `onQuick` the same
 * without the embedding model (the lexical signals' answer) as soon as the engine has it, first.
 */
export type Compute = (signal: AbortSignal, onQuick: (quick: ProvidedContext) => void) => Promise<ProvidedContext | undefined>;

/** How a request was answered (`quick`: the quick pass, the full one not being ready by the deadline). */
export type Answer = 'ready' | 'waited' | 'asked' | 'quick' | 'timeout' | 'cancelled' | 'failed';

/** How long before its deadline a request still waiting for the full pass takes the quick one: timers fire in order, so Copilot's own, at the deadline, comes after. */
export const QUICK_ANSWER_MARGIN_MS = 2;

interface Entry {
  key: string;
  docKey: string;
  /** The full pass. */
  result: Promise<ProvidedContext | undefined>;
  value?: ProvidedContext;
  /** The quick pass (undefined when it failed or was aborted). */
  quickResult: Promise<ProvidedContext | undefined>;
  quick?: ProvidedContext;
  controller: AbortController;
}

/** Contexts computed or computing, per document state and cursor; the oldest go first. */
export class CopilotContextSource {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly capacity = 16) {}

  /** Starts computing the context for `key` (unless known), cancelling the document's other computations in flight. */
  prefetch(key: string, docKey: string, compute: Compute): void {
    const known = this.entries.get(key);
    if (known) return this.touch(known);
    this.start(key, docKey, compute);
  }

  /**
   * The context for `key`: at once when the full pass is ready, else the computation started for
   * it (or one started now), waited for until the token is cancelled or `timeoutEnd` (Unix ms)
   * passes, whichever is first; the quick pass's answer when the full one is not there
   * QUICK_ANSWER_MARGIN_MS before `timeoutEnd`. After that nothing: a computation this request
   * started is cancelled with it.
   */
  async resolve(key: string, docKey: string, compute: Compute, token: CancellationToken, timeoutEnd: number): Promise<{ context?: ProvidedContext; answer: Answer }> {
    if (token.isCancellationRequested) return { answer: 'cancelled' };
    let entry = this.entries.get(key);
    if (entry?.value) {
      this.touch(entry);
      return { context: entry.value, answer: 'ready' };
    }
    const started = !entry;
    entry ??= this.start(key, docKey, compute);
    const own = entry;
    let stop: (why: Answer) => void = () => undefined;
    const stopped = new Promise<Answer>((resolve) => (stop = resolve));
    const sub = token.onCancellationRequested(() => stop('cancelled'));
    const timers = [
      after(timeoutEnd - QUICK_ANSWER_MARGIN_MS, () => void own.quickResult.then((q) => q && stop('quick'))),
      after(timeoutEnd, () => stop('timeout')),
    ];
    try {
      const got = await Promise.race([own.result.then((c) => ({ c })), stopped]);
      if (token.isCancellationRequested || got === 'cancelled' || got === 'timeout') {
        if (started) this.drop(own);
        return { answer: token.isCancellationRequested ? 'cancelled' : (got as Answer) };
      }
      const full = typeof got === 'string' ? own.value : got.c;
      if (full) return { context: full, answer: started ? 'asked' : 'waited' };
      return own.quick ? { context: own.quick, answer: 'quick' } : { answer: 'failed' };
    } finally {
      sub.dispose();
      for (const t of timers) if (t) clearTimeout(t);
    }
  }

  /**
   * The context ready for `key` (`full`, else the quick pass's), else the latest full one for the
   * same document (one keystroke older), else undefined.
   */
  ready(key: string, docKey: string): { context: ProvidedContext; of: 'full' | 'quick' | 'older' } | undefined {
    const exact = this.entries.get(key);
    if (exact?.value) return { context: exact.value, of: 'full' };
    if (exact?.quick) return { context: exact.quick, of: 'quick' };
    const latest = [...this.entries.values()].reverse().find((e) => e.docKey === docKey && e.value);
    return latest?.value ? { context: latest.value, of: 'older' } : undefined;
  }

  /** Cancels everything in flight and forgets every context (a new index, trust withdrawn). */
  clear(): void {
    for (const e of this.entries.values()) e.controller.abort();
    this.entries.clear();
  }

  private start(key: string, docKey: string, compute: Compute): Entry {
    for (const e of [...this.entries.values()]) if (e.docKey === docKey && !e.value) this.drop(e); // superseded
    const controller = new AbortController();
    let quickDone: (c: ProvidedContext | undefined) => void = () => undefined;
    const quickResult = new Promise<ProvidedContext | undefined>((resolve) => (quickDone = resolve));
    const entry: Entry = { key, docKey, controller, result: Promise.resolve(undefined), quickResult };
    // One engine request: the lexical answer comes first, before the model runs on the engine's
    // thread; the full one follows, reusing the lexical rankings.
    const onQuick = (c: ProvidedContext): void => {
      if (controller.signal.aborted || entry.value) return;
      entry.quick = c;
      quickDone(c);
    };
    entry.result = compute(controller.signal, onQuick).then(
      (c) => {
        if (controller.signal.aborted || !c) return undefined;
        entry.value = c;
        entry.quick = undefined;
        return c;
      },
      () => undefined,
    );
    void entry.result.then(() => quickDone(entry.quick));
    entry.result.then((c) => (c ? undefined : this.entries.get(key) === entry && this.entries.delete(key)), () => undefined);
    this.entries.set(key, entry);
    while (this.entries.size > this.capacity) this.drop(this.entries.values().next().value as Entry);
    return entry;
  }

  private drop(e: Entry): void {
    e.controller.abort();
    if (this.entries.get(e.key) === e) this.entries.delete(e.key);
  }

  private touch(e: Entry): void {
    this.entries.delete(e.key);
    this.entries.set(e.key, e);
  }
}

/** Runs `f` at `at` (Unix ms; at once when past); no timer for a deadline that never comes. */
function after(at: number, f: () => void): ReturnType<typeof setTimeout> | undefined {
  const wait = at - Date.now();
  return Number.isFinite(wait) && wait < 2 ** 31 ? setTimeout(f, Math.max(0, wait)) : undefined;
}

export interface SnippetOptions {
  /** The file the context is for (workspace-relative) and the text before its cursor. */
  file: string;
  prefix: string;
  /** A workspace-relative path as the URI Copilot is given. */
  uriOf(relPath: string): string;
  /** The user's secret deny-list patterns, on top of the built-in ones. */
  secretPatterns?: readonly string[];
}

/** A chunk's id: the same excerpt of the same lines has the same id across requests (letters, digits, hyphens). */
export function snippetId(c: Pick<RetrievedChunk, 'file' | 'startLine' | 'endLine' | 'text'>): string {
  return `rr-${createHash('sha256').update(`${c.file}\0${c.startLine}\0${c.endLine}\0${c.text}`).digest('hex').slice(0, 20)}`;
}

/**
 * Copilot's items for the retrieved chunks, in rank order: importance 100 for the first, falling
 * with the rank; copies of one function in one item (the others' URIs in `additionalUris`); no
 * deny-listed file, no chunk already in view before the cursor, every secret redacted.
 */
export function snippetsFrom(chunks: readonly RetrievedChunk[], opts: SnippetOptions): Omit<ProvidedContext, 'ms'> {
  const kept = chunks.filter((c) => !isSecretPath(c.file, opts.secretPatterns) && !(c.file === opts.file && opts.prefix.includes(c.text)));
  const groups = groupCopies(kept, (c) => c.text);
  const items: CodeSnippet[] = [];
  const shown: RetrievedChunk[] = [];
  groups.forEach(({ first, copies }, rank) => {
    const value = redactSecrets(first.text).text;
    const others = [...new Set(copies.map((c) => opts.uriOf(c.file)))].filter((u) => u !== opts.uriOf(first.file));
    items.push({
      uri: opts.uriOf(first.file),
      value,
      importance: Math.max(1, Math.round(100 - (100 * rank) / groups.length)),
      id: snippetId({ ...first, text: value }),
      origin: 'request',
      ...(others.length ? { additionalUris: others } : {}),
    });
    shown.push(first);
  });
  return { items, chunks: shown };
}

/** One item of the usage statistics Copilot reported, with where the item came from. */
export interface ItemUsage {
  id: string;
  usage: string;
  file?: string;
  startLine?: number;
  endLine?: number;
  expectedTokens?: number;
  actualTokens?: number;
}

export interface UsageRecord {
  usage: string;
  resolution: string;
  items: ItemUsage[];
}

/** Remembers which chunk each delivered id stood for, to say what Copilot's usage statistics are about. */
export class DeliveredItems {
  private readonly byId = new Map<string, { file: string; startLine: number; endLine: number }>();

  constructor(private readonly capacity = 512) {}

  note(context: ProvidedContext): void {
    context.items.forEach((item, i) => {
      const c = context.chunks[i];
      if (!item.id || !c) return;
      this.byId.delete(item.id);
      this.byId.set(item.id, { file: c.file, startLine: c.startLine, endLine: c.endLine });
    });
    while (this.byId.size > this.capacity) this.byId.delete(this.byId.keys().next().value as string);
  }

  describe(stats: ContextUsageStatistics): UsageRecord {
    const items = (stats.usageDetails ?? []).map((d): ItemUsage => ({
      id: d.id,
      usage: d.usage,
      ...this.byId.get(d.id),
      ...('expectedTokens' in d ? { expectedTokens: d.expectedTokens, actualTokens: d.actualTokens } : {}),
    }));
    return { usage: stats.usage, resolution: stats.resolution, items };
  }
}

/** One line for the log: how many items Copilot took in full, in part, or not at all. */
export function usageSummary(u: UsageRecord): string {
  const count = (pred: (s: string) => boolean) => u.items.filter((i) => pred(i.usage)).length;
  return `usage ${u.usage}, resolution ${u.resolution}: ${count((s) => s === 'full')} full, ${count((s) => s.startsWith('partial'))} partial, ${count((s) => s.startsWith('none'))} none${count((s) => s === 'error') ? `, ${count((s) => s === 'error')} error` : ''}`;
}
