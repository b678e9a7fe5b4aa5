// C names a file's scopes leave free (a function, a type, a macro, a global, an enumerator),
// resolved through the file's #include graph as a compiler reads it: this file, then the headers it
// includes, breadth first (a quoted or angled path, tried against the including file's folder, then
// each enclosing folder and its include/ folder), in the `#if` branches this platform reads
// (cpreproc.ts). A function whose prototype is all a header holds resolves to its body when the
// repository has exactly one; a struct tag declared ahead, to the repository's one body. A name the
// repository does not define is external (libc, system headers); one defined only outside the
// include graph is the repository's when it has exactly one definition there; anything else stays
// candidates. `a->b.c`: the field of the struct the receiver's declared type names (cfields.ts).
import * as path from 'path';
import type { Node, Tree } from 'web-tree-sitter';
import type { LoadedGrammar } from '../chunk/grammar';
import { parseReusing } from '../chunk/reparse';
import { RecentMap } from '../util/recentMap';
import { collect, macroField, type CDef, type CType, type Field, type Fields, type FileTop } from './cdecls';
import { resolveCpp } from './cpp';
import { collectCpp, type CppTop } from './cppdecls';
import { blankings, blankMacros, objectMacros } from './cppmacros';
import { LocalScopes } from './scopes';
import { receiverPlan, type Receiver } from './cfields';
import { compilerProfiles, type CompilerProfile } from './compilers';
import { liveDefinition } from './macroBranches';
import type { Binding } from './scopes';
import { isQualifiedMember } from './syntax';
import type { Resolution, ResolvedDef } from './types';

export interface IncludeSource {
  textOf(file: string): string | undefined;
  hasFile(file: string): boolean;
  grammarFor(file: string, text: string): Promise<LoadedGrammar | undefined>;
  definitionsOf(name: string): ReadonlyArray<{ file: string }>;
}

type Lookup = { k: 'found'; defs: CDef[]; depth: number } | { k: 'ambiguous' } | { k: 'none'; unread: boolean; forward?: CDef[] };

const C_GRAMMARS = new Set(['c', 'cpp']);
/** Grammars whose free names resolve by the include graph alone: C (C++ names go through cpp.ts's lookup). */
const RESOLVED = new Set(['c']);
/** C++: macros here (cppMacro), other names by cpp.ts. */
export const resolvesCppMacros = (grammar: string): boolean => grammar === 'cpp';
const SOURCE = /\.(c|cc|cpp|cxx)$/;
const NAME_TYPES = /^(identifier|type_identifier|namespace_identifier)$/;
const INCLUDE = /^[ \t]*#[ \t]*include[ \t]*["<]([^">\n]+)[">]/gm;

/** The paths `text`'s `#include` lines name, in order; `live`: only those at an offset it accepts. */
export const includeSpecs = (text: string, live: (at: number) => boolean = () => true): string[] => [...text.matchAll(INCLUDE)].filter((m) => live(m.index)).map((m) => m[1].trim());
/** Headers read per resolution at most (a graph of thousands of headers is a platform SDK, not the repository). */
const MAX_FILES = 400;
const PARSE_TIMEOUT_MS = 2000;
const MAX_PARSE_CHARS = 2_000_000;
const CACHE = 512;
/** Macros expanding to fields, followed this deep (`UV_HANDLE_FIELDS` names `UV_HANDLE_PRIVATE_FIELDS`). */
const MAX_MACRO_DEPTH = 3;
const CANDIDATES: Resolution = { kind: 'candidates' };

export const resolvesIncludes = (grammar: string): boolean => RESOLVED.has(grammar);

export class IncludeResolver {
  private readonly tops = new RecentMap<string, { text: string; top: FileTop | undefined }>(CACHE);
  private readonly profiles: CompilerProfile[];
  /** C++ (cpp.ts): per file, the macro uses replaced before its parse (cppmacros.ts), and each file's object-like macros. */
  private readonly blanks = new RecentMap<string, { text: string; macros: Map<string, string> }>(CACHE);
  private readonly defines = new RecentMap<string, { text: string; defs: Map<string, string> }>(CACHE);
  private asked: { file: string; text: string; tree: Tree; scopes: LocalScopes } | undefined;

