// Retrieval-grounded model completion, independent of VS Code: retrieve snippets, build the prompt
// within its token budgets, ask the backend, cut the answer to the cursor's block (prompt.ts). A
// request bound for a host off loopback has its secrets redacted on the way out (http.ts, redact.ts). The trust gate lives here so that
// no caller can skip it: an untrusted workspace never reaches the network, and neither does the
// text of a file on the secret deny-list.
import { isSecretPath } from '../../../engine/src/public';
import type { EditorState, RetrievedChunk } from '../../../engine/src/public';
import type { HypothesisOutcome, HypothesisSource } from './hypothetical';
import { buildPrompt, cleanCompletion, lineComment, type BuiltPrompt, type PromptBudget } from './prompt';
import type { CompletionBackend } from './types';

/** Hypothetical-code expansion settings (absent: off). */
export interface HydeSettings {
  source: HypothesisSource;
  /** Identifies the document, for reusing a continuation the user is typing along. */
  docKey: string;
  budgetMs: number;
  maxTokens: number;
  /** Fusion weight of the `hyde` signal. */
  weight: number;
}

export interface ModelCompletionInput {
  /** Workspace Trust: false means nothing may be sent to the backend. */
  trusted: boolean;
  state: EditorState;
  retrieve(state: EditorState, budgetTokens: number, signal: AbortSignal, hypothetical?: { text: string; weight: number }): Promise<RetrievedChunk[]>;
  backend: CompletionBackend;
  budget: PromptBudget;
  maxTokens: number;
  timeoutMs: number;
  signal: AbortSignal;
  hyde?: HydeSettings;
  /** Extra secret deny-list patterns (gitignore syntax) on top of the built-in ones. */
  secretPatterns?: readonly string[];
  /** Name of the repository (workspace folder), for repo-level FIM layouts. */
  repoName?: string;
  /** Cuts a multi-line answer as the built-in source's suggestions are (the engine's `vet`); absent: shown as the model wrote it. */
  vet?: (text: string, signal: AbortSignal) => Promise<string>;
}

export interface ModelCompletion {
  text: string;
  built: BuiltPrompt;
  /** What hypothetical-code expansion did for this completion (absent when it is off). */
  hypothesis?: HypothesisOutcome;
}

export async function modelCompletion(input: ModelCompletionInput): Promise<ModelCompletion | undefined> {
  if (!input.trusted || isSecretPath(input.state.file, input.secretPatterns)) return undefined;
  const hyde = input.hyde;
  const hypothesis = hyde && hyde.weight > 0
    ? await hyde.source.continuation({
        trusted: input.trusted, state: input.state, docKey: hyde.docKey, backend: input.backend,
        budgetMs: hyde.budgetMs, maxTokens: hyde.maxTokens, signal: input.signal, secretPatterns: input.secretPatterns,
      })
    : undefined;
  const snippets = await input.retrieve(input.state, input.budget.contextTokens, input.signal, hypothesis?.text ? { text: hypothesis.text, weight: hyde!.weight } : undefined);
  const built = buildPrompt(input.state, snippets, input.budget, input.repoName);
  const raw = await input.backend.complete({
    prompt: built.prompt,
    suffix: built.suffix,
    parts: built.parts,
    maxTokens: input.maxTokens,
    // Stop before the model starts inventing the next "file" of the prompt format.
    stop: ['\n\n\n', `\n${lineComment(input.state.language)} Path:`],
    signal: input.signal,
    timeoutMs: input.timeoutMs,
  });
  const linePrefix = input.state.prefix.slice(input.state.prefix.lastIndexOf('\n') + 1);
  const cleaned = cleanCompletion(raw, built.suffix, linePrefix);
  // A multi-line answer passes the built-in source's checks (the text after the cursor, names unbound at it).
  const text = cleaned.includes('\n') && input.vet ? await input.vet(cleaned, input.signal) : cleaned;
  // The completion shown is the best guess at what comes next: free for the next keystroke's expansion.
  if (text && hyde) hyde.source.remember(hyde.docKey, input.state.prefix, text);
  return text ? { text, built, hypothesis } : undefined;
}
