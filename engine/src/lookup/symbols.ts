// "What is the name at this position, and does the repository know it?" for the editor's hover and
// Find Related Code. The syntax node at the position decides (tree-sitter, the chunker's grammars):
// keywords, comments, strings and numbers are not names. In Python, TypeScript and JavaScript the
// name is resolved as code (resolve/resolver.ts): a local is no repository name (null), a resolved
// name has the one definition it refers to (`resolution: 'defines'`), an unresolved one the
// definitions of its spelling as candidates only. Other languages keep the name lookup
// (`resolution: 'name'`): a name counts as known when the index's definition table defines it, or
// when chunks of other files mention it (lexical index, whole word checked against the chunk's text). For each definition the declaration line as written and its
// doc comment are returned, so a caller can show what the name is without a window that starts at
// a comment.
import type { Node, Tree } from 'web-tree-sitter';
import type { Chunker } from '../chunk';
import type { FoundDefinition } from '../chunk/extract';
import type { LoadedGrammar } from '../chunk/grammar';
import type { GrammarName } from '../chunk/languages';
import { lexicalTerms } from '../lexical/tokenize';
import { Resolver, resolves, type Resolution, type ResolvedDef, type ResolvedVia } from '../resolve/resolver';
import { nextTurn } from '../util/breathe';
import type { SymbolStages } from '../api';
import type { ChunkRelation } from '../types';
import { chunkRelations } from './chunkRelations';
import { FileDefinitions } from './fileDefinitions';
import { warmCandidates } from './warmCandidates';
import { bodyKey, copyTest, MAX_COPY_SCAN } from './bodyKeys';
import { stageClock } from '../util/stageClock';
import { insideFunction, wordPattern, MAX_PARSE_CHARS, NAME_TYPES, PARSE_TIMEOUT_MS, nameNodeAt, roleOf, sliceLines, type FoundDefinitionLite, type SymbolRole } from './symbolSyntax';

/** Names that tree-sitter parses as identifiers but that are keywords to the reader. */
export const KEYWORD_NAMES: Partial<Record<GrammarName, ReadonlySet<string>>> = {
  python: new Set(['self', 'cls', 'print', 'len', 'range', 'str', 'int', 'float', 'dict', 'list', 'set', 'tuple', 'bool', 'object', 'super', 'isinstance', 'type']),
  rust: new Set(['self', 'Self', 'crate', 'super']),
  go: new Set(['nil', 'true', 'false', 'iota']),
  typescript: new Set(['undefined', 'console', 'string', 'number', 'boolean', 'any', 'unknown', 'never', 'void', 'object']),
  tsx: new Set(['undefined', 'console', 'string', 'number', 'boolean', 'any', 'unknown', 'never', 'void', 'object']),
  javascript: new Set(['undefined', 'console', 'arguments']),
  java: new Set(['String', 'Object', 'System']),
};
/** Shortest name worth a lookup (`i`, `x` say nothing). */
export const MIN_NAME = 2;
/** Imported modules a file's warm-up summarises (each parsed once per text). */
const PREPARED_IMPORTS = 24;
const MAX_DEFINITIONS = 8;
const MAX_USED_IN = 20;

export type { SymbolRole };
/**
 * How the definitions were found: `defines` the one the name refers to (resolved as code);
 * `candidates` definitions of the same spelling, not resolved; `external` none in the repository (a
 * library name, a builtin); `name` the spelling alone, in a language the resolver does not cover.
 */
export type SymbolResolution = 'defines' | 'candidates' | 'external' | 'name';

export interface SymbolDefinition {
  file: string;
  /** The definition's range (0-based, inclusive), wrappers and leading comments included. */
  startLine: number;
  endLine: number;
  /** First line of the declaration proper. */
  declLine: number;
  kind: FoundDefinition['role'] | 'variable' | 'attribute' | 'module';
  /** The declaration as written, up to its body (at most 3 lines). */
  declaration: string;
  /** Doc comment or docstring, at most a few lines; `Copied from` notes are not documentation. */
  doc?: string;
  /** What a `Copied from X` note above the definition names, when it has one. */
  copyOf?: string;
  /** A key of its normalised body (code lines, comments and whitespace dropped): equal keys are copies. */
  bodyKey?: string;
}