  /** `cpp`: read C++ declarations too (the resolver; the completion check's names need only C's). */
  constructor(private readonly src: IncludeSource, platform: string = process.platform, private readonly cpp = false) {
    this.profiles = compilerProfiles(platform);
  }

  /** What the free name `node` of `file` refers to: a definition, external, or candidates; `bindingOf` reads the file's scopes. */
  async resolve(file: string, node: Node, bindingOf: (n: Node) => Binding | undefined, cpp = false): Promise<Resolution> {
    if (cpp) {
      // The file parsed with its macros replaced, first: its own declarations are read from this tree too (`top`).
      const own = this.cpp ? await this.askedTree(file) : undefined;
      const macro = await this.cppMacro(file, node);
      if (macro.kind === 'defines' || !this.cpp) return macro;
      // The same name in that tree (positions are kept), if it is there.
      const at = own?.tree.rootNode.descendantForPosition(node.startPosition, node.endPosition);
      // The macro-replaced parse may read the name another way (`friend class basic_format_args<Context>;`: a type, not a call): it is the better reading.
      const same = at && at.text === node.text && at.startIndex === node.startIndex && (at.type === node.type || (NAME_TYPES.test(at.type) && NAME_TYPES.test(node.type)));
      return resolveCpp(file, same ? at : node, same ? (n) => own!.scopes.bindingOf(n) : bindingOf, {
        tops: (f) => this.cppTops(f),
        defined: (n) => this.src.definitionsOf(n).length > 0,
        definitionsIn: (n) => this.src.definitionsOf(n).reduce((m, d) => m.set(d.file, (m.get(d.file) ?? 0) + 1), new Map<string, number>()),
      });
    }
    if (node.type === 'field_identifier') {
      const recv = node.parent?.type === 'field_expression' ? receiverPlan(file, node.parent.childForFieldName('argument'), bindingOf) : undefined;
      return recv ? this.field(file, recv, node.text) : CANDIDATES;
    }
    if (isQualifiedMember(node) || node.parent?.type === 'qualified_identifier') return CANDIDATES;
    const name = node.text;
    const r = await this.find(file, name, () => true);
    if (r.k === 'ambiguous') return CANDIDATES;
    if (r.k === 'found') {
      // Two full definitions in one file are `#if` branches this platform does not decide (`#if BIG ... #else`): ambiguous.
      if (new Set(r.defs.filter((d) => d.full).map((d) => d.def.startLine)).size > 1) return CANDIDATES; // (`typedef struct s {...} s;` is one)
      return { kind: 'defines', def: (await this.body(name, r.defs)) ?? pick(r.defs).def, via: r.depth === 0 ? 'file' : 'import' };
    }
    if (r.forward) return { kind: 'defines', def: (await this.repositoryTag(name))?.def ?? r.forward[0].def, via: 'import' };
    const defs = this.src.definitionsOf(name);
    // A header left unread (too large, parse timed out) may define it: not sure it is external.
    if (!defs.length) return r.unread ? CANDIDATES : { kind: 'external' };
    const only = defs.length === 1 ? (await this.top(defs[0].file))?.defs.get(name) : undefined;
    return only?.length === 1 ? { kind: 'defines', def: only[0].def, via: 'repository' } : CANDIDATES;
  }

  /** C++: a macro the include graph defines (the preprocessor replaces it before any lookup); other names are cpp.ts's. */
  private async cppMacro(file: string, node: Node): Promise<Resolution> {
    if (node.type === 'field_identifier' || isQualifiedMember(node) || !/^[A-Z][A-Z0-9_]+$/.test(node.text)) return CANDIDATES;
    const r = await this.find(file, node.text, (d) => !!d.macro);
    if (r.k !== 'found') return CANDIDATES;
    // Defined in several `#if` branches: the one whose conditions hold, where they are decided.
    const one = new Set(r.defs.map((d) => d.def.startLine)).size > 1 ? await liveDefinition(r.defs, (n) => this.macroDefs(file, n), this.profiles) : r.defs[0];
    return one ? { kind: 'defines', def: one.def, via: r.depth === 0 ? 'file' : 'import' } : CANDIDATES;
  }

