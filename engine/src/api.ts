// The engine's public face: what the CLI, the benchmark and the extension's worker call.
import type { RetrievedChunk, SkipReason } from './types';

export interface EngineOptions {
  /** Workspace folder to index (absolute). */
  root: string;
  /** Where the index lives. Never inside `root` unless the user asked for it. */
  indexDir: string;
  /** Directory with `model.onnx` + `tokenizer.json`; defaults to the model shipped in the package. */
  modelDir?: string;
  /**
   * Used when `modelDir` (a user's model) cannot be loaded: the reason is logged and reported in
   * `IndexStats.modelWarning`, and indexing goes on with this model instead of failing.
   */
  fallbackModelDir?: string;
  /** Files larger than this are skipped with reason `too-large` (default 1 MiB). */
  maxFileBytes?: number;
  /** Extra gitignore-style patterns (e.g. VS Code's `files.exclude`). */
  excludePatterns?: string[];
  /** Extra secret deny-list patterns (gitignore syntax), on top of the built-in ones. */
  secretPatterns?: string[];
  /** Index only files with these extensions (e.g. ['.py']); default: every text file the scanner accepts. */
  extensions?: string[];
  /**
   * Never write the index folder (the CLI's `query`): no writer lock, no saves; the last commit is
   * read and changes since it are caught up in memory only.
   */
  readOnly?: boolean;
  /** Turn the dense signal off (no model is loaded, onnxruntime-node is never required). */
  dense?: boolean;
  /**
   * Work budget of one lexical search, in postings (Bm25Options.maxQueryPostings: the most common
   * query terms beyond it are dropped); default 250,000. Only large repositories reach it.
   */
  maxQueryPostings?: number;
  /**
   * A team index on PostgreSQL to sync from (team/sync.ts): the index published for HEAD or its
   * newest published ancestor is downloaded and installed as this engine's local index.
   */
  team?: TeamIndexOptions;
  /** Receives the team index's state when it changes (the worker forwards it to the extension). */
  onTeamState?: (state: TeamState) => void;
  /** Receives human-readable log lines. */
  log?: (line: string) => void;
}

export interface TeamIndexOptions {
  /** postgres://user@host:port/db, without a password. */
  url: string;
  /** The stored secret for exactly this URL (the extension's SecretStorage), if any. */
  password?: string;
  /**
   * Where the URL was set: 'user' (the user's own settings) or 'workspace' (a repository's, the
   * default). A workspace URL never gets a password from PGPASSWORD or a pgpass file, nor names a
   * local file (sslrootcert=…): team/urlPolicy.ts.
   */
  urlOrigin?: 'user' | 'workspace';
  /** A user URL's opt-in (reporecall.teamIndex.passwordFromEnvironment): PGPASSWORD or the pgpass file answer when no password is stored. */
  passwordFromEnvironment?: boolean;
  /** The repository's name in the team index (the publisher's --repo; default the folder's name). */
  repo: string;
}

/**
 * checking: looking for a published commit; downloading: fetching its files (done/total bytes);
 * synced: the local index came from it; local: none to sync, built locally; ignored: one was
 * published with another model or format; unreachable, error: the sync failed (the local index
 * answers, the sync resumes at the next start).
 */
export type TeamStateName = 'checking' | 'downloading' | 'synced' | 'local' | 'ignored' | 'unreachable' | 'error';

export interface TeamState {
  state: TeamStateName;
  /** What happened, for the status bar's tooltip (never a password). */
  message?: string;
  /** The published commit synced, being downloaded or ignored. */
  commit?: string;
  /** While downloading: bytes fetched and to fetch. */
  done?: number;
  total?: number;
}

export interface IndexProgress {
  /** download: the team index's files (done and total in bytes). */
  phase: 'download' | 'scan' | 'parse' | 'embed' | 'save';
  done: number;
  total: number;
  file?: string;
}

export interface IndexStats {
  files: number;
  chunks: number;
  skipped: Partial<Record<SkipReason, number>>;
  /** Files re-parsed in the last run (0 when nothing changed). */
  changedFiles: number;
  indexBytes: number;
  seconds: number;
  /** Directory of the embedding model in use; null when the dense signal is off. */
  modelDir: string | null;
  /**
   * Why the configured model is not the one in use (it could not be loaded; modelDir is the
   * fallback), or why there is none (the ONNX runtime cannot be loaded on this platform, e.g.
   * darwin-x64; modelDir is null and the engine uses its lexical and symbol signals only), if so.
   */
  modelWarning?: string;
  /**
   * Why the index on disk is not being updated, when it is not (read-only or full disk, another
   * process writing it, opened read-only): queries answer from its last commit plus this engine's
   * changes in memory.
   */
  updatesPaused?: string;
  /** Ignore rules the last scan did not apply (a line or file beyond the matching budget), each naming its file. */
  scanWarnings?: string[];
  /** The team index's state, when one is configured. */
  team?: TeamState;
}

/** RetrieveOptions.files: a filter on the chunks' files (retrieve/fileFilter.ts applies it). */
export interface FileFilter {
  /** gitignore-style pattern (`src/**\/*.ts`, `tests/`, `*.py`), matched against workspace-relative paths. */
  glob?: string;
  /** A VS Code language id (`python`), compared with the language of the file's extension. */
  language?: string;
}

