// Typed access to the `reporecall.*` settings. Every key is declared and documented in
// package.json `contributes.configuration`; defaults here must match the ones declared there.
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FIM_FAMILIES } from './backends/fim';
import type { FimSetting } from './backends/openai';

export type CompletionBackendKind = 'builtin' | 'openai' | 'llamacpp' | 'ollama' | 'vscode-lm';
export type HoverMode = 'off' | 'identifiers' | 'modifier';
const HOVER_MODES: readonly HoverMode[] = ['off', 'identifiers', 'modifier'];

const SECTION = 'reporecall';

function section(scope?: vscode.ConfigurationScope): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(SECTION, scope);
}

function positive(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
}

export const config = {
  completionEnabled: (): boolean => section().get<boolean>('completion.enabled', true),
  backend: (): CompletionBackendKind => section().get<CompletionBackendKind>('completion.backend', 'builtin'),
  /** Base debounce before a completion request; adapted to typing speed and backend latency. */
  debounceMs: (): number => positive(section().get<number>('completion.debounceMs'), 50),
  /** Token budget for retrieved snippets placed in a model prompt (4 characters per token). */
  contextTokens: (): number => positive(section().get<number>('completion.contextTokens'), 1024),
  /** Token budget for the current file's text before the cursor in a model prompt. */
  prefixTokens: (): number => positive(section().get<number>('completion.prefixTokens'), 1024),
  maxCompletionTokens: (): number => positive(section().get<number>('completion.maxTokens'), 64),
  backendTimeoutMs: (): number => positive(section().get<number>('completion.timeoutMs'), 5000),
  /** Hypothetical-code expansion (HyDE) with a model backend; off by default (not measured with a real model). */
  hydeEnabled: (): boolean => section().get<boolean>('hyde.enabled', false),
  /** Per-keystroke budget for the hypothetical continuation; over it, retrieval proceeds without. */
  hydeBudgetMs: (): number => positive(section().get<number>('hyde.budgetMs'), 250),
  hydeMaxTokens: (): number => positive(section().get<number>('hyde.maxTokens'), 48),
  /** Fusion weight of the `hyde` signal when enabled (0 turns the signal off). */
  hydeWeight: (): number => { const w = section().get<number>('hyde.weight'); return typeof w === 'number' && Number.isFinite(w) && w >= 0 ? w : 0.5; },
  openAiBaseUrl: (): string => section().get<string>('openai.baseUrl', 'http://127.0.0.1:8000/v1'),
  openAiModel: (): string => section().get<string>('openai.model', ''),
  /** Raw fill-in-the-middle template for the OpenAI-compatible endpoint: `auto` (by model name), `none` (prompt + suffix) or a family. */
  openAiFimTemplate: (): FimSetting => {
    const v = section().get<string>('openai.fimTemplate', 'auto');
    return v === 'none' || v === 'auto' || (FIM_FAMILIES as readonly string[]).includes(v) ? (v as FimSetting) : 'auto';
  },
  llamaCppBaseUrl: (): string => section().get<string>('llamacpp.baseUrl', 'http://127.0.0.1:8080'),
  ollamaBaseUrl: (): string => section().get<string>('ollama.baseUrl', 'http://127.0.0.1:11434'),
  ollamaModel: (): string => section().get<string>('ollama.model', 'qwen2.5-coder:1.5b-base'),
  languageModelFamily: (): string => section().get<string>('languageModel.family', ''),
  /**
   * When the hover shows: `reporecall.hover.mode` when the user set it; else the deprecated
   * `reporecall.hover.enabled: false` still means `off`; default `identifiers`.
   */
  hoverMode(): HoverMode {
    const s = section();
    const set = s.inspect<string>('hover.mode');
    const explicit = set?.workspaceFolderValue ?? set?.workspaceValue ?? set?.globalValue;
    if (typeof explicit === 'string') return HOVER_MODES.includes(explicit as HoverMode) ? (explicit as HoverMode) : 'identifiers';
    return s.get<boolean>('hover.enabled', true) === false ? 'off' : 'identifiers';
  },
  /**
   * `reporecall.completion.languages` in VS Code's language-override style (like
   * `github.copilot.enable`): `{"*": true, "markdown": false}`. A language's own entry wins over `*`.
   */
  completionLanguages: (): Record<string, boolean> => {
    const v = section().get<Record<string, unknown>>('completion.languages', { '*': true });
    const out: Record<string, boolean> = {};
    if (v && typeof v === 'object') for (const [k, on] of Object.entries(v)) if (typeof on === 'boolean') out[k] = on;
    return out;
  },
  completionEnabledFor(languageId: string): boolean {
    const langs = config.completionLanguages();
    return langs[languageId] ?? langs['*'] ?? true;
  },
  hoverMaxSnippets: (): number => positive(section().get<number>('hover.maxSnippets'), 3),
  relatedMaxResults: (): number => positive(section().get<number>('related.maxResults'), 20),
  /** Extra gitignore-style patterns excluded from the index of this folder. */
  excludePatterns: (scope: vscode.ConfigurationScope): string[] => section(scope).get<string[]>('index.exclude', []),
  /** The user's secret patterns, on top of the built-in deny-list: never read, indexed or sent. */
  secretPatterns: (scope?: vscode.ConfigurationScope): string[] => section(scope).get<string[]>('privacy.secretPatterns', []),
  /** Whether VS Code's `files.exclude` globs are also kept out of the index. */
  useFilesExclude: (scope: vscode.ConfigurationScope): boolean => section(scope).get<boolean>('index.useFilesExclude', true),
  maxFileBytes: (scope: vscode.ConfigurationScope): number => positive(section(scope).get<number>('index.maxFileSizeKb'), 1024) * 1024,
  denseEnabled: (scope: vscode.ConfigurationScope): boolean => section(scope).get<boolean>('index.dense', true),
  /** The user's own embedding model directory, resolved (`~`, relative to the folder); undefined: the shipped one. */
  modelDirectory(folder: vscode.WorkspaceFolder): string | undefined {
    const raw = section(folder).get<string>('model.directory', '').trim();
    if (!raw) return undefined;
    const expanded = raw === '~' || raw.startsWith('~/') ? path.join(os.homedir(), raw.slice(1)) : raw;
    return path.resolve(folder.uri.fsPath, expanded);
  },
  /** Delay after the last edit before an unsaved buffer is re-indexed. */
  liveUpdateDelayMs: (): number => positive(section().get<number>('index.liveUpdateDelayMs'), 750),
  /** `files.exclude` globs that are switched on, as gitignore-style patterns. */
  filesExclude(scope: vscode.ConfigurationScope): string[] {
    const globs = vscode.workspace.getConfiguration('files', scope).get<Record<string, unknown>>('exclude', {});
    return Object.entries(globs)
      .filter(([, on]) => on === true) // `{ when: ... }` sibling conditions cannot be expressed to the engine
      .map(([glob]) => glob);
  },
};

/** Settings whose change requires the folder engines to be reopened with new options. */
export const ENGINE_SETTINGS = ['reporecall.privacy.secretPatterns', 'reporecall.index.exclude', 'reporecall.index.useFilesExclude', 'reporecall.index.maxFileSizeKb', 'reporecall.index.dense', 'reporecall.model.directory', 'files.exclude'];