  /**
   * The definitions of `name` that `want` accepts, breadth first through `file`'s include graph, one
   * depth at a time: two headers of one depth that both define it (`uv/win.h` and `uv/unix.h` under
   * an `#if` the platform does not decide) leave it ambiguous; a tag only declared ahead
   * (`struct s;`) is looked for deeper.
   */
  private async find(file: string, name: string, want: (d: CDef) => boolean): Promise<Lookup> {
    const seen = new Set([file]);
    let unread = false;
    let read = 0;
    let forward: CDef[] | undefined;
    for (let level = [file], depth = 0; level.length && read < MAX_FILES; depth++) {
      const next: string[] = [];
      const found: CDef[][] = [];
      for (const f of level) {
        const top = read++ < MAX_FILES ? await this.top(f) : undefined;
        if (!top) {
          unread = true;
          continue;
        }
        const defs = top.defs.get(name)?.filter(want);
        if (defs?.length && defs.every((d) => d.def.role === 'class' && !d.full)) forward ??= defs;
        else if (defs?.length) found.push(defs);
        next.push(...this.unseenIncludes(f, top.includes, seen));
      }
      if (found.length > 1) return { k: 'ambiguous' };
      if (found.length) return { k: 'found', defs: found[0], depth };
      level = next;
    }
    return { k: 'none', unread, ...(forward ? { forward } : {}) };
  }

  /** `file` parsed with its macros replaced, and its scopes (the last file asked about). */
  private async askedTree(file: string): Promise<{ tree: Tree; scopes: LocalScopes } | undefined> {
    const text = this.src.textOf(file);
    if (text === undefined || text.length > MAX_PARSE_CHARS) return undefined;
    if (this.asked?.file === file && this.asked.text === text) return this.asked;
    const grammar = await this.src.grammarFor(file, text);
    if (grammar?.name !== 'cpp' || !grammar.locals) return undefined;
    const deadline = Date.now() + PARSE_TIMEOUT_MS;
    const tree = parseReusing(grammar.parser, this.macroReplaced(file, text), undefined, () => Date.now() > deadline);
    if (!tree) return undefined;
    this.asked?.tree.delete();
    this.asked = { file, text, tree, scopes: new LocalScopes(tree, grammar.locals, false) };
    return this.asked;
  }

  /** `file`'s text as cpp.ts parses it: its macro uses replaced, positions kept (the benchmark's truth reads members by it). */
  cppText(file: string): string | undefined {
    const text = this.src.textOf(file);
    return text === undefined ? undefined : this.macroReplaced(file, text);
  }

  /** `text` of `file` with the macro uses its include graph defines replaced (what every C++ parse here reads). */
  private macroReplaced(file: string, text: string): string {
    return blankMacros(text, this.macrosFor(file, text));
  }

  /** The macro uses replaced before a C++ parse of `file`, from the definitions its include graph holds (read as text). */
  private macrosFor(file: string, text: string): Map<string, string> {
    const hit = this.blanks.get(file);
    if (hit?.text === text) return hit.macros;
    const seen = new Set([file]);
    const defs: Array<Map<string, string>> = [];
    for (let level = [file]; level.length && seen.size <= MAX_FILES;) {
      const next: string[] = [];
      for (const f of level) {
        const t = this.src.textOf(f);
        if (t === undefined || t.length > MAX_PARSE_CHARS) continue;
        defs.push(this.objectMacrosOf(f, t));
        next.push(...this.unseenIncludes(f, includeSpecs(t), seen));
      }
      level = next;
    }
    const macros = blankings(defs);
    this.blanks.set(file, { text, macros });
    return macros;
  }

  /** `file`'s object-like macros (its text `text`), kept per text. */
  private objectMacrosOf(file: string, text: string): Map<string, string> {
    const hit = this.defines.get(file);
    if (hit?.text === text) return hit.defs;
    const defs = objectMacros(text);
    this.defines.set(file, { text, defs });
    return defs;
  }

  /** The C++ declarations of `file` and of the headers its include graph reaches, breadth first. */
  private async cppTops(file: string): Promise<CppTop[]> {
    const out: CppTop[] = [];
    await this.eachTop(file, (top) => top.cpp && out.push(top.cpp));
    return out;
  }

  /** Every macro definition of `name` in `file`'s include graph, and whether every header of it was read. */
  private async macroDefs(file: string, name: string): Promise<{ defs: CDef[]; complete: boolean }> {
    const defs: CDef[] = [];
    const complete = await this.eachTop(file, (top) => defs.push(...(top.defs.get(name) ?? []).filter((d) => d.macro)));
    return { defs, complete };
  }

