// Shared data shapes of the retrieval engine. Plain data only: these cross the worker boundary
// (structured clone) and are what the CLI prints with --json.

/** Language ids follow VS Code's (`typescript`, `typescriptreact`, `python`, ...). */
export type LanguageId = string;

/** A file the scanner accepted for indexing. */
export interface ScannedFile {
  /** Workspace-relative path with forward slashes. */
  relPath: string;
  absPath: string;
  size: number;
  mtimeMs: number;
}

/** A file the scanner passed over, and why (shown to the user, counted in stats). */
export interface SkippedFile {
  relPath: string;
  reason: SkipReason;
  detail?: string;
}

export type SkipReason =
  | 'ignored' // .gitignore / .git/info/exclude / .reporecallignore / configured excludes
  | 'too-large'
  | 'binary'
  | 'minified'
  | 'generated'
  | 'secret' // .env*, keys, credentials, configured deny-list: never indexed
  | 'symlink-loop'
  | 'unreadable'
  | 'invalid-name' // a name that is not valid UTF-8 (it has no path the editor or the index can hold)
  | 'unsupported';

export type ChunkKind =
  | 'function'
  | 'method'
  | 'class' // a whole (small) class
  | 'class-header' // the declaration part of a large class that was split into header + methods
  | 'type' // interface / type alias / enum / struct / trait
  | 'module' // grouped leftover top-level code
  | 'window'; // line window: fallback for languages without a grammar, or split of an oversized chunk

/** A syntactic chunk as produced by the chunker (before enrichment and id assignment). */
export interface RawChunk {
  kind: ChunkKind;
  /** 0-based, inclusive line range in the file (line rule: split on \n, strip one trailing \r). */
  startLine: number;
  endLine: number;
  /** Symbol name (for methods: `Class.method`), when the chunk defines one. */
  name?: string;
  /** The declaration line(s) without the body, e.g. `def train(self, loader, epochs=1):`. */
  signature?: string;
  /** Doc comment / docstring text belonging to the definition, if any (its lines are inside the range). */
  doc?: string;
  /** Names this chunk calls (callee identifiers as written, last member segment: `a.b.c()` -> `c`). */
  calls: string[];
}

/** A definition the chunker found, used to resolve calls to chunks (call-graph enrichment). */
export interface Definition {
  name: string; // simple name, e.g. `train` or `Trainer`
  kind: ChunkKind;
  startLine: number;
  endLine: number;
  signature: string;
  /** Owning class/struct/impl type for methods (`Trainer` for `Trainer.train`), if any. */
  container?: string;
}

/** An import statement, used to resolve calls through imports where the grammar allows. */
export interface ImportBinding {
  /** Local name bound in this file. */
  local: string;
  /** Name exported by the source module (`default` / `*` for default or namespace imports). */
  imported: string;
  /** Module specifier as written (`./util`, `..models.base`, `os.path`). */
  source: string;
}

export interface ChunkedFile {
  language: LanguageId;
  chunks: RawChunk[];
  definitions: Definition[];
  imports: ImportBinding[];
}

/** The state of an editor, as the engine sees it when asked for context. */
export interface EditorState {
  /** Workspace-relative path of the file being edited. */
  file: string;
  language?: LanguageId;
  /** Text of the file before the cursor (the whole left context). */
  prefix: string;
  /** Text after the cursor, if known (may be empty). */
  suffix?: string;
  /** Cursor line (0-based). */
  line: number;
  /** Recently opened/edited files, most recent first (workspace-relative). */
  recentFiles?: string[];
}

/** One retrieved chunk, with the score of every signal that contributed. */
export interface RetrievedChunk {
  file: string;
  startLine: number;
  endLine: number;
  kind: ChunkKind;
  name?: string;
  text: string;
  score: number;
  signals: Record<string, number>;
  /** Hover and Find Related Code: how the chunk relates to the name asked about. */
  relation?: ChunkRelation;
}

/**
 * How a retrieved chunk relates to the name a hover or Find Related Code asked about, read from the
 * syntax of its occurrences (lookup/relations.ts); `sibling`: a definition beside the name's own
 * (same directory, same shape or same callers: lookup/siblings.ts).
 */
export interface ChunkRelation {
  kind: 'defines' | 'overrides' | 'calls' | 'uses' | 'imports' | 'mentions' | 'sibling';
  /** The line of the occurrence (0-based, in its file). */
  line: number;
}
