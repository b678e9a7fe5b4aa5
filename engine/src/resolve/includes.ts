// C names a file's scopes leave free (a function, a type, a macro, a global, an enumerator),
// resolved through the file's #include graph as a compiler reads it: this file, then the headers it
// includes, breadth first (a quoted or angled path, tried against the including file's folder, then
// each enclosing folder and its include/ folder). A function whose prototype is all a header holds
// resolves to its body when the repository has exactly one. A name the repository does not define
// is external (libc, system headers); one defined only outside the include graph is the
// repository's when it has exactly one definition there; anything else stays candidates.
import * as path from 'path';
import type { Node } from 'web-tree-sitter';
import type { LoadedGrammar } from '../chunk/grammar';
import { parseReusing } from '../chunk/reparse';
import { isQualifiedMember } from './syntax';
import { makeDef } from './summary';
import type { Resolution, ResolvedDef } from './types';

export interface IncludeSource {
  textOf(file: string): string | undefined;
  hasFile(file: string): boolean;
  grammarFor(file: string, text: string): Promise<LoadedGrammar | undefined>;
  definitionsOf(name: string): ReadonlyArray<{ file: string }>;
}

interface CDef {
  def: ResolvedDef;
  /** A function's body, a struct/union/enum/class with its fields: not a prototype or forward declaration. */
  full: boolean;
}

interface FileTop {
  defs: Map<string, CDef[]>;
  includes: string[];
}

const C_GRAMMARS = new Set(['c', 'cpp']);
/**
 * Grammars whose free names resolve here: C. C++ names go through namespaces, overloads, templates
 * and argument-dependent lookup, which an include graph does not model: on fmt and nlohmann_json
 * (protocol R, clangd truth) its "defines" were right 0.29 of the time, so C++ keeps candidates.
 */
const RESOLVED = new Set(['c']);
const SOURCE = /\.(c|cc|cpp|cxx)$/;
const INCLUDE = /^[ \t]*#[ \t]*include[ \t]*["<]([^">\n]+)[">]/gm;
/** Headers read per resolution at most (a graph of thousands of headers is a platform SDK, not the repository). */
const MAX_FILES = 400;
const PARSE_TIMEOUT_MS = 2000;
const MAX_PARSE_CHARS = 2_000_000;
const CACHE = 512;
/** Statement-level nodes whose named children are statement-level too (ERROR: code a macro like `FMT_BEGIN_NAMESPACE` hides from the parser). */
const BLOCKS = /^(ERROR|preproc_if|preproc_ifdef|preproc_else|preproc_elif|preproc_elifdef|linkage_specification|declaration_list|namespace_definition|template_declaration)$/;
const DECLARATOR = /^(pointer|array|function|parenthesized|reference|init)_declarator$/;
const SPECIFIER = /^(struct|union|enum|class)_specifier$/;
const CANDIDATES: Resolution = { kind: 'candidates' };

export const resolvesIncludes = (grammar: string): boolean => RESOLVED.has(grammar);

export class IncludeResolver {
  private readonly tops = new Map<string, { text: string; top: FileTop | undefined }>();

  constructor(private readonly src: IncludeSource) {}

  /** What the free name `node` of `file` refers to: a definition, external, or candidates. */
  async resolve(file: string, node: Node): Promise<Resolution> {
    if (node.type === 'field_identifier' || isQualifiedMember(node) || node.parent?.type === 'qualified_identifier') return CANDIDATES;
    const name = node.text;
    const seen = new Set([file]);
    let unread = false;
    let read = 0;
    // Breadth first, one include depth at a time: two headers of one depth that both define the name
    // (`uv/win.h` and `uv/unix.h` under `#ifdef _WIN32 ... #else`) leave it ambiguous.
    for (let level = [file], depth = 0; level.length && read < MAX_FILES; depth++) {
      const next: string[] = [];
      const found: CDef[][] = [];
      for (const f of level) {
        const top = read++ < MAX_FILES ? await this.top(f) : undefined;
        if (!top) {
          unread = true;
          continue;
        }
        const defs = top.defs.get(name);
        if (defs) found.push(defs);
        for (const spec of top.includes) {
          const target = this.includeTarget(f, spec);
          if (target && !seen.has(target)) next.push((seen.add(target), target));
        }
      }
      if (found.length > 1) return CANDIDATES;
      // `struct s;` declares a tag another header defines: look deeper for its body.
      if (found.length && !(found[0][0].def.role === 'class' && !found[0].some((d) => d.full))) {
        // Two full definitions in one file are `#if` branches (`#define X 1 ... #else #define X 2`): ambiguous.
        if (found[0].filter((d) => d.full).length > 1) return CANDIDATES;
        return { kind: 'defines', def: (await this.body(name, found[0])) ?? pick(found[0]).def, via: depth === 0 ? 'file' : 'import' };
      }
      level = next;
    }
    const defs = this.src.definitionsOf(name);
    // A header left unread (too large, parse timed out) may define it: not sure it is external.
    if (!defs.length) return unread ? CANDIDATES : { kind: 'external' };
    const only = defs.length === 1 ? (await this.top(defs[0].file))?.defs.get(name) : undefined;
    return only?.length === 1 ? { kind: 'defines', def: only[0].def, via: 'repository' } : CANDIDATES;
  }

