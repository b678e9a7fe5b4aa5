// The shapes of GitHub Copilot's context provider API, v1, as the `@github/copilot-language-server`
// npm package publishes them (dist/api/types.d.ts) plus the experimental `source` ('nes' for
// next-edit suggestions) that Copilot's own copy of the API carries. Written here rather than
// imported: the package is a 330 MB download (its platform binaries) for one declaration file, and
// its published copy lacks `source`. test/unit/copilotApi.test.ts compiles these shapes against the
// published file (kept in test/fixtures/copilot-api/) both ways, so a drift fails the unit suite.
// vscode-free: the bench and the unit tests use these types without an editor.

/** LSP's Position (0-based line, UTF-16 character). */
export interface Position {
  line: number;
  character: number;
}

export interface TextEdit {
  range: { start: Position; end: Position };
  newText: string;
}

export type ProposedTextEdit = TextEdit & {
  positionAfterEdit: Position;
  // Indicates whether the edit is suggested by the IDE. Otherwise it's assumed to be speculative
  source?: 'selectedCompletionInfo';
};

export interface DocumentContext {
  uri: string;
  languageId: string;
  version: number;
  /** @deprecated Use `position` instead. */
  offset: number;
  position: Position;
  proposedEdits?: ProposedTextEdit[];
}

export type ResolutionStatus = 'full' | 'partial' | 'none' | 'error';
export type UsageStatus = ResolutionStatus | 'partial_content_excluded' | 'none_content_excluded';
export type SupportedContextItemType = 'Trait' | 'CodeSnippet';
export type ContextItemOrigin = 'request' | 'update';

export type ContextItemUsageDetails = {
  id: string;
  type: SupportedContextItemType;
  origin?: ContextItemOrigin;
} & (
  | { usage: Extract<UsageStatus, 'full' | 'partial' | 'partial_content_excluded'>; expectedTokens: number; actualTokens: number }
  | { usage: Extract<UsageStatus, 'none' | 'none_content_excluded' | 'error'> }
);

export type ContextUsageStatistics = {
  usage: UsageStatus;
  resolution: ResolutionStatus;
  usageDetails?: ContextItemUsageDetails[];
};

export interface ResolveRequest {
  completionId: string;
  opportunityId: string;
  documentContext: DocumentContext;
  activeExperiments: Map<string, string | number | boolean | string[]>;
  /** @deprecated Use `timeoutEnd` instead. */
  timeBudget: number;
  /** Unix time (ms) at which the request's token is cancelled. */
  timeoutEnd: number;
  previousUsageStatistics?: ContextUsageStatistics;
  data?: unknown;
  /** Who asks: 'nes' for next-edit suggestions (experimental, absent from the published file). */
  source?: string;
}

interface ContextItem {
  /** Integer 0-100, relative to items of the same type; 100 is the most important. */
  importance?: number;
  /** Letters, digits and hyphens only (Copilot replaces any other id with a random one). */
  id?: string;
  origin?: ContextItemOrigin;
}

export interface Trait extends ContextItem {
  name: string;
  value: string;
}

export interface CodeSnippet extends ContextItem {
  uri: string;
  value: string;
  additionalUris?: string[];
}

export type SupportedContextItem = Trait | CodeSnippet;

/** What a cancellation token must offer (VS Code's and LSP's both do). */
export interface CancellationToken {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => unknown): { dispose(): unknown };
}

export type ResolveOnTimeoutResult<T> = T | readonly T[];
export type ResolveResult<T> = Promise<T> | Promise<readonly T[]> | AsyncIterable<T>;

export interface ContextResolver<T extends SupportedContextItem> {
  resolve(request: ResolveRequest, token: CancellationToken): ResolveResult<T>;
  resolveOnTimeout?(request: ResolveRequest): ResolveOnTimeoutResult<T> | undefined;
}

/** A document filter naming at least one of language, scheme, pattern (LSP's TextDocumentFilter; VS Code's DocumentFilter has the same fields). */
export type DocumentFilter =
  | { language: string; scheme?: string; pattern?: string }
  | { language?: string; scheme: string; pattern?: string }
  | { language?: string; scheme?: string; pattern: string };

export interface ContextProvider<T extends SupportedContextItem> {
  id: string;
  selector: Array<string | DocumentFilter>;
  resolver: ContextResolver<T>;
}

export interface ContextProviderApiV1 {
  registerContextProvider<T extends SupportedContextItem>(provider: ContextProvider<T>): { dispose(): unknown };
}

/** What the Copilot extensions export (`getContextProviderAPI('v1')`). */
export interface CopilotExports {
  getContextProviderAPI(version: 'v1'): ContextProviderApiV1 | undefined | Promise<ContextProviderApiV1 | undefined>;
}
