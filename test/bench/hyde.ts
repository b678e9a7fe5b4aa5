// Where the benchmark's hypothetical continuations (the engine's `hyde` signal) come from:
//   --hyde oracle                         the task's true next lines, cut to what a model would be
//                                         allowed to answer (48 tokens). An UPPER BOUND, leaky by
//                                         construction (it is the answer); never a default, and every
//                                         row it feeds is labelled `hyde(oracle)`.
//   --hyde-endpoint URL --hyde-model NAME a real OpenAI-compatible /v1/completions server, asked the
//                                         way the extension asks it (extension/src/backends/hypothetical.ts),
//                                         with --hyde-budget MS (default 250) per task.
// One guess per task, shared by protocols A, B and C.
import { getEncoding } from 'js-tiktoken';
import { HypothesisSource } from '../../extension/src/backends/hypothetical';
import { OpenAiCompletionsBackend } from '../../extension/src/backends/openai';
import type { Repo, Task } from './split';

/** What a model may answer in the extension (reporecall.hyde.maxTokens default). */
const GUESS_TOKENS = 48;
/** Lines of ground truth the oracle may use (a few lines, like the extension's guess). */
const ORACLE_LINES = 6;

export interface HypothesisProvider {
  /** Label in row names: `oracle` or `model`. */
  readonly label: string;
  forTask(task: Task, repo: Repo): Promise<string | undefined>;
  /** Time spent asking for each guess (ms), for the report. */
  readonly ms: number[];
  /** Guesses skipped (over budget, failed, empty). */
  skipped: number;
}

const enc = getEncoding('p50k_base');

export function hypothesisProvider(argv: string[]): HypothesisProvider | undefined {
  const get = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const cache = new Map<string, string | undefined>();
  if (get('hyde') === 'oracle') {
    return {
      label: 'oracle', ms: [], skipped: 0,
      async forTask(task, repo) {
        const lines = repo.byPath.get(task.file)!.lines.slice(task.cursor.line, task.cursor.line + ORACLE_LINES);
        return enc.decode(enc.encode(lines.join('\n')).slice(0, GUESS_TOKENS));
      },
    };
  }
  const endpoint = get('hyde-endpoint');
  if (get('hyde') !== undefined && get('hyde') !== 'model') throw new Error(`--hyde ${get('hyde')}: expected 'oracle' (or --hyde-endpoint URL --hyde-model NAME)`);
  if (!endpoint) return undefined;
  const backend = new OpenAiCompletionsBackend({ baseUrl: endpoint, model: get('hyde-model') ?? '' });
  const budgetMs = Number(get('hyde-budget') ?? 250);
  const source = new HypothesisSource();
  const provider: HypothesisProvider = {
    label: 'model', ms: [], skipped: 0,
    async forTask(task) {
      if (cache.has(task.id)) return cache.get(task.id);
      const t0 = performance.now();
      const out = await source.continuation({
        trusted: true, docKey: task.id, backend, budgetMs, maxTokens: GUESS_TOKENS, signal: new AbortController().signal,
        state: { file: task.file, language: task.language, prefix: task.left_context, line: task.cursor.line },
      });
      provider.ms.push(performance.now() - t0);
      if (out.text === undefined) provider.skipped++;
      cache.set(task.id, out.text);
      return out.text;
    },
  };
  return provider;
}
