// The answering logic of the Copilot context provider, vscode-free so the bench runs it as the
// editor does. Copilot asks for context within a few milliseconds (its request's `timeoutEnd`), far
// less than a retrieval takes, so the context is computed ahead: on each edit and cursor move the
// provider starts the retrieval for where the cursor now is (`prefetch`), and a request picks up
// the answer for exactly its document version and cursor, waiting for it until its deadline at most
// (`resolve`). What arrives after the deadline is never delivered; `ready` is what resolveOnTimeout
// gives. Items are the packed excerpts, near-duplicates collapsed into one with `additionalUris`,
// secrets redacted as for any remote model, deny-listed files dropped.
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

/** How a request was answered. */
export type Answer = 'ready' | 'waited' | 'asked' | 'timeout' | 'cancelled' | 'failed';

interface Entry {
  key: string;
  docKey: string;
  result: Promise<ProvidedContext | undefined>;
  value?: ProvidedContext;
  controller: AbortController;
}

/** Contexts computed or computing, per document state and cursor; the oldest go first. */
export class CopilotContextSource {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly capacity = 16) {}

  /** Starts computing the context for `key` (unless known), cancelling the document's other computations in flight. */
  prefetch(key: string, docKey: string, compute: (signal: AbortSignal) => Promise<ProvidedContext | undefined>): void {
    const known = this.entries.get(key);
    if (known) return this.touch(known);
    this.start(key, docKey, compute);
  }

  /**
   * The context for `key`: at once when ready, else the computation started for it (or one started
   * now), waited for until the token is cancelled or `timeoutEnd` (Unix ms) passes, whichever is
   * first. After that nothing: a computation this request started is cancelled with it.
   */
  async resolve(key: string, docKey: string, compute: (signal: AbortSignal) => Promise<ProvidedContext | undefined>, token: CancellationToken, timeoutEnd: number): Promise<{ context?: ProvidedContext; answer: Answer }> {
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
    const wait = timeoutEnd - Date.now();
    const timer = Number.isFinite(wait) && wait < 2 ** 31 ? setTimeout(() => stop('timeout'), Math.max(0, wait)) : undefined;
    try {
      const got = await Promise.race([own.result.then((c) => ({ c })), stopped]);
      if (typeof got === 'string' || token.isCancellationRequested) {
        if (started) this.drop(own);
        return { answer: typeof got === 'string' ? got : 'cancelled' };
      }
      return got.c ? { context: got.c, answer: started ? 'asked' : 'waited' } : { answer: 'failed' };
    } finally {
      sub.dispose();
      if (timer) clearTimeout(timer);
    }
  }

  /** The context ready for `key`, else the latest ready for the same document (one keystroke older), else undefined. */
  ready(key: string, docKey: string): { context: ProvidedContext; exact: boolean } | undefined {
    const exact = this.entries.get(key)?.value;
    if (exact) return { context: exact, exact: true };
    const latest = [...this.entries.values()].reverse().find((e) => e.docKey === docKey && e.value);
    return latest?.value ? { context: latest.value, exact: false } : undefined;
  }

  /** Cancels everything in flight and forgets every context (a new index, trust withdrawn). */
  clear(): void {
    for (const e of this.entries.values()) e.controller.abort();
    this.entries.clear();
  }

  private start(key: string, docKey: string, compute: (signal: AbortSignal) => Promise<ProvidedContext | undefined>): Entry {
    for (const e of [...this.entries.values()]) if (e.docKey === docKey && !e.value) this.drop(e); // superseded
    const controller = new AbortController();
    const entry: Entry = { key, docKey, controller, result: Promise.resolve(undefined) };
    entry.result = compute(controller.signal).then(
      (c) => {
        if (controller.signal.aborted || !c) return undefined;
        entry.value = c;
        return c;
      },
      () => undefined,
    );
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