  /** `visit` on the declarations of `file` and of the headers its include graph reaches, breadth first: whether every one was read. */
  private async eachTop(file: string, visit: (top: FileTop) => unknown): Promise<boolean> {
    let complete = true;
    const seen = new Set([file]);
    for (let level = [file]; level.length && (complete &&= seen.size <= MAX_FILES);) {
      const next: string[] = [];
      for (const f of level) {
        const top = await this.top(f);
        if (!top) complete = false;
        else next.push(...(visit(top), this.unseenIncludes(f, top.includes, seen)));
      }
      level = next;
    }
    return complete;
  }

  /** The field `name` of what `recv` is, through the declared types of its parts. */
  private async field(file: string, recv: Receiver, name: string): Promise<Resolution> {
    let type: CType | undefined;
    if (recv.head.k === 'global') {
      const r = await this.find(file, recv.head.name, (d) => d.def.role === 'variable');
      type = r.k === 'found' ? pick(r.defs).type : undefined;
    } else type = recv.head.type;
    const segments = [...recv.path, name];
    for (let i = 0; i < segments.length && type; i++) {
      const fields = await this.fieldsOf(file, type, 0);
      const f = fields && (await this.fieldIn(file, fields, segments[i], 0));
      if (!f) return CANDIDATES;
      if (i === segments.length - 1) return { kind: 'defines', def: f.def, via: 'inferred' };
      type = f.type;
    }
    return CANDIDATES;
  }

  /** The fields of a type: an inline body's, a tag's body's, a typedef's target's. */
  private async fieldsOf(file: string, type: CType | undefined, depth: number): Promise<Fields | undefined> {
    if (!type || depth > 8) return undefined;
    if (type.k === 'body') return type.fields;
    if (type.k === 'tag') {
      const r = await this.find(file, type.name, (d) => d.def.role === 'class');
      if (r.k === 'found') return ((full) => (full.length === 1 ? full[0].fields : undefined))(r.defs.filter((d) => d.full));
      return r.k === 'none' && r.forward ? (await this.repositoryTag(type.name))?.fields : undefined;
    }
    const r = await this.find(file, type.name, (d) => d.def.role === 'type');
    return r.k === 'found' && r.defs.length === 1 ? this.fieldsOf(file, r.defs[0].type, depth + 1) : undefined;
  }

  /** A field of a body, or of a macro the body names (`UV_HANDLE_FIELDS`), its line in the macro's text. */
  private async fieldIn(file: string, fields: Fields, name: string, depth: number): Promise<Field | undefined> {
    const own = fields.own.get(name);
    if (own || depth > MAX_MACRO_DEPTH) return own;
    const found: Field[] = [];
    for (const macro of fields.macros) {
      const r = await this.find(file, macro, (d) => !!d.macro);
      if (r.k !== 'found') continue;
      for (const d of r.defs) {
        const f = macroField(d.def.file, d.macro!, name);
        if (f) found.push(f);
        else {
          const nested = [...new Set(d.macro!.text.match(/\b[A-Z][A-Z0-9_]{2,}\b/g) ?? [])];
          const inner = nested.length ? await this.fieldIn(file, { own: new Map(), macros: nested }, name, depth + 1) : undefined;
          if (inner) found.push(inner);
        }
      }
    }
    const places = new Set(found.map((f) => `${f.def.file}:${f.def.line}`));
    return places.size === 1 ? found[0] : undefined;
  }

  /**
   * The names the headers `text` (the file `file`) includes define at file level, through its include
   * graph breadth first as `resolve` reads it, with the files read; undefined when a header could not
   * be read (too large, parse timed out) or `deadline` (Date.now()) passed first.
   */
  async includedNames(file: string, text: string, deadline: number): Promise<{ names: Set<string>; files: Set<string> } | undefined> {
    const names = new Set<string>();
    const seen = new Set([file]);
    let level = this.unseenIncludes(file, includeSpecs(text), seen);
    while (level.length) {
      const next: string[] = [];
      for (const f of level) {
        if (seen.size > MAX_FILES || Date.now() > deadline) return undefined;
        const top = await this.top(f);
        if (!top) return undefined;
        for (const n of top.defs.keys()) names.add(n);
        next.push(...this.unseenIncludes(f, top.includes, seen));
      }
      level = next;
    }
    seen.delete(file);
    return { names, files: seen };
  }