export interface RetrieveOptions {
  k?: number;
  /**
   * Search a free-text query that reads as a sentence as a question in words (retrieve/prose.ts: its
   * content words and their inflections, its files' coverage of them). search_code sets it; the team
   * index does not serve it yet (with one configured, such a query ranks as without).
   */
  prose?: boolean;
  /** Cut the result to this many tokens (4 characters per token). */
  budgetTokens?: number;
  signal?: AbortSignal;
  /** A longer chunk is cut to its declaration line plus the window of lines that shares most with
   *  the query (default 20), so a context budget holds more distinct chunks. */
  maxLinesPerHit?: number;
  /** How a long chunk is cut: 'best' window for the query (default) or its 'head'. */
  excerpt?: 'best' | 'head';
  /** Drop blank and comment-only lines from retrieved text (denser prompts). Default true, false
   *  with freshNames (which drops blank lines and those adding no name anyway). */
  compact?: boolean;
  /** At most this many chunks from one file (more files in the same budget). Default unlimited. */
  maxPerFile?: number;
  /** 0..1: how much a chunk's share of identifiers not already in the editor window or in chunks
   *  picked before it counts when ordering the context (maximal marginal relevance). Default 0. */
  novelty?: number;
  /**
   * A hypothetical continuation of the code at the cursor (a few lines from a language model, or
   * the remainder of a completion the user is typing along): searched lexically and densely as the
   * `hyde` signal (retrieve/hyde.ts). `weight` is that signal's fusion weight for this query;
   * default the engine's (`DEFAULT_WEIGHTS.hyde`, 0: off until measured with a real model).
   * Plain data, so it crosses the worker boundary with the other options.
   */
  hypothetical?: { text: string; weight?: number };
  /**
   * Tokens (4 characters each) of declaration lines of the names in play put before the retrieved
   * code (context/declarations.ts): the members of the classes used near the cursor and of the
   * class it is in, the definitions of names near the cursor. Default 0: none.
   */
  declarationTokens?: number;
  /**
   * Tokens (4 characters each) of the definitions of the names used near the cursor, resolved as
   * code through the file's imports (context/definitionContext.ts), put before the retrieved code
   * and taken from `budgetTokens`. Default: `DEFINITION_SHARE` of `budgetTokens` when it is given.
   */
  definitionTokens?: number;
  /**
   * Drop retrieved lines (after a chunk's first) that add no name beyond the last 20 lines before
   * the cursor and the chunks before them (excerpt.ts `seen`), and cut chunks to 30 lines instead
   * of 20, so the budget carries more names the model has not seen. Default: on when `budgetTokens`
   * is given (context for a completion), off otherwise (Find Related, hover, free-text queries).
   */
  freshNames?: boolean;
  /**
   * How many of the best hits are also searched for the line most like the cursor's last line, the
   * lines after it put before the retrieved code (context/continuation.ts): what follows the
   * analogous code is what the next line most likely needs. Default 3 with freshNames, else 0.
   */
  continuations?: number;
  /** Only chunks of files matching this glob and/or language (retrieve/fileFilter.ts); default every file. */
  files?: FileFilter;
  /**
   * Rank without the embedding model (no query vector: the dense and hyde signals off), in the
   * milliseconds the lexical signals take: a first answer while the full retrieval embeds the query
   * (the Copilot context provider's). Default false.
   */
  lexicalOnly?: boolean;
  /**
   * Called once with the answer of the lexical signals (as `lexicalOnly` would give) before the
   * embedding model runs; the full answer follows, reusing their rankings (one request, two
   * answers: the Copilot context provider's first answer in milliseconds). Over the engine process
   * it arrives as a `partial` message of the same request. Default none.
   */
  onQuick?: (chunks: RetrievedChunk[]) => void;
}

/**
 * What to retrieve for the name at a position once it is found (Engine.symbolRelated): hover and
 * Find Related Code ask in one round trip instead of two. The query is the name, then `context`.
 */
export interface SymbolRelatedQuery {
  /** Text after the name in the query (the hover: the hovered line's code). */
  context?: string;
  options: Omit<RetrieveOptions, 'signal'>;
  /** Find Related Code: up to this many siblings of a resolved definition appended (lookup/siblings.ts). */
  siblings?: number;
}

/** Where a symbolRelated request's engine time went (ms per stage), for bench:ui's hover records. */
export type SymbolStages = Partial<Record<'parse' | 'resolve' | 'definitions' | 'copies' | 'usedIn' | 'retrieve' | 'relations', number>>;

export interface CompletionAlternative {
  /** Text to insert at the cursor (may span lines, indented relative to the cursor's line). */
  text: string;
  /** Where it came from (the lines continued), for "Show Retrieved Context". */
  source?: { file: string; startLine: number; endLine: number };
  confidence: number;
  /** The evidence behind it: summed IDF of the tokens before the cursor that matched the source exactly. */
  evidence?: number;
}

/** The best completion, and optionally other distinct ones after it, best first. */
export interface CompletionResult extends CompletionAlternative {
  /** Further completions, best first (an editor cycles through them); absent when there is one. */
  alternatives?: CompletionAlternative[];
  /**
   * Set (with an empty `text`) when repository code continues these lines but the source declined
   * to offer it, saying why in words (an editor shows it as the reason no suggestion appeared).
   */
  abstained?: string;
}