  /**
   * The names the headers `text` (the file `file`) includes define at file level, through its include
   * graph breadth first as `resolve` reads it, with the files read; undefined when a header could not
   * be read (too large, parse timed out) or `deadline` (Date.now()) passed first.
   */
  async includedNames(file: string, text: string, deadline: number): Promise<{ names: Set<string>; files: Set<string> } | undefined> {
    const names = new Set<string>();
    const seen = new Set([file]);
    let level = [...text.matchAll(INCLUDE)].map((m) => this.includeTarget(file, m[1].trim())).filter((t): t is string => !!t && !seen.has(t) && !!seen.add(t));
    while (level.length) {
      const next: string[] = [];
      for (const f of level) {
        if (seen.size > MAX_FILES || Date.now() > deadline) return undefined;
        const top = await this.top(f);
        if (!top) return undefined;
        for (const n of top.defs.keys()) names.add(n);
        for (const spec of top.includes) {
          const target = this.includeTarget(f, spec);
          if (target && !seen.has(target)) next.push((seen.add(target), target));
        }
      }
      level = next;
    }
    seen.delete(file);
    return { names, files: seen };
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

  /** The repository file an `#include` names, from the including file's folder outwards. */
  private includeTarget(from: string, spec: string): string | undefined {
    const tries = [path.posix.join(path.posix.dirname(from), spec)];
    for (let dir = path.posix.dirname(from); ; dir = path.posix.dirname(dir)) {
      tries.push(path.posix.join(dir, spec), path.posix.join(dir, 'include', spec));
      if (dir === '.' || dir === '/' || dir === '') break;
    }
    return tries.map((t) => path.posix.normalize(t)).find((t) => !t.startsWith('..') && this.src.hasFile(t));
  }

  private async top(file: string): Promise<FileTop | undefined> {
    const text = this.src.textOf(file);
    if (text === undefined || text.length > MAX_PARSE_CHARS) return undefined;
    const hit = this.tops.get(file);
    if (hit?.text === text) return hit.top;
    const grammar = await this.src.grammarFor(file, text);
    let top: FileTop | undefined;
    if (grammar && C_GRAMMARS.has(grammar.name)) {
      const deadline = Date.now() + PARSE_TIMEOUT_MS;
      const tree = parseReusing(grammar.parser, text, undefined, () => Date.now() > deadline);
      if (tree) {
        try {
          top = { defs: new Map(), includes: [...text.matchAll(INCLUDE)].map((m) => m[1].trim()) };
          collect(file, tree.rootNode, top.defs);
        } finally {
          tree.delete();
        }
      }
    }
    this.tops.delete(file);
    this.tops.set(file, { text, top });
    if (this.tops.size > CACHE) this.tops.delete(this.tops.keys().next().value!);
    return top;
  }

  dispose(): void {
    this.tops.clear();
  }
}

/** The full definition among a file's definitions of a name, else its first declaration. */
const pick = (ds: CDef[]): CDef => ds.find((d) => d.full) ?? ds[0];

/** File-level definitions of a C or C++ file (namespaces, `extern "C"` and `#if` blocks included). */
function collect(file: string, block: Node, out: Map<string, CDef[]>): void {
  const add = (name: Node | null | undefined, role: ResolvedDef['role'], outer: Node, full: boolean): void => {
    if (!name || !/^(identifier|type_identifier)$/.test(name.type)) return;
    const xs = out.get(name.text) ?? [];
    xs.push({ def: makeDef(file, name, role, outer), full });
    out.set(name.text, xs);
  };
  const specifier = (spec: Node | null, outer: Node): void => {
    if (!spec || !SPECIFIER.test(spec.type)) return;
    const body = spec.childForFieldName('body');
    add(spec.childForFieldName('name'), 'class', outer, !!body);
    if (spec.type === 'enum_specifier') for (const e of body?.namedChildren ?? []) if (e?.type === 'enumerator') add(e.childForFieldName('name'), 'variable', e, true);
  };
  for (const item of block.namedChildren) {
    if (!item) continue;
    const outer = item.parent?.type === 'template_declaration' ? item.parent : item;
    if (item.type === 'ERROR') macrosIn(item, add);
    if (BLOCKS.test(item.type)) {
      collect(file, item.type === 'namespace_definition' ? item.childForFieldName('body') ?? item : item, out);
    } else if (item.type === 'function_definition') {
      add(declaredName(item.childForFieldName('declarator')), 'function', outer, true);
    } else if (item.type === 'declaration' || item.type === 'type_definition') {
      specifier(item.childForFieldName('type'), outer);
      if (misread(item)) continue;
      for (const d of item.childrenForFieldName('declarator')) {
        if (!d) continue;
        const role = item.type === 'type_definition' ? 'type' : isFunction(d) ? 'function' : 'variable';
        add(declaredName(d), role, outer, role !== 'function');
      }
    } else if (SPECIFIER.test(item.type)) {
      specifier(item, outer);
    } else if (item.type === 'preproc_def' || item.type === 'preproc_function_def') {
      add(item.childForFieldName('name'), item.type === 'preproc_def' ? 'variable' : 'function', outer, true);
    } else if (item.type === 'alias_declaration') {
      add(item.childForFieldName('name'), 'type', outer, true);
    }
  }
}

/**
 * `#define NAME` the parser could not read whole (a body with a comment before its line
 * continuation, as nlohmann's NLOHMANN_JSON_NAMESPACE_END): the tokens are left in an ERROR node.
 */
function macrosIn(error: Node, add: (name: Node | null, role: ResolvedDef['role'], outer: Node, full: boolean) => void): void {
  const kids = error.children;
  for (let i = 0; i + 1 < kids.length; i++) if (kids[i]?.type === '#define' && kids[i + 1]?.type === 'identifier') add(kids[i + 1], 'variable', error, true);
}

/**
 * A declaration the parser misread: an error or a missing token after its first declarator
 * (libuv's `typedef BOOL (PASCAL *LPFN_CONNECTEX)(SOCKET s, const struct sockaddr* name, …)` reads
 * as a typedef then a declaration of `name`). One before it (`UV_EXTERN int f(…);`) leaves it whole.
 */
function misread(item: Node): boolean {
  const first = item.childForFieldName('declarator');
  return !!first && item.children.some((c) => !!c && (c.type === 'ERROR' || c.isMissing) && c.startIndex >= first.startIndex);
}

/** The name a declarator declares (`*p`, `a[]`, `(*cb)(int)`, `f(void)`, `x = 1`). */
function declaredName(d: Node | null): Node | null {
  let cur = d;
  while (cur && DECLARATOR.test(cur.type)) cur = cur.childForFieldName('declarator');
  return cur;
}

/** Whether a declarator declares a function (a prototype), not a pointer to one. */
function isFunction(d: Node): boolean {
  let cur: Node | null = d;
  while (cur && (cur.type === 'pointer_declarator' || cur.type === 'reference_declarator' || cur.type === 'init_declarator')) cur = cur.childForFieldName('declarator');
  return cur?.type === 'function_declarator' && cur.childForFieldName('declarator')?.type !== 'parenthesized_declarator';
}

/** Files whose included names are kept (the few being typed in). */
const INCLUDED_CACHE = 32;

/**
 * The completion check's view of C and C++ includes (complete/vetter.ts): per file, the names its
 * include graph defines, worked out once per set of `#include` lines and dropped when a file of that
 * graph changes, so a keystroke costs a lookup.
 */
export class IncludedNames {
  private readonly resolver: IncludeResolver;
  private readonly cache = new Map<string, { includes: string; names: ReadonlySet<string>; files: Set<string> }>();

  constructor(src: IncludeSource) {
    this.resolver = new IncludeResolver(src);
  }

  /** The names `file`'s includes define, or undefined when they could not all be read by `deadline`. */
  async of(file: string, text: string, deadline: number): Promise<ReadonlySet<string> | undefined> {
    const includes = [...text.matchAll(INCLUDE)].map((m) => m[1].trim()).join('\n');
    const hit = this.cache.get(file);
    if (hit?.includes === includes) return hit.names;
    const found = await this.resolver.includedNames(file, text, deadline);
    if (!found) return undefined;
    this.cache.delete(file);
    this.cache.set(file, { includes, names: found.names, files: found.files });
    if (this.cache.size > INCLUDED_CACHE) this.cache.delete(this.cache.keys().next().value!);
    return found.names;
  }

  /** A file or folder changed or left ('': anything may have): the graphs that read it are read again. */
  changed(file: string): void {
    const under = file + '/';
    for (const [k, e] of this.cache) if (!file || e.files.has(file) || [...e.files].some((f) => f.startsWith(under))) this.cache.delete(k);
  }

  dispose(): void {
    this.cache.clear();
    this.resolver.dispose();
  }
}
