// The hover's and Find Related Code's questions about a name, over the engine's index: what is at a
// position (symbols.ts), what retrieval finds for it with each row's relation from syntax, the
// definition another source named (the language server) and its siblings (siblings.ts). The engine
// delegates here so its facade stays one line per request.
import * as path from 'path';
import type { RetrieveOptions, SymbolRelatedQuery, SymbolStages } from '../api';
import type { Chunker } from '../chunk';
import type { IndexTables } from '../index/tables';
import { lexicalTerms } from '../lexical/tokenize';
import type { RetrievedChunk } from '../types';
import { normalizeLoneCR } from '../util/lines';
import { readSourceText } from '../util/sourceText';
import { stageClock } from '../util/stageClock';
import type { HybridIndex } from '../retrieve/hybrid';
import { packDefinitions } from '../context/definitionContext';
import { siblingsOf } from './siblings';
import { SymbolLookup, type DefinitionAt, type SymbolInfo } from './symbols';
import { IncludedNames } from '../resolve/includedNames';
import type { IncludeSource } from '../resolve/includes';

/** Lines before the cursor whose names' definitions the completion context may carry, and how many names are resolved. */
const DEFINITION_LINES = 60;
const DEFINITION_NAMES = 48;

export interface NameLookupSource {
  chunker: Chunker;
  tables: () => IndexTables;
  index: () => HybridIndex;
  /** The editor's open buffers (indexer/buffers.ts): a file's unsaved text. */
  buffers: () => { overlay(relPath: string): string | undefined };
  /** An indexed file's lines (an open buffer's when there is one). */
  linesOf: (file: string) => string[];
  /** The workspace folder: a file outside the index is read from it. */
  root: string;
  retrieve: (query: string, opts: RetrieveOptions) => Promise<RetrievedChunk[]>;
}

export class NameLookups {
  private lookup: SymbolLookup | undefined;
  private included: IncludedNames | undefined;
  private manifests: { count: number; list: string[] } | undefined;

  constructor(private readonly src: NameLookupSource) {}

  /** The name at a position and what the index knows of it, or null: not a name, or unknown to the index. */
  symbolAt(relPath: string, line: number, character: number, content?: string, stages?: SymbolStages): Promise<SymbolInfo | null> {
    const text = (content === undefined ? undefined : normalizeLoneCR(content)) ?? this.src.buffers().overlay(relPath) ?? (this.src.tables().files.has(relPath) ? undefined : readText(path.join(this.src.root, relPath)));
    return this.symbols().symbolAt(relPath, line, character, text, stages);
  }

  /** Readies a file's hover lookups for this text (its tree, scopes and summary), before a hover there asks. */
  prepare(relPath: string, content?: string, pause?: () => Promise<void>): Promise<void> {
    const text = (content === undefined ? undefined : normalizeLoneCR(content)) ?? this.src.buffers().overlay(relPath) ?? (this.src.tables().files.has(relPath) ? joinedLines(this.src.linesOf(relPath)) : undefined);
    return text === undefined ? Promise.resolve() : this.symbols().prepare(relPath, text, pause);
  }

  /** symbolAt, then what retrieval finds for the name (then `query.context`), each row with its relation; siblings of a resolved definition added. */
  async symbolRelated(relPath: string, line: number, character: number, query: SymbolRelatedQuery, content?: string, signal?: AbortSignal): Promise<{ symbol: SymbolInfo; chunks: RetrievedChunk[]; stages: SymbolStages } | null> {
    const stages: SymbolStages = {};
    const symbol = await this.symbolAt(relPath, line, character, content, stages);
    if (!symbol) return null;
    signal?.throwIfAborted();
    const lap = stageClock(stages);
    const found = await this.src.retrieve(query.context ? `${symbol.name}\n${query.context}` : symbol.name, { ...query.options, signal });
    lap('retrieve');
    const relations = await this.symbols().relations(symbol, found);
    lap('relations');
    const chunks = found.map((c, i) => (relations[i] ? { ...c, relation: relations[i] } : c));
    const def = symbol.resolution === 'defines' ? symbol.definitions[0] : undefined;
    if (def && query.siblings) addSiblings(chunks, this.siblings(def.file, symbol.name, def, query.siblings));
    return { symbol, chunks, stages };
  }

  /** What is at a definition's location another source named (the language server), with up to `siblings` of its siblings. */
  async definitionAt(relPath: string, line: number, character: number, siblings = 0): Promise<DefinitionAt & { siblings?: RetrievedChunk[] }> {
    const at = await this.symbols().definitionAt(relPath, line, character);
    const d = at.definition;
    return d && at.name && siblings ? { ...at, siblings: this.siblings(relPath, at.name, d, siblings) } : at;
  }

