// The hypothetical continuation for hypothetical-code expansion (HyDE): a model's short guess at
// the next lines, which the engine searches as its `hyde` signal. It sits on the keystroke path,
// so it gets a strict budget: an answer later than that is dropped and retrieval goes on without
// it; the next keystroke cancels it. A continuation the user is still typing along (the last
// completion shown, or the last guess) is reused for free. vscode-free, so the benchmark and the
// unit tests run it against real HTTP servers.
import { isSecretPath } from '../../../engine/src/public';
import type { EditorState } from '../../../engine/src/public';
import { buildPrompt } from './prompt';
import type { CompletionBackend } from './types';

/** Tokens of the prefix sent with the request: enough for the model to see what is going on, short enough to answer fast. */
const HYPOTHESIS_PREFIX_TOKENS = 512;
/** A guess is cut to this many lines: past a few lines it is mostly the model's imagination. */
const HYPOTHESIS_LINES = 6;

export interface HypothesisRequest {
  /** Workspace Trust: false means nothing may be sent to the backend. */
  trusted: boolean;
  state: EditorState;
  /** Identifies the document (a reused continuation must come from the same one). */
  docKey: string;
  backend: CompletionBackend;
  /** The per-keystroke budget in ms: over it the guess is skipped. */
  budgetMs: number;
  /** Default 48. */
  maxTokens?: number;
  /** Cancelled by the next keystroke: the request is aborted and the AbortError propagates. */
  signal: AbortSignal;
  /** Extra secret deny-list patterns (gitignore syntax) on top of the built-in ones. */
  secretPatterns?: readonly string[];
}

export type HypothesisOutcome =
  | { text: string; from: 'reused' | 'model' }
  | { text?: undefined; skipped: 'untrusted' | 'secret' | 'over-budget' | 'failed' | 'empty'; detail?: string };

interface Remembered {
  docKey: string;
  prefix: string;
  text: string;
}

export class HypothesisSource {
  private last: Remembered | undefined;

  /** Keeps a continuation the user may type along: a completion just shown, or a fresh guess. */
  remember(docKey: string, prefix: string, text: string): void {
    if (text.trim()) this.last = { docKey, prefix, text };
  }

  /** What is left of the remembered continuation when everything typed since it still matches it. */
  reusable(docKey: string, prefix: string): string | undefined {
    const last = this.last;
    if (!last || last.docKey !== docKey || !prefix.startsWith(last.prefix)) return undefined;
    const typed = prefix.slice(last.prefix.length);
    if (!last.text.startsWith(typed)) return undefined;
    const rest = last.text.slice(typed.length);
    return rest.trim() ? rest : undefined;
  }

  /** The hypothetical continuation for this keystroke, or why there is none. */
  async continuation(req: HypothesisRequest): Promise<HypothesisOutcome> {
    if (!req.trusted) return { skipped: 'untrusted' };
    // A secret file's text is never sent anywhere (scan/secrets.ts), not even its prefix.
    if (isSecretPath(req.state.file, req.secretPatterns)) return { skipped: 'secret' };
    const reused = this.reusable(req.docKey, req.state.prefix);
    if (reused) return { text: reused, from: 'reused' };
    req.signal.throwIfAborted();

    const built = buildPrompt({ ...req.state, suffix: '' }, [], { contextTokens: 0, prefixTokens: HYPOTHESIS_PREFIX_TOKENS, suffixTokens: 0 });
    const budget = AbortSignal.timeout(req.budgetMs);
    let raw: string;
    try {
      raw = await req.backend.complete({
        prompt: built.prompt,
        suffix: '',
        maxTokens: req.maxTokens ?? 48,
        temperature: 0,
        stop: ['\n\n\n'],
        signal: AbortSignal.any([req.signal, budget]),
        // The backend's own timeout stays behind the budget, so an overrun is always told apart from a failure.
        timeoutMs: req.budgetMs * 2 + 100,
      });
    } catch (err) {
      if (req.signal.aborted) throw err; // the next keystroke: nothing to retrieve for any more
      if (budget.aborted) return { skipped: 'over-budget' };
      return { skipped: 'failed', detail: (err as Error).message };
    }
    const text = raw.replace(/\r\n/g, '\n').split('\n').slice(0, HYPOTHESIS_LINES).join('\n').trimEnd();
    if (!text.trim()) return { skipped: 'empty' };
    this.remember(req.docKey, req.state.prefix, text);
    return { text, from: 'model' };
  }
}
