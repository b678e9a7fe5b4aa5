// Protocol C served through the Copilot context provider path: the engine in its own process behind
// EngineClient (as the extension runs it), the provider's own answering logic
// (extension/src/features/copilotResolver.ts), and the timing of an editor: the context is
// prefetched when the edit arrives, Copilot's request comes VS Code's 50 ms inline-suggest delay
// later with a budget of 7, 20, 50 or 150 ms and its token cancelled at `timeoutEnd`. Reported: the
// share answered within each budget and the new-identifier recall of what was delivered in it
// (nothing delivered: recall 0), beside the recall of the same retrieval awaited without a deadline.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { EngineClient } from '../../engine/src/rpc/client';
import type { RetrievedChunk } from '../../engine/src/public';
import { VSCODE_INLINE_SUGGEST_DELAY_MS } from '../../extension/src/features/adaptiveDebounce';
import type { CancellationToken } from '../../extension/src/features/copilotApi';
import { contextKey } from '../../extension/src/features/copilotRequest';
import { CopilotContextSource, snippetsFrom, type Compute } from '../../extension/src/features/copilotResolver';
import { percentile } from './protocols';
import { LANGUAGE_EXTENSIONS, type Repo, type Task } from './split';

export const PROVIDER_BUDGETS_MS = [7, 20, 50, 150] as const;
/** How many late tasks the JSON lists per budget: enough to see a pattern, bounded for big runs. */
const LATE_LISTED = 30;

function cancellation(afterMs: number): { token: CancellationToken; dispose(): void } {
  const listeners = new Set<() => unknown>();
  let cancelled = false;
  const timer = setTimeout(() => {
    cancelled = true;
    for (const l of [...listeners]) l();
  }, afterMs);
  return {
    token: { get isCancellationRequested() { return cancelled; }, onCancellationRequested: (l) => (listeners.add(l), { dispose: () => listeners.delete(l) }) },
    dispose: () => clearTimeout(timer),
  };
}

/** What one task's requests got: per budget, whether it was answered in time and the excerpts delivered. */
export interface ProviderTaskResult {
  /** `full`: answered with the full pass (not the quick one without the model). */
  byBudget: Map<number, { answered: boolean; full: boolean; delivered: string[] }>;
  unbounded: string[];
  retrievalMs: number;
}

export class ProviderPath {
  private client: EngineClient | undefined;
  private indexDir = '';

  constructor(private readonly modelDir: string | undefined) {}

  async open(repo: Repo): Promise<void> {
    await this.close();
    this.indexDir = fs.mkdtempSync(path.join(os.tmpdir(), `reporecall-provider-${repo.name}-`));
    const dense = this.modelDir !== undefined && this.modelDir !== 'none';
    this.client = new EngineClient({
      workerPath: path.resolve(__dirname, '../../engine/src/rpc/worker.js'),
      init: { options: { root: repo.root, indexDir: this.indexDir, dense, modelDir: dense ? this.modelDir : undefined, extensions: LANGUAGE_EXTENSIONS[repo.language] } },
      recycleAfterFiles: 0,
    });
    await this.client.indexAll();
  }

  /** One task: the editor's buffer holds the left context; `excluded` is protocol C's rule (the query window). */
  async task(task: Task, excluded: (c: RetrievedChunk) => boolean, budgetTokens: number): Promise<ProviderTaskResult> {
    const client = this.client!;
    await client.updateFile(task.file, task.left_context);
    try {
      const state = { file: task.file, language: task.language, prefix: task.left_context, line: task.cursor.line };
      const compute: Compute = async (signal, onQuick) => {
        const t0 = performance.now();
        const context = (chunks: RetrievedChunk[]) => ({ ...snippetsFrom(chunks.filter((c) => !excluded(c)), { file: task.file, prefix: task.left_context, uriOf: (f: string) => f }), ms: performance.now() - t0 });
        return context(await client.retrieve(state, { budgetTokens, signal, onQuick: (chunks) => onQuick(context(chunks)) }));
      };
      const source = new CopilotContextSource();
      const key = contextKey(task.file, 1, task.left_context.length);
      // The edit: the provider starts the context for the cursor it leaves.
      source.prefetch(key, task.file, compute);
      await new Promise((r) => setTimeout(r, VSCODE_INLINE_SUGGEST_DELAY_MS));
      // Copilot's requests, one per budget, at the same moment; each token is cancelled at its timeoutEnd.
      const byBudget = new Map<number, { answered: boolean; full: boolean; delivered: string[] }>();
      await Promise.all(PROVIDER_BUDGETS_MS.map(async (budget) => {
        const c = cancellation(budget);
        const got = await source.resolve(key, task.file, compute, c.token, Date.now() + budget);
        c.dispose();
        const answered = got.context !== undefined && !c.token.isCancellationRequested;
        // Not answered in time: Copilot calls resolveOnTimeout, which gives what is ready by then (for this cursor).
        const late = answered ? undefined : source.ready(key, task.file);
        const items = answered ? got.context!.items : late && late.of !== 'older' ? late.context.items : [];
        byBudget.set(budget, { answered, full: answered && got.answer !== 'quick', delivered: items.map((i) => i.value) });
      }));
      const never = cancellation(2 ** 30);
      const full = await source.resolve(key, task.file, compute, never.token, Date.now() + 600_000);
      never.dispose();
      return { byBudget, unbounded: full.context?.items.map((i) => i.value) ?? [], retrievalMs: full.context?.ms ?? 0 };
    } finally {
      await client.updateFile(task.file);
    }
  }

