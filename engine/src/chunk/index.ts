// The syntactic chunker: splits a source file into definition-sized chunks with names,
// signatures, docs, calls and imports, using tree-sitter grammars (web-tree-sitter, wasm).
// Files without a grammar, and anything the parser cannot handle in time, become line windows.
import type { ChunkedFile, LanguageId, RawChunk } from '../types';
import { extract, type CallSite } from './extract';
import { defaultGrammarDir, GrammarLoader, type LoadedGrammar } from './grammar';
import { GRAMMARS, grammarOf, languageOfPath, refineLanguage } from './languages';
import { layoutChunks } from './layout';
import { LineIndex, lineWindows, type SizeLimits } from './lines';
import { parseReusing } from './reparse';
import { SyntaxTrees } from './syntaxTrees';
import { normalizeLoneCR } from '../util/lines';

export interface ChunkOptions {
  /** A definition longer than this many lines is split (class -> header + methods). Default 120. */
  maxChunkLines?: number;
  /** ...or longer than this many characters. Default 6000 (about 1500 tokens). */
  maxChunkChars?: number;
  /** Lines per window for files without a grammar (windows do not overlap). Default 40. */
  windowLines?: number;
  /** Parse + query time budget per file; past it the file falls back to windows. Default 2000 ms. */
  timeoutMs?: number;
  /** Files longer than this many characters are not parsed, only windowed. Default 2,000,000. */
  maxParseChars?: number;
  /** At most this many distinct callee names per chunk. Default 64. */
  maxCallsPerChunk?: number;
  /**
   * Files whose brackets nest deeper than this are only windowed: tree-sitter's wasm runtime
   * recurses per nesting level and can trap on absurd depths (generated data). Default 256.
   */
  maxNestingDepth?: number;
  /**
   * The file is a buffer being typed in: parse it from its previous version's tree (kept in
   * `Chunker.trees`), which takes about a millisecond where a full parse of a large file takes
   * tens, during which the engine answers nothing (chunk/syntaxTrees.ts). Default false.
   */
  incremental?: boolean;
}

export interface ChunkerOptions {
  /** Directory holding wasm/ and queries/; default: the package's grammars/ directory. */
  grammarDir?: string;
}

const DEFAULTS: Required<ChunkOptions> = {
  maxChunkLines: 120,
  maxChunkChars: 6000,
  windowLines: 40,
  timeoutMs: 2000,
  maxParseChars: 2_000_000,
  maxCallsPerChunk: 64,
  maxNestingDepth: 256,
  incremental: false,
};

/** Why a file was chunked into windows instead of syntax (for stats and logs). */
export type FallbackReason = 'no-grammar' | 'grammar-unavailable' | 'too-large' | 'too-deep' | 'timeout' | 'error';

export class Chunker {
  /** Files that fell back to windows although they have a grammar, by reason. */
  readonly fallbacks: Partial<Record<FallbackReason, number>> = {};

  /** The latest trees of buffers being typed in and files looked up (shared with lookup/symbols.ts). */
  readonly trees = new SyntaxTrees();

  private constructor(private readonly loader: GrammarLoader) {}

  /** Initialises the tree-sitter runtime; grammars themselves load on first use. */
  static async create(opts: ChunkerOptions = {}): Promise<Chunker> {
    const grammarDir = opts.grammarDir ?? defaultGrammarDir();
    if (!grammarDir) {
      throw new Error('grammars/wasm not found next to the engine; run `npm run grammars` to copy the grammar files');
    }
    return new Chunker(await GrammarLoader.create(grammarDir));
  }

  /** VS Code language id for a path (by extension), or undefined when unknown. */
  languageForPath(relPath: string): LanguageId | undefined {
    return languageOfPath(relPath);
  }

  /** Whether files of this language are chunked syntactically (vs. line windows). */
  hasGrammar(language: LanguageId): boolean {
    return grammarOf(language) !== undefined;
  }

  /** Grammars that failed to load, with the reason (their files are windowed). */
  get grammarErrors(): ReadonlyMap<string, string> {
    return this.loader.errors;
  }

  /** Loads the grammar for `language` now instead of on first use; false if it has none or fails. */
  async ensureLanguage(language: LanguageId): Promise<boolean> {
    const name = grammarOf(language);
    return name !== undefined && (await this.loader.get(name)) !== undefined;
  }