/** What is at a definition's location (the language server's answer, Engine.definitionAt). */
export interface DefinitionAt {
  /** The definition there, as the hover shows it; absent for a local or a file the index lacks. */
  definition?: SymbolDefinition;
  /** Its name, when the chunker knows the definition. */
  name?: string;
  /** The location is a name bound in a function or block (the language's own hover has it). */
  local?: boolean;
  /** Same-named definitions elsewhere with the same normalised body. */
  copies?: number;
}

export interface SymbolInfo {
  name: string;
  /** The syntax node's type (`identifier`, `property_identifier`, `type_identifier`, ...). */
  kind: string;
  /** Whether the name is called here, declared here, or otherwise referenced. */
  role: SymbolRole;
  /** The name's range on its line (0-based characters). */
  line: number;
  startCharacter: number;
  endCharacter: number;
  definitions: SymbolDefinition[];
  resolution: SymbolResolution;
  /** How the resolver reached a definition, or an outside name (`import`: a module the repository lacks); resolve/types.ts. */
  resolvedVia?: ResolvedVia;
  /** For a resolved definition: same-named definitions elsewhere with its normalised body (its copies), counted, not listed. */
  copies?: number;
  /** Other files whose indexed chunks mention the name as a whole word (at most 20). */
  usedInFiles: string[];
}

/** What SymbolLookup needs from the engine. */
export interface SymbolSource {
  chunker: Chunker;
  /** Current text of an indexed (or open) file, or undefined. */
  textOf(file: string): string | undefined;
  /** The definition table's rows for a name. */
  definitionsOf(name: string): ReadonlyArray<{ file: string; chunkId: number }>;
  chunkRange(id: number): { file: string; startLine: number; endLine: number } | undefined;
  /** Chunk ids whose lexical terms include `term` (best first). */
  chunksWithTerm(term: string, k: number): number[];
  /** Whether the repository has this file (imports resolve to it). */
  hasFile(file: string): boolean;
  /** The repository's package.json files, for imports of workspace packages by name (the same list while nothing changed). */
  packageManifests?(): readonly string[];
}

export interface SymbolLookupOptions {
  /** Resolve names as code where the resolver covers the language (default true); false: the spelling alone. */
  resolve?: boolean;
}

interface ParsedFile {
  tree: Tree;
  grammar: GrammarName;
  loaded: LoadedGrammar;
}

/** The text a name is being looked up in (the hovered buffer's), which stands for its file meanwhile. */
interface OwnText { file: string; text: string }
const textIn = (file: string, src: SymbolSource, own?: OwnText): string | undefined => (own?.file === file ? own.text : src.textOf(file));

export class SymbolLookup {
  private readonly defs: FileDefinitions;
  private readonly resolver: Resolver | undefined;

  constructor(private readonly src: SymbolSource, opts: SymbolLookupOptions = {}) {
    this.defs = new FileDefinitions(src.chunker);
    this.resolver = opts.resolve === false ? undefined : new Resolver({
      textOf: (f) => src.textOf(f),
      hasFile: (f) => src.hasFile(f),
      packageManifests: () => src.packageManifests?.() ?? [],
      grammarFor: (f, text) => src.chunker.grammarFor(f, text),
      definitionsOf: (name) => src.definitionsOf(name),
    });
  }