  async close(): Promise<void> {
    await this.client?.close();
    this.client = undefined;
    if (this.indexDir) fs.rmSync(this.indexDir, { recursive: true, force: true });
    this.indexDir = '';
  }
}

/** Sums the tasks into the bench JSON's `provider` entry. */
export class ProviderAcc {
  private readonly answered = new Map<number, number[]>();
  private readonly full = new Map<number, number[]>();
  private readonly recall = new Map<number, number[]>();
  private readonly unbounded: number[] = [];
  private readonly ms: number[] = [];
  /** Per budget, the tasks not answered within it (where a miss comes from: the task and its full pass's time). */
  private readonly late = new Map<number, { task: string; retrieval_ms: number }[]>();

  add(r: ProviderTaskResult, score: (snippets: string[]) => number | undefined, taskId: string): void {
    const full = score(r.unbounded);
    if (full === undefined) return; // no new identifier in the target: protocol C does not count it
    this.unbounded.push(full);
    this.ms.push(r.retrievalMs);
    for (const [b, got] of r.byBudget) {
      if (!got.answered) this.late.set(b, [...(this.late.get(b) ?? []), { task: taskId, retrieval_ms: Math.round(r.retrievalMs * 10) / 10 }]);
      this.answered.set(b, [...(this.answered.get(b) ?? []), got.answered ? 1 : 0]);
      this.full.set(b, [...(this.full.get(b) ?? []), got.full ? 1 : 0]);
      this.recall.set(b, [...(this.recall.get(b) ?? []), score(got.delivered) ?? 0]);
    }
  }

  result(): Record<string, unknown> {
    const mean = (xs: number[] = []) => (xs.length ? Math.round((xs.reduce((s, x) => s + x, 0) / xs.length) * 1000) / 1000 : 0);
    const out: Record<string, unknown> = {};
    for (const b of PROVIDER_BUDGETS_MS) out[String(b)] = { answered: mean(this.answered.get(b)), full: mean(this.full.get(b)), new_id_recall: mean(this.recall.get(b)), n: this.answered.get(b)?.length ?? 0 };
    out.unbounded_new_id_recall = mean(this.unbounded);
    out.retrieval_ms = { p50: percentile(this.ms, 50), p95: percentile(this.ms, 95) };
    out.late = Object.fromEntries(PROVIDER_BUDGETS_MS.map((b) => [String(b), (this.late.get(b) ?? []).slice(0, LATE_LISTED)]));
    return out;
  }
}

/** The `provider` entry as a Markdown table. */
export function renderProvider(p: Record<string, { answered: number; full?: number; new_id_recall: number; n: number }> & { unbounded_new_id_recall: number; retrieval_ms: { p50: number; p95: number } }): string {
  const pc = (x: number | undefined) => (x === undefined ? '–' : `${(100 * x).toFixed(1)}%`);
  const rows = PROVIDER_BUDGETS_MS.map((b) => `| ${b} ms | ${pc(p[String(b)].answered)} | ${pc(p[String(b)].full)} | ${p[String(b)].new_id_recall.toFixed(3)} | ${p[String(b)].n} |`);
  return ['', '## Copilot context provider path (protocol C, prefetched at the edit, asked 50 ms later)', '', '| budget | answered | by the full pass | new-id recall delivered | n |', '|---|---|---|---|---|', ...rows,
    '', `Unbounded (the same retrieval awaited): new-id recall ${p.unbounded_new_id_recall.toFixed(3)}; retrieval through the engine process p50 ${p.retrieval_ms.p50} / p95 ${p.retrieval_ms.p95} ms.`, ''].join('\n');
}
