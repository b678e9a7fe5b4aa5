// Where a completion comes from: the engine's built-in model-free completion, or a model backend
// fed with retrieved snippets. Workspace Trust gates every backend that sends code off the engine:
// in an untrusted workspace only the built-in source is used.
import * as vscode from 'vscode';
import type { EditorState } from '../../../engine/src/public';
import { modelCompletion } from '../backends/pipeline';
import { redactSecrets, redactsRequestTo } from '../backends/redact';
import { modelBackendEntry, type ModelBackendKind } from '../backends/registry';
import type { CompletionBackend } from '../backends/types';
import { config, type CompletionBackendKind } from '../config';
import type { Ctx } from '../ctx';
import type { FolderIndex } from '../folderIndex';
import type { RetrievedContextRecord } from './retrievedContext';

/** What a completion was built from, plus the other completions offered after it (best first). */
export type CompletionMeta = RetrievedContextRecord & { alternatives?: string[] };

export interface SourcedCompletion {
  text: string;
  context: CompletionMeta;
}

export { OPENAI_KEY_SECRET } from '../backends/registry';

/** The backend the settings ask for, downgraded to `builtin` when the workspace is not trusted. */
export function effectiveBackend(): CompletionBackendKind {
  const wanted = config.backend();
  return wanted !== 'builtin' && !vscode.workspace.isTrusted ? 'builtin' : wanted;
}

async function modelBackend(ctx: Ctx, kind: ModelBackendKind): Promise<CompletionBackend> {
  return modelBackendEntry(kind).create({
    setting: (key) => config.backendSetting(key),
    secret: async (key) => ctx.extension.secrets.get(key),
    redactLoopback: config.redactLoopback(),
  });
}

export async function completeFrom(ctx: Ctx, fi: FolderIndex, state: EditorState, signal: AbortSignal): Promise<SourcedCompletion | undefined> {
  const backend = effectiveBackend();
  const started = Date.now();
  if (backend === 'builtin') {
    const result = await fi.client.complete(state, { signal });
    if (result?.abstained) ctx.completions.noteAbstention(state.file, state.line, result.abstained);
    if (!result || !result.text) return undefined;
    // The built-in source's alternatives become further inline items (VS Code cycles through them).
    const alternatives = (result.alternatives ?? []).map((a) => a.text).filter((t) => t && t !== result.text);
    return {
      text: result.text,
      context: {
        time: new Date(), folder: fi.folder.uri, file: state.file, line: state.line, backend, snippets: [], source: result.source, completion: result.text, latencyMs: Date.now() - started, confidence: result.confidence,
        ...(alternatives.length ? { alternatives } : {}),
      },
    };
  }
  const model = await modelBackend(ctx, backend);
  const result = await modelCompletion({
    trusted: vscode.workspace.isTrusted,
    state,
    secretPatterns: config.secretPatterns(fi.folder),
    repoName: fi.folder.name,
    retrieve: (st, budgetTokens, sig, hypothetical) => fi.client.retrieve(st, { budgetTokens, signal: sig, hypothetical }),
    backend: model,
    budget: { contextTokens: config.contextTokens(), prefixTokens: config.prefixTokens() },
    maxTokens: config.maxCompletionTokens(),
    timeoutMs: config.backendTimeoutMs(),
    signal,
    vet: config.keepModelOutput() ? undefined : async (text, sig) => (await fi.client.vet(state, text, { signal: sig })).text,
    hyde: config.hydeEnabled()
      ? { source: ctx.hypotheses, docKey: `${fi.folder.uri.toString()}|${state.file}`, budgetMs: config.hydeBudgetMs(), maxTokens: config.hydeMaxTokens(), weight: config.hydeWeight() }
      : undefined,
  });
  if (!result) return undefined;
  const { text, built, hypothesis } = result;
  return {
    text,
    context: { time: new Date(), folder: fi.folder.uri, file: state.file, line: state.line, backend, snippets: built.used, prompt: redactsRequestTo(model.endpoint, config.redactLoopback()) ? redactSecrets(built.prompt).text : built.prompt, completion: text, latencyMs: Date.now() - started, hypothesis },
  };
}