  /**
   * The name at `line`:`character` of `relPath` (text `content`, else the file as indexed), or null
   * when the position is not on a name (keyword, comment, string, number, punctuation), the file
   * has no grammar, the name is a local, or the index neither defines nor elsewhere uses the name.
   */
  async symbolAt(relPath: string, line: number, character: number, content?: string, stages: SymbolStages = {}): Promise<SymbolInfo | null> {
    if (!Number.isInteger(line) || !Number.isInteger(character) || line < 0 || character < 0) {
      throw new RangeError(`symbolAt: line and character must be non-negative integers (got ${line}, ${character})`);
    }
    const text = content ?? this.src.textOf(relPath);
    if (text === undefined || text.length > MAX_PARSE_CHARS) return null;
    const lap = stageClock(stages);
    const parsed = await this.parse(relPath, text);
    lap('parse');
    if (!parsed) return null;
    const node = nameNodeAt(parsed.tree, line, character) ?? (character > 0 ? nameNodeAt(parsed.tree, line, character - 1) : undefined);
    if (!node) return null;
    const name = node.text;
    if (name.length < MIN_NAME || KEYWORD_NAMES[parsed.grammar]?.has(name)) return null;
    // Read from the node before awaiting: the shared tree cache may replace this tree meanwhile.
    const at = { name, kind: node.type, role: roleOf(node), line: node.startPosition.row, startCharacter: node.startPosition.column, endCharacter: node.startPosition.column + name.length };
    const resolved = this.resolver?.resolve(relPath, text, parsed.tree, parsed.loaded, node);
    const r = resolved ? await resolved : undefined;
    lap('resolve');
    if (r?.kind === 'local') return null;
    const resolution: SymbolResolution = r ? (r.kind === 'defines' ? 'defines' : r.kind) : 'name';
    // The hovered file is read as the text hovered (a buffer typed in since its live update), not as the index holds it.
    const own: OwnText = { file: relPath, text };
    const definitions = r?.kind === 'defines' ? [await this.describe(r.def, own)] : r?.kind === 'external' ? [] : await this.definitionsOf(name, own);
    lap('definitions');
    const usedInFiles = this.usedIn(name, relPath);
    lap('usedIn');
    if (!definitions.length && !usedInFiles.length) return null;
    if (r?.kind !== 'defines') return { ...at, definitions, resolution, ...(r?.kind === 'external' && r.via ? { resolvedVia: r.via } : {}), usedInFiles };
    const copies = await this.copiesOf(name, definitions[0], own);
    lap('copies');
    return { ...at, definitions, resolution, ...(r.via ? { resolvedVia: r.via } : {}), ...(copies ? { copies } : {}), usedInFiles };
  }

  /** Parses this text of `relPath` and readies its resolver state (Resolver.prepare): the O(file) part of a hover there, done before one. */
  async prepare(relPath: string, text: string, pause: () => Promise<void> = nextTurn): Promise<void> {
    const parsed = text.length <= MAX_PARSE_CHARS ? await this.parse(relPath, text) : undefined;
    if (!parsed) return;
    // Scopes, then the summary, a pause apart; a newer text of the file parsed meanwhile has its own prepare.
    this.resolver?.prepareScopes(relPath, text, parsed.tree, parsed.loaded);
    await pause();
    const tree = this.src.chunker.trees.kept(relPath, parsed.grammar, text);
    if (!tree) return;
    const imported = this.resolver?.prepare(relPath, text, tree, parsed.loaded) ?? [];
    // The file's own definitions (a hover on a name it defines describes it), unless its live update read them.
    await pause().then(() => this.defs.of(relPath, text));
    // Then the modules it imports, one a `pause`: a hover on an imported name reads their summaries and definitions.
    for (const file of imported.slice(0, PREPARED_IMPORTS)) await pause().then(() => this.resolver?.summary(file)).then(() => this.fileDefinitions(file));
    // Then the files defining its member names: a hover on one whose receiver is unknown describes them all (warmCandidates.ts).
    const own: OwnText = { file: relPath, text };
    await warmCandidates(text, {
      definitionsOf: (name) => this.src.definitionsOf(name),
      kept: (file) => ((t) => t === undefined || this.defs.has(file, t))(textIn(file, this.src, own)),
      defines: async (file, name) => (await this.fileDefinitions(file, own)).some((d) => d.name === name),
      stale: () => !this.src.chunker.trees.kept(relPath, parsed.grammar, text),
    }, pause, MAX_DEFINITIONS);
  }