  /** The files `from`'s include lines `specs` name that `seen` lacks, in order; each is added to `seen`. */
  private unseenIncludes(from: string, specs: readonly string[], seen: Set<string>): string[] {
    const out: string[] = [];
    for (const spec of specs) {
      const target = this.includeTarget(from, spec);
      if (target && !seen.has(target)) out.push((seen.add(target), target));
    }
    return out;
  }

  /** A prototype's body: the repository's only full definition of the name in a source file. */
  private async body(name: string, found: CDef[]): Promise<ResolvedDef | undefined> {
    if (found.some((d) => d.full) || found[0].def.role !== 'function') return undefined;
    const bodies: ResolvedDef[] = [];
    for (const file of new Set(this.src.definitionsOf(name).map((d) => d.file))) {
      if (!SOURCE.test(file)) continue;
      for (const d of (await this.top(file))?.defs.get(name) ?? []) if (d.full && d.def.role === 'function') bodies.push(d.def);
    }
    return bodies.length === 1 ? bodies[0] : undefined;
  }

  /** A tag's body the include graph does not reach: the repository's only one. */
  private async repositoryTag(name: string): Promise<CDef | undefined> {
    const bodies: CDef[] = [];
    for (const file of new Set(this.src.definitionsOf(name).map((d) => d.file))) {
      for (const d of (await this.top(file))?.defs.get(name) ?? []) if (d.full && d.def.role === 'class') bodies.push(d);
    }
    return bodies.length === 1 ? bodies[0] : undefined;
  }

  /** The repository file an `#include` names, from the including file's folder outwards. */
  private includeTarget(from: string, spec: string): string | undefined {
    const tries = [path.posix.join(path.posix.dirname(from), spec)];
    for (let dir = path.posix.dirname(from); ; dir = path.posix.dirname(dir)) {
      tries.push(path.posix.join(dir, spec), path.posix.join(dir, 'include', spec));
      if (dir === '.' || dir === '/' || dir === '') break;
    }
    return tries.map((t) => path.posix.normalize(t)).find((t) => !t.startsWith('..') && this.src.hasFile(t));
  }

  /**
   * `file`'s declarations, from one parse per version; for the resolver (`cpp`), with its C++
   * declarations, a C header's too (a C++ file's lookup may walk into it: read from the one parse).
   */
  private async top(file: string): Promise<FileTop | undefined> {
    const text = this.src.textOf(file);
    if (text === undefined || text.length > MAX_PARSE_CHARS) return undefined;
    const hit = this.tops.get(file);
    if (hit?.text === text) return hit.top;
    const grammar = await this.src.grammarFor(file, text);
    let top: FileTop | undefined;
    if (grammar && C_GRAMMARS.has(grammar.name)) {
      const deadline = Date.now() + PARSE_TIMEOUT_MS;
      const blanked = this.cpp && grammar.name === 'cpp';
      // The file a C++ lookup is asked about was parsed just before (askedTree): its tree serves here too.
      const asked = blanked && this.asked?.file === file && this.asked.text === text ? this.asked.tree : undefined;
      const tree = asked ?? parseReusing(grammar.parser, blanked ? this.macroReplaced(file, text) : text, undefined, () => Date.now() > deadline);
      if (tree) {
        try {
          top = { defs: new Map(), includes: [], dead: [] };
          collect(file, tree.rootNode, top, this.profiles);
          if (this.cpp) top.cpp = collectCpp(file, tree.rootNode);
          // Read from the text (a parse may lose an #include to error recovery), less the branches ruled out.
          const live = (i: number): boolean => !top!.dead.some(([from, to]) => from <= i && i < to);
          top.includes = includeSpecs(text, live);
        } finally {
          if (tree !== asked) tree.delete();
        }
      }
    }
    this.tops.set(file, { text, top });
    return top;
  }

  dispose(): void {
    this.tops.clear();
    this.blanks.clear();
    this.defines.clear();
    this.asked?.tree.delete();
    this.asked = undefined;
  }
}

/** The full definition among a file's definitions of a name, else its first declaration. */
const pick = (ds: CDef[]): CDef => ds.find((d) => d.full) ?? ds[0];