  /**
   * The completion context's definitions (definitionContext.ts): the names used on the last
   * `DEFINITION_LINES` lines before the cursor, resolved as code, within `budgetChars`.
   */
  async definitionsInPlay(state: { file: string; prefix: string; line: number }, budgetChars: number, windowStart: number, seen: Set<string>, signal?: AbortSignal): Promise<RetrievedChunk[]> {
    if (budgetChars <= 0 || !state.file) return [];
    // The buffer's whole text parses best (the prefix ends mid-statement); the prefix when they differ.
    const own = this.src.buffers().overlay(state.file) ?? (this.src.tables().files.has(state.file) ? this.src.linesOf(state.file).join('\n') : undefined);
    const text = own?.startsWith(state.prefix) ? own : state.prefix;
    const uses = await this.symbols().resolvedNear(state.file, text, state.line - DEFINITION_LINES, state.line, DEFINITION_NAMES, signal);
    return packDefinitions(uses, (f) => this.src.linesOf(f), { budgetChars, file: state.file, windowStart, cursorLine: state.line, seen });
  }

  /** The names a C or C++ file's includes define (resolve/includedNames.ts), for the completion's names check; undefined: not all read by `deadline`. */
  includedNames(file: string, text: string, deadline: number): Promise<ReadonlySet<string> | undefined> {
    return (this.included ??= new IncludedNames(this.includeSource())).of(file, text, deadline);
  }

  /** A file changed or left the index. */
  fileChanged(file: string): void {
    this.included?.changed(file);
  }

  dispose(): void {
    this.lookup?.dispose();
    this.included?.dispose();
  }

  private includeSource(): IncludeSource {
    return {
      grammarFor: (file, text) => this.src.chunker.grammarFor(file, text),
      textOf: (file) => this.textOf(file),
      definitionsOf: (name) => this.src.tables().defs.lookup(name),
      hasFile: (file) => this.hasFile(file),
    };
  }

  private textOf(file: string): string | undefined {
    return this.src.buffers().overlay(file) ?? (this.src.tables().files.has(file) ? joinedLines(this.src.linesOf(file)) : undefined);
  }

  private hasFile(file: string): boolean {
    return this.src.tables().files.has(file) || this.src.buffers().overlay(file) !== undefined;
  }

  private symbols(): SymbolLookup {
    const { tables, index } = this.src;
    return (this.lookup ??= new SymbolLookup({
      chunker: this.src.chunker,
      textOf: (file) => this.textOf(file),
      definitionsOf: (name) => tables().defs.lookup(name),
      hasFile: (file) => this.hasFile(file),
      chunkRange: (id) => tables().chunks.get(id),
      chunksWithTerm: (term, k) => index().lexical.search([term], k).map((h) => h.id),
      packageManifests: () => this.packageManifests(),
    }));
  }

  /** Indexed package.json files, listed again only when the number of files changes (a hover must not walk every path). */
  private packageManifests(): string[] {
    const files = this.src.tables().files;
    if (this.manifests?.count !== files.count) this.manifests = { count: files.count, list: files.relPaths().filter((f) => f === 'package.json' || f.endsWith('/package.json')) };
    return this.manifests.list;
  }

  private siblings(file: string, name: string, range: { startLine: number; endLine: number }, max: number): RetrievedChunk[] {
    const { files, chunks } = this.src.tables();
    const lexical = this.src.index().lexical;
    return siblingsOf({ file, name, startLine: range.startLine, endLine: range.endLine }, {
      filesIn: (dir) => files.relPaths().filter((f) => path.posix.dirname(f) === (dir || '.')),
      chunksOf: (f) => chunks.idsOfFile(f).map((id) => chunks.get(id)!).filter(Boolean),
      linesOf: (f) => this.src.linesOf(f),
      filesMentioning: (n) => new Set(lexical.search([lexicalTerms(n).at(-1) ?? n.toLowerCase()], 64).map((h) => chunks.fileOf(h.id)).filter((f): f is string => !!f)),
    }, max);
  }
}

/** Marks retrieved chunks that are siblings as such (unless they relate to the name otherwise) and appends the others. */
function addSiblings(chunks: RetrievedChunk[], siblings: RetrievedChunk[]): void {
  for (const s of siblings) {
    const i = chunks.findIndex((c) => c.file === s.file && c.startLine <= s.startLine && s.startLine <= c.endLine);
    if (i < 0) chunks.push(s);
    else if (!chunks[i].relation || chunks[i].relation!.kind === 'mentions') chunks[i] = { ...chunks[i], relation: s.relation };
  }
}

function readText(abs: string): string | undefined {
  try {
    return readSourceText(abs);
  } catch {
    return undefined;
  }
}

/** A file's lines as one text, joined once per version of its cached lines (a hover reads a file many times). */
const JOINED = new WeakMap<readonly string[], string>();
function joinedLines(lines: readonly string[]): string {
  let text = JOINED.get(lines);
  if (text === undefined) JOINED.set(lines, (text = lines.join('\n')));
  return text;
}