  /** How many other definitions of `name` have `d`'s normalised body (copies, not same-named code). */
  private async copiesOf(name: string, d: SymbolDefinition, own?: OwnText): Promise<number> {
    const key = d.bodyKey ?? this.bodyKeyOf(d.file, d.startLine, d.endLine, own);
    if (await this.noCopyPossible(name, d, key, own)) return 0;
    return (await this.definitionsOf(name, own)).filter((x) => !(x.file === d.file && x.declLine === d.declLine) && x.bodyKey === key).length;
  }

  /**
   * Whether no definition of `name` can have `d`'s body (key `key`), told without parsing another
   * file (definitionsOf parses up to 8): no other file the table lists for the name may hold it
   * (bodyKeys.ts), and `d`'s own file has no other same-named definition with that key.
   */
  private async noCopyPossible(name: string, d: SymbolDefinition, key: string, own?: OwnText): Promise<boolean> {
    const text = textIn(d.file, this.src, own);
    const refs = this.src.definitionsOf(name);
    const mayHold = text === undefined || refs.length > MAX_COPY_SCAN ? undefined : copyTest(text, d.startLine, d.endLine);
    if (!mayHold) return false;
    for (const ref of refs) {
      const other = ref.file === d.file ? undefined : textIn(ref.file, this.src, own);
      if (other !== undefined && mayHold(other)) return false;
    }
    const mine = (await this.fileDefinitions(d.file, own)).filter((x) => x.name === name && x.declLine !== d.declLine);
    return mine.every((x) => this.bodyKeyOf(d.file, x.startLine, x.endLine, own) !== key);
  }

  private bodyKeyOf(file: string, startLine: number, endLine: number, own?: OwnText): string {
    return bodyKey(textIn(file, this.src, own), startLine, endLine);
  }

  /**
   * What is at `line`:`character` of `relPath`, a definition's location another source (the
   * language server) named: the chunker's definition of that name there, else a local (bound in a
   * function or block: nothing to show), else the declaration line as written.
   */
  async definitionAt(relPath: string, line: number, character: number): Promise<DefinitionAt> {
    const text = this.src.textOf(relPath);
    if (text === undefined || text.length > MAX_PARSE_CHARS) return {};
    const node = await this.parse(relPath, text).then((p) => p && nameNodeAt(p.tree, line, character)); // read before the next await
    const name = node?.text;
    const inFunction = node ? insideFunction(node) : false;
    const defs = (await this.fileDefinitions(relPath)).filter((d) => d.declLine <= line && line <= d.endLine && (name ? d.name === name : d.declLine === line));
    const found = defs.sort((a, b) => b.declLine - a.declLine)[0];
    if (found) {
      const definition: SymbolDefinition = { file: relPath, startLine: found.startLine, endLine: found.endLine, declLine: found.declLine, kind: found.role, declaration: found.declaration, doc: found.doc, ...(found.copyOf ? { copyOf: found.copyOf } : {}) };
      const copies = await this.copiesOf(found.name, definition);
      return { definition, name: found.name, ...(copies ? { copies } : {}) };
    }
    // Resolved only when the chunker defines nothing there: a definition's file needs no scopes or summary (the hover waits on this).
    const r = node ? await this.resolveAt(relPath, text, line, character) : undefined;
    if (r ? r.kind === 'local' : inFunction) return { local: true };
    // An import binding (a server still loading its project answers with the alias): where it leads.
    if (r?.kind === 'defines' && !(r.def.file === relPath && r.def.startLine <= line && line <= r.def.endLine)) {
      const definition = await this.describe(r.def);
      const copies = await this.copiesOf(r.def.name, definition);
      return { definition, name: r.def.name, ...(copies ? { copies } : {}) };
    }
    if (r?.kind === 'external') return {};
    const declaration = (text.split('\n')[line] ?? '').trim();
    return declaration ? { definition: { file: relPath, startLine: line, endLine: line, declLine: line, kind: 'variable', declaration } } : {};
  }

