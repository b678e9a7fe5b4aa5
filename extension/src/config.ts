// Typed access to the `reporecall.*` settings. Every key is declared and documented in
// package.json `contributes.configuration`, the only place defaults and bounds are written:
// values are read against that declaration (settings.ts).
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CompletionBackendKind } from './backends/registry';
import { splitTeamUrl } from './teamIndexUrl';
import { booleanSetting, declared, numberSetting, objectSetting, SECTION, stringArraySetting, stringSetting } from './settings';

export type { CompletionBackendKind } from './backends/registry';
export type HoverMode = 'off' | 'identifiers' | 'modifier';
/** With GitHub Copilot: context for its completions only (default), both ghost texts, or RepoRecall's own only. */
export type WithCopilot = 'context' | 'both' | 'own';
const WITH_COPILOT: readonly WithCopilot[] = ['context', 'both', 'own'];
const HOVER_MODES: readonly HoverMode[] = ['off', 'identifiers', 'modifier'];

function section(scope?: vscode.ConfigurationScope): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(SECTION, scope);
}

const num = (key: string, scope?: vscode.ConfigurationScope): number => numberSetting(key, section(scope).get(key));
const str = (key: string, scope?: vscode.ConfigurationScope): string => stringSetting(key, section(scope).get(key));
const bool = (key: string, scope?: vscode.ConfigurationScope): boolean => booleanSetting(key, section(scope).get(key));
const strings = (key: string, scope?: vscode.ConfigurationScope): string[] => stringArraySetting(key, section(scope).get(key));

export const config = {
  completionEnabled: (): boolean => bool('completion.enabled'),
  backend: (): CompletionBackendKind => str('completion.backend') as CompletionBackendKind,
  /** What RepoRecall does beside GitHub Copilot (features/copilotContext.ts, copilotPresence.ts). */
  withCopilot: (): WithCopilot => {
    const v = str('completion.withCopilot') as WithCopilot;
    return WITH_COPILOT.includes(v) ? v : (declared('completion.withCopilot').default as WithCopilot);
  },
  /** Base debounce before a completion request; adapted to typing speed and backend latency. */
  debounceMs: (): number => num('completion.debounceMs'),
  /** Token budget for retrieved snippets placed in a model prompt (4 characters per token). */
  contextTokens: (): number => num('completion.contextTokens'),
  /** Token budget for the current file's text before the cursor in a model prompt. */
  prefixTokens: (): number => num('completion.prefixTokens'),
  maxCompletionTokens: (): number => num('completion.maxTokens'),
  keepModelOutput: (): boolean => bool('completion.keepModelOutput'),
  backendTimeoutMs: (): number => num('completion.timeoutMs'),
  /** Hypothetical-code expansion (HyDE) with a model backend; off by default (not measured with a real model). */
  hydeEnabled: (): boolean => bool('hyde.enabled'),
  /** Per-keystroke budget for the hypothetical continuation; over it, retrieval proceeds without. */
  hydeBudgetMs: (): number => num('hyde.budgetMs'),
  hydeMaxTokens: (): number => num('hyde.maxTokens'),
  /** Fusion weight of the `hyde` signal when enabled (0 turns the signal off). */
  hydeWeight: (): number => num('hyde.weight'),
  /** A model backend's string setting (backends/registry.ts lists which). */
  backendSetting: (key: string): string => str(key),
  /** Redact requests to a model server on loopback too (machine scope: a workspace cannot turn it off). */
  redactLoopback: (): boolean => bool('redaction.loopback'),
  /**
   * When the hover shows: `reporecall.hover.mode` when the user set it; else the deprecated
   * `reporecall.hover.enabled: false` still means `off`; default `identifiers`.
   */
  hoverMode(): HoverMode {
    const s = section();
    const set = s.inspect<string>('hover.mode');
    const explicit = set?.workspaceFolderValue ?? set?.workspaceValue ?? set?.globalValue;
    const fallback = declared('hover.mode').default as HoverMode;
    if (typeof explicit === 'string') return HOVER_MODES.includes(explicit as HoverMode) ? (explicit as HoverMode) : fallback;
    return booleanSetting('hover.enabled', s.get('hover.enabled')) === false ? 'off' : fallback;
  },
  /**
   * `reporecall.completion.languages` in VS Code's language-override style (like
   * `github.copilot.enable`): `{"*": true, "markdown": false}`. A language's own entry wins over `*`.
   */
  completionLanguages: (): Record<string, boolean> => {
    const v = objectSetting('completion.languages', section().get('completion.languages'));
    const out: Record<string, boolean> = {};
    if (v && typeof v === 'object') for (const [k, on] of Object.entries(v)) if (typeof on === 'boolean') out[k] = on;
    return out;
  },
  completionEnabledFor(languageId: string): boolean {
    const langs = config.completionLanguages();
    return langs[languageId] ?? langs['*'] ?? true;
  },
  hoverMaxSnippets: (): number => num('hover.maxSnippets'),
  relatedMaxResults: (): number => num('related.maxResults'),
  /** How long hover and Find Related Code wait for the language's definition provider (0: never ask it). */
  definitionBudgetMs: (): number => num('definitionProvider.budgetMs'),
  /** Extra gitignore-style patterns excluded from the index of this folder. */
  excludePatterns: (scope: vscode.ConfigurationScope): string[] => strings('index.exclude', scope),
  /** The user's secret patterns, on top of the built-in deny-list: never read, indexed or sent. */
  secretPatterns: (scope?: vscode.ConfigurationScope): string[] => strings('privacy.secretPatterns', scope),
  /** Whether VS Code's `files.exclude` globs are also kept out of the index. */
  useFilesExclude: (scope: vscode.ConfigurationScope): boolean => bool('index.useFilesExclude', scope),
  maxFileBytes: (scope: vscode.ConfigurationScope): number => num('index.maxFileSizeKb', scope) * 1024,
  denseEnabled: (scope: vscode.ConfigurationScope): boolean => bool('index.dense', scope),
  /** The user's own embedding model directory, resolved (`~`, relative to the folder); undefined: the shipped one. */
  modelDirectory(folder: vscode.WorkspaceFolder): string | undefined {
    const raw = str('model.directory', folder).trim();
    if (!raw) return undefined;
    const expanded = raw === '~' || raw.startsWith('~/') ? path.join(os.homedir(), raw.slice(1)) : raw;
    return path.resolve(folder.uri.fsPath, expanded);
  },
  /**
   * The team index URL as written ('' : off); ctx.ts takes any password out of it (teamIndexUrl.ts).
   * Never read in an untrusted workspace: a repository's settings would choose the server (restricted
   * in package.json too), so there is no team connection there at all.
   */
  teamIndexUrl: (scope?: vscode.ConfigurationScope): string => (vscode.workspace.isTrusted ? str('teamIndex.url', scope).trim() : ''),
  /**
   * Who chose the URL in effect: 'user' when it is the user's own setting's value, else 'workspace'
   * (a repository's .vscode/settings.json or the workspace file), which the engine never answers with
   * a password from the environment nor lets name local files (engine/src/team/urlPolicy.ts).
   */
  teamIndexUrlOrigin(scope?: vscode.ConfigurationScope): 'user' | 'workspace' {
    const i = section(scope).inspect<string>('teamIndex.url');
    const own = typeof i?.globalValue === 'string' ? i.globalValue.trim() : undefined;
    return own !== undefined && own === config.teamIndexUrl(scope) ? 'user' : 'workspace';
  },
  /** reporecall.teamIndex.passwordFromEnvironment, from the user's own settings only (a workspace value is ignored). */
  teamPasswordFromEnvironment: (): boolean => booleanSetting('teamIndex.passwordFromEnvironment', section().inspect<boolean>('teamIndex.passwordFromEnvironment')?.globalValue),
  /** The team index URL without a password, or undefined when unset or not a PostgreSQL URL. */
  teamIndexUrlWithoutPassword: (scope?: vscode.ConfigurationScope): string | undefined => {
    const raw = config.teamIndexUrl(scope);
    const split = raw ? splitTeamUrl(raw) : undefined;
    return split && !('error' in split) ? split.url : undefined;
  },
  /** The repository's name in the team index; '' : the folder's name. */
  teamIndexRepository: (scope?: vscode.ConfigurationScope): string => str('teamIndex.repository', scope).trim(),
  /** Delay after the last edit before an unsaved buffer is re-indexed. */
  liveUpdateDelayMs: (): number => num('index.liveUpdateDelayMs'),
  /** `files.exclude` globs that are switched on, as gitignore-style patterns. */
  filesExclude(scope: vscode.ConfigurationScope): string[] {
    const globs = vscode.workspace.getConfiguration('files', scope).get<Record<string, unknown>>('exclude', {});
    return Object.entries(globs)
      .filter(([, on]) => on === true) // `{ when: ... }` sibling conditions cannot be expressed to the engine
      .map(([glob]) => glob);
  },
};