  /**
   * Chunks one file. Never throws: unknown languages, parse failures and timeouts give line
   * windows. Chunks are sorted, do not overlap, and cover every non-blank line.
   */
  async chunk(relPath: string, text: string, opts: ChunkOptions = {}): Promise<ChunkedFile> {
    const options = { ...DEFAULTS, ...opts };
    // tree-sitter counts LF only: a lone CR would merge lines the editor shows apart (same length, offsets unmoved).
    const content = normalizeLoneCR(text);
    const language = refineLanguage(relPath, content, languageOfPath(relPath)) ?? 'plaintext';
    const grammarName = grammarOf(language);
    let reason: FallbackReason = 'no-grammar';
    let lines: LineIndex | undefined;
    try {
      lines = new LineIndex(content);
      if (grammarName) {
        if (content.length > options.maxParseChars) reason = 'too-large';
        else if (bracketDepthExceeds(content, options.maxNestingDepth)) reason = 'too-deep';
        else {
          const grammar = await this.loader.get(grammarName);
          if (!grammar) reason = 'grammar-unavailable';
          else {
            const result = this.chunkSyntax(relPath, grammar, content, lines, options);
            if (result !== 'timeout') return { language, ...result };
            reason = 'timeout';
          }
        }
      }
    } catch (err) {
      reason = 'error';
      // A trap inside the wasm runtime (e.g. its stack overflowing) leaves it unusable: start afresh.
      if (err instanceof Error && err.name === 'RuntimeError') await this.loader.restart().catch(() => undefined);
    }
    if (reason !== 'no-grammar') this.fallbacks[reason] = (this.fallbacks[reason] ?? 0) + 1;
    return windowFile(language, lines ?? new LineIndex(content), options);
  }

  /** The grammar (parser, query) for a path's language, for callers that parse one file themselves (lookup/symbols.ts). */
  async grammarFor(relPath: string, content?: string): Promise<LoadedGrammar | undefined> {
    const byPath = languageOfPath(relPath);
    const name = grammarOf((content === undefined ? byPath : refineLanguage(relPath, content, byPath)) ?? 'plaintext');
    return name ? this.loader.get(name) : undefined;
  }

  /** Frees the wasm-side parsers and queries. */
  dispose(): Promise<void> {
    this.trees.dispose();
    return this.loader.dispose();
  }

  private chunkSyntax(
    relPath: string,
    grammar: LoadedGrammar,
    content: string,
    lines: LineIndex,
    options: Required<ChunkOptions>,
  ): Omit<ChunkedFile, 'language'> | 'timeout' {
    const deadline = Date.now() + options.timeoutMs;
    // Returning true from the progress callback cancels the parse (parse() then returns null).
    const progress = () => Date.now() > deadline;
    // The cache owns an incremental parse's tree; a one-off parse is deleted here.
    const tree = options.incremental ? this.trees.parse(relPath, grammar, content, progress) : parseReusing(grammar.parser, content, undefined, progress);
    if (!tree) return 'timeout';
    try {
      const limits: SizeLimits = { maxLines: options.maxChunkLines, maxChars: options.maxChunkChars };
      const found = extract(tree.rootNode, grammar.query, GRAMMARS[grammar.name], content, lines, deadline);
      if (Date.now() > deadline) return 'timeout'; // the query was cut short: its captures are partial
      // A buffer's hover reads this text's definitions next (symbols.ts fileDefinitions): the same extract.
      if (options.incremental) this.trees.keepDefinitions(relPath, grammar.name, content, found.definitions);
      const { chunks, definitions } = layoutChunks(tree.rootNode, found.definitions, lines, limits);
      assignCalls(chunks, found.calls, options.maxCallsPerChunk);
      return { chunks, definitions, imports: dedupeImports(found.imports) };
    } finally {
      if (!options.incremental) tree.delete();
    }
  }
}

/** Whether ( [ { nest deeper than `limit` anywhere (strings and comments are not skipped: cheap and conservative). */
function bracketDepthExceeds(content: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < content.length; i++) {
    const c = content.charCodeAt(i);
    if (c === 40 || c === 91 || c === 123) {
      if (++depth > limit) return true;
    } else if ((c === 41 || c === 93 || c === 125) && depth > 0) depth--;
  }
  return false;
}

function windowFile(language: LanguageId, lines: LineIndex, options: Required<ChunkOptions>): ChunkedFile {
  const chunks: RawChunk[] = lineWindows(lines, options.windowLines, options.maxChunkChars).map((range) => ({
    kind: 'window',
    startLine: range.startLine,
    endLine: range.endLine,
    calls: [],
  }));
  return { language, chunks, definitions: [], imports: [] };
}

/** Gives each chunk the distinct callee names called on its lines (chunks are sorted, disjoint). */
function assignCalls(chunks: RawChunk[], calls: CallSite[], maxPerChunk: number): void {
  if (!chunks.length) return;
  const sets = chunks.map(() => new Set<string>());
  for (const call of calls) {
    let lo = 0;
    let hi = chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (chunks[mid].startLine <= call.line) lo = mid;
      else hi = mid - 1;
    }
    const chunk = chunks[lo];
    if (call.line >= chunk.startLine && call.line <= chunk.endLine && sets[lo].size < maxPerChunk) sets[lo].add(call.name);
  }
  chunks.forEach((chunk, i) => (chunk.calls = [...sets[i]]));
}

function dedupeImports(imports: ChunkedFile['imports']): ChunkedFile['imports'] {
  const seen = new Set<string>();
  return imports.filter((binding) => {
    const key = `${binding.local}\0${binding.imported}\0${binding.source}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export { languageOfPath } from './languages';