  /** What the name at a position of this text of `relPath` refers to, its tree taken again from the shared cache (the same text: the same tree). */
  private async resolveAt(relPath: string, text: string, line: number, character: number): Promise<Resolution | undefined> {
    const parsed = await this.parse(relPath, text);
    const node = parsed && nameNodeAt(parsed.tree, line, character);
    return node && parsed ? this.resolver?.resolve(relPath, text, parsed.tree, parsed.loaded, node) : undefined;
  }

  /** Each chunk's relation to the name, from the syntax of its occurrences (chunkRelations.ts); none for a chunk that lacks the word. */
  relations(symbol: SymbolInfo, chunks: ReadonlyArray<{ file: string; startLine: number; endLine: number }>): Promise<Array<ChunkRelation | undefined>> {
    const resolver = this.resolver;
    return chunkRelations(symbol, chunks, { textOf: (f) => this.src.textOf(f), grammarFor: (f, t) => this.src.chunker.grammarFor(f, t), ...(resolver ? { overridden: (f, l, n) => resolver.overridden(f, l, n) } : {}) });
  }

  /**
   * The names used on lines `fromLine`..`toLine` of `relPath` (text `text`), nearest to `toLine` first,
   * that resolve as code to one definition (the completion context's definitions, definitionContext.ts).
   * Each spelling (a member with its receiver) is resolved once; at most `maxNames` are.
   */
  async resolvedNear(relPath: string, text: string, fromLine: number, toLine: number, maxNames: number, signal?: AbortSignal): Promise<Array<{ name: string; line: number; def: ResolvedDef }>> {
    if (!this.resolver || text.length > MAX_PARSE_CHARS) return [];
    const parsed = await this.parse(relPath, text);
    if (!parsed || !resolves(parsed.grammar)) return []; // scopes alone resolve no name to a definition
    const nodes = parsed.tree.rootNode.descendantsOfType([...NAME_TYPES], { row: Math.max(0, fromLine), column: 0 }, { row: toLine + 1, column: 0 });
    // Read every node before awaiting: the shared tree cache may replace this tree meanwhile.
    const uses: Array<{ node: Node; name: string; line: number }> = [];
    const seen = new Set<string>();
    for (let i = nodes.length - 1; i >= 0 && uses.length < maxNames; i--) {
      const node = nodes[i];
      if (!node || node.text.length < MIN_NAME || KEYWORD_NAMES[parsed.grammar]?.has(node.text) || roleOf(node) === 'definition') continue;
      const key = /member|attribute/.test(node.parent?.type ?? '') ? node.parent!.text.slice(0, 200) : node.text;
      if (seen.has(key) || !nameNodeAt(parsed.tree, node.startPosition.row, node.startPosition.column)) continue;
      seen.add(key);
      uses.push({ node, name: node.text, line: node.startPosition.row });
    }
    const pending = uses.map((u) => this.resolver!.resolve(relPath, text, parsed.tree, parsed.loaded, u.node));
    const out: Array<{ name: string; line: number; def: ResolvedDef }> = [];
    for (let i = 0; i < uses.length; i++) {
      signal?.throwIfAborted();
      const r = await pending[i];
      if (r.kind !== 'defines' || r.def.role === 'module') continue;
      out.push({ name: uses[i].name, line: uses[i].line, def: r.def });
      // A function's parameter and return types: what its arguments' keys and its result's members are.
      if (r.def.role === 'function' || r.def.role === 'method') for (const t of await this.typesOfSignature(r.def)) out.push({ name: t.name, line: uses[i].line, def: t });
    }
    return out;
  }