/** What a folder's engine is opened with from the settings; a change to any of it reopens the engine (ctx.ts). */
export interface EngineSettings {
  userModelDir: string | undefined;
  excludePatterns: string[];
  secretPatterns: string[];
  maxFileBytes: number;
  dense: boolean;
  /** The team index (URL without a password, who chose it, repository, deadline), when configured. */
  team: { url: string; urlOrigin: 'user' | 'workspace'; passwordFromEnvironment: boolean; repo: string } | undefined;
}

export function engineSettings(folder: vscode.WorkspaceFolder): EngineSettings {
  return {
    userModelDir: config.modelDirectory(folder),
    excludePatterns: [...config.excludePatterns(folder), ...(config.useFilesExclude(folder) ? config.filesExclude(folder) : [])],
    secretPatterns: config.secretPatterns(folder),
    maxFileBytes: config.maxFileBytes(folder),
    dense: config.denseEnabled(folder),
    team: teamSettings(folder),
  };
}

function teamSettings(folder: vscode.WorkspaceFolder): EngineSettings['team'] {
  const raw = config.teamIndexUrl(folder);
  const split = raw ? splitTeamUrl(raw) : undefined;
  // A URL that is not one still goes to the engine, which reports why it cannot connect (status bar).
  const url = !split ? undefined : 'error' in split ? raw : split.url;
  if (!url) return undefined;
  const urlOrigin = config.teamIndexUrlOrigin(folder);
  const passwordFromEnvironment = urlOrigin === 'user' && config.teamPasswordFromEnvironment();
  return { url, urlOrigin, passwordFromEnvironment, repo: config.teamIndexRepository(folder) || folder.name };
}
