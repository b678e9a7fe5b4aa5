// Retrieval-grounded model completion, independent of VS Code: retrieve snippets, build the prompt
// within its token budgets, ask the backend, clean the answer. The trust gate lives here so that
// no caller can skip it: an untrusted workspace never reaches the network.
import type { EditorState, RetrievedChunk } from '../../../engine/src/types';
import { buildPrompt, cleanCompletion, lineComment, type BuiltPrompt, type PromptBudget } from './prompt';
import type { CompletionBackend } from './types';

export interface ModelCompletionInput {
  /** Workspace Trust: false means nothing may be sent to the backend. */
  trusted: boolean;
  state: EditorState;
  retrieve(state: EditorState, budgetTokens: number, signal: AbortSignal): Promise<RetrievedChunk[]>;
  backend: CompletionBackend;
  budget: PromptBudget;
  maxTokens: number;
  timeoutMs: number;
  signal: AbortSignal;
}

export interface ModelCompletion {
  text: string;
  built: BuiltPrompt;
}

export async function modelCompletion(input: ModelCompletionInput): Promise<ModelCompletion | undefined> {
  if (!input.trusted) return undefined;
  const snippets = await input.retrieve(input.state, input.budget.contextTokens, input.signal);
  const built = buildPrompt(input.state, snippets, input.budget);
  const raw = await input.backend.complete({
    prompt: built.prompt,
    suffix: built.suffix,
    maxTokens: input.maxTokens,
    // Stop before the model starts inventing the next "file" of the prompt format.
    stop: ['\n\n\n', `\n${lineComment(input.state.language)} Path:`],
    signal: input.signal,
    timeoutMs: input.timeoutMs,
  });
  const text = cleanCompletion(raw, built.suffix);
  return text ? { text, built } : undefined;
}