  /** The repository classes and types a function's declaration names (capitalised names of its header, at most 3). */
  private async typesOfSignature(def: ResolvedDef): Promise<ResolvedDef[]> {
    const header = (this.src.textOf(def.file) ?? '').split('\n').slice(def.declLine, Math.min(def.endLine, def.declLine + 5) + 1).join('\n');
    const names = [...new Set(header.split(/[{]\s*$/m)[0].match(/\b[A-Z][A-Za-z0-9_]+\b/g) ?? [])].filter((n) => n !== def.name).slice(0, 3);
    const out: ResolvedDef[] = [];
    for (const n of names) {
      const t = await this.resolver!.topLevel(def.file, n);
      if (t && (t.role === 'class' || t.role === 'type')) out.push(t);
    }
    return out;
  }

  /** A resolved definition with its declaration and doc: the chunker's definition at that line, else the line itself. */
  private async describe(def: ResolvedDef, own?: OwnText): Promise<SymbolDefinition> {
    const found = (await this.fileDefinitions(def.file, own)).find((d) => d.name === def.name && d.startLine <= def.line && def.line <= d.endLine && d.declLine >= def.declLine);
    if (found) return { file: def.file, startLine: found.startLine, endLine: found.endLine, declLine: found.declLine, kind: found.role, declaration: found.declaration, doc: found.doc, ...(found.copyOf ? { copyOf: found.copyOf } : {}) };
    const lines = textIn(def.file, this.src, own)?.split('\n') ?? [];
    const declaration = def.role === 'module' ? def.file : lines.slice(def.declLine, Math.min(def.endLine, def.declLine + 2) + 1).map((l) => l.trimEnd()).join('\n').trim();
    return { file: def.file, startLine: def.startLine, endLine: def.endLine, declLine: def.declLine, kind: def.role, declaration };
  }

  /** The file's tree from the chunker's shared cache: the buffer being typed in was parsed a keystroke ago, by this or by its live update. */
  private async parse(relPath: string, text: string): Promise<ParsedFile | undefined> {
    const grammar = await this.src.chunker.grammarFor(relPath, text);
    if (!grammar) return undefined;
    const deadline = Date.now() + PARSE_TIMEOUT_MS;
    const tree = this.src.chunker.trees.parse(relPath, grammar, text, () => Date.now() > deadline);
    return tree ? { tree, grammar: grammar.name, loaded: grammar } : undefined;
  }

  /** Definitions of `name` in the index, each with its declaration and doc read from its file. */
  private async definitionsOf(name: string, own?: OwnText): Promise<SymbolDefinition[]> {
    const out: SymbolDefinition[] = [];
    const seen = new Set<string>();
    for (const ref of this.src.definitionsOf(name)) {
      if (out.length >= MAX_DEFINITIONS) break;
      const found = (await this.fileDefinitions(ref.file, own)).filter((d) => d.name === name);
      if (!found.length) continue;
      const range = ref.chunkId >= 0 ? this.src.chunkRange(ref.chunkId) : undefined;
      // The chunk holding the definition names it; several definitions of one name in a file are told apart by it.
      const d = (range && found.find((f) => f.declLine >= range.startLine && f.declLine <= range.endLine)) ?? found[0];
      const key = `${ref.file}:${d.declLine}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ file: ref.file, startLine: d.startLine, endLine: d.endLine, declLine: d.declLine, kind: d.role, declaration: d.declaration, doc: d.doc, ...(d.copyOf ? { copyOf: d.copyOf } : {}), bodyKey: this.bodyKeyOf(ref.file, d.startLine, d.endLine, own) });
    }
    return out;
  }

  private fileDefinitions(file: string, own?: OwnText): Promise<FoundDefinitionLite[]> {
    const text = textIn(file, this.src, own);
    return text === undefined ? Promise.resolve([]) : this.defs.of(file, text);
  }

  /** Files other than `relPath` whose chunks mention `name` as a whole word. */
  private usedIn(name: string, relPath: string): string[] {
    const terms = lexicalTerms(name);
    const term = terms[terms.length - 1]; // the whole identifier when it has several sub-tokens
    if (!term) return [];
    const word = wordPattern(name);
    const files = new Set<string>();
    for (const id of this.src.chunksWithTerm(term, 64)) {
      if (files.size >= MAX_USED_IN) break;
      const r = this.src.chunkRange(id);
      if (!r || r.file === relPath || files.has(r.file)) continue;
      const text = this.src.textOf(r.file);
      if (text === undefined) continue;
      const chunk = sliceLines(text, r.startLine, r.endLine);
      if (word.test(chunk)) files.add(r.file);
    }
    return [...files];
  }

  dispose(): void {
    this.defs.clear();
    this.resolver?.dispose();
  }
}
