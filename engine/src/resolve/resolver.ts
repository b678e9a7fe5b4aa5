// Names as code: what definition a name at a position refers to, by the language's rules rather
// than by its spelling. Python, TypeScript, TSX and JavaScript; Rust, Go, Java, C and C++ have
// scopes only (`resolves` is false: a local is local, any other name stays candidates). In order:
// - a name bound in a function, block, loop, comprehension or catch of this file is local
//   (locals queries, scopes.ts), and never resolves to another file;
// - `self.x` / `cls.x` / `this.x` is a member of the enclosing class or of its bases, resolved in
//   turn; `super().x` of its bases; `mod.x` / `ns.x` / `Class.x` through what `mod`, `ns`, `Class` are;
//   in ECMAScript `a.b().c.x` through declared types, return types and initializers (values.ts);
// - a module-level name is this file's definition, or what its import names in the exact target
//   module (modules.ts), following re-exports; a name nothing in the file binds resolves to the
//   repository only when exactly one global definition has it; other member accesses: "candidates".
import type { Node, Tree } from 'web-tree-sitter';
import type { LoadedGrammar } from '../chunk/grammar';
import type { GrammarName } from '../chunk/languages';
import { isCHeaderForCpp } from '../chunk/languages';
import { LocalScopes } from './scopes';
import { classInfo, makeDef } from './summary';
import { moduleFile, pythonSubmodule } from './modules';
import { IncludeResolver, resolvesCppMacros, resolvesIncludes } from './includes';
import { thisConstructor, thisMember } from './commonjs';
import { cacheKey, inFunction, moduleDef, statementOf } from './helpers';
import { ProjectPaths } from './projects';
import { MAX_PARSE_CHARS, ModuleSummaries } from './summaries';
import type { Chain, ClassInfo, ModuleSummary, Resolution, ResolvedDef, ResolvedVia } from './types';
import { exprChain, valueKey } from './values';
import { CANDIDATES, declaredType, dottedPath, enclosingClass, headChain, importPlan, importRefAt, isMemberName, isQualifiedMember, leftmost, namespaceMember, NAMESPACES, type Plan } from './syntax';
export type { Resolution, ResolvedDef, ResolvedVia } from './types';
const RESOLVED = new Set<GrammarName>(['python', 'typescript', 'tsx', 'javascript']);
/** Whether names of this grammar are resolved (else the caller's name lookup stays). */
export const resolves = (g: GrammarName): boolean => RESOLVED.has(g);

export interface ResolverSource {
  textOf(file: string): string | undefined;
  hasFile(file: string): boolean;
  grammarFor(file: string, text: string): Promise<LoadedGrammar | undefined>;
  /** The repository's definitions of a name (the definition table). */
  definitionsOf(name: string): ReadonlyArray<{ file: string }>;
  /** The repository's package.json files, for imports of workspace packages by name (projects.ts). */
  packageManifests?(): readonly string[];
}

const MAX_DEPTH = 8;
const CLASS_TYPES = new Set(['class_definition', 'class_declaration', 'abstract_class_declaration', 'class']);
const MEMBER_DECL = /^(method_definition|public_field_definition|field_definition|method_signature|abstract_method_signature|property_signature)$/;

type Found = ResolvedDef | 'external' | undefined;
const LOCAL: Resolution = { kind: 'local' };

export class Resolver {
  private readonly summaries: ModuleSummaries;
  private readonly scopes = new Map<string, { key: string; tree: Tree; s: LocalScopes }>();
  private readonly projects: ProjectPaths;
  private readonly includes: IncludeResolver;
  constructor(private readonly src: ResolverSource) {
    this.projects = new ProjectPaths(src);
    this.includes = new IncludeResolver(src, process.platform, true);
    this.summaries = new ModuleSummaries(src, (g) => resolves(g.name));
  }

  /** What `node` (a name in `file`'s `tree`, text `text`) refers to. */
  async resolve(file: string, text: string, tree: Tree, grammar: LoadedGrammar, node: Node): Promise<Resolution> {
    if (!grammar.locals) return CANDIDATES;
    const key = cacheKey(text);
    const scoped = resolves(grammar.name) ? undefined : this.scopesOnly(file, tree, grammar, node, key);
    const cHeader = grammar.name === 'cpp' && isCHeaderForCpp(file, text);
    const includes = resolvesIncludes(grammar.name) || resolvesCppMacros(grammar.name);
    if (scoped) return scoped === CANDIDATES && includes ? this.includes.resolve(file, node, (n) => this.scopesOf(file, tree, grammar, false, key).bindingOf(n), grammar.name === 'cpp' && !cHeader) : scoped;
    const plan = this.plan(file, tree, grammar, node, grammar.name === 'python', key);
    if (plan.t === 'done') return this.follow(file, plan); // a local needs no summary of the file typed in
    // Resolutions of one file may overlap (SymbolLookup.resolvedNear).
    return this.summaries.holding(file, tree, grammar.name === 'python', key, () => this.follow(file, plan));
  }

  /** The first half of prepare, the file's scopes: a pause may separate the two (each is a slice of the engine's thread). */
  prepareScopes(file: string, text: string, tree: Tree, grammar: LoadedGrammar): void {
    if (grammar.locals && text.length <= MAX_PARSE_CHARS) this.scopesOf(file, tree, grammar, grammar.name === 'python', cacheKey(text));
  }

  /**
   * Readies what resolving a name in this text of `file` costs in proportion to the file (its scopes,
   * its summary), so that a hover there pays only for the name; returns the repository files it
   * imports, whose summaries (`summary`) such a hover reads next.
   */
  prepare(file: string, text: string, tree: Tree, grammar: LoadedGrammar): string[] {
    if (!grammar.locals || text.length > MAX_PARSE_CHARS) return [];
    const key = cacheKey(text), python = grammar.name === 'python';
    this.scopesOf(file, tree, grammar, python, key);
    if (!resolves(grammar.name)) return [];
    const sources = new Set([...this.summaries.ofBuffer(file, tree, python, key).top.values()].flatMap((b) => (b.kind === 'import' ? [b.source] : [])));
    return [...sources].flatMap((source) => moduleFile(file, source, python, (f) => this.src.hasFile(f), (from, spec) => this.projects.bases(from, spec)) ?? []);
  }

  private scopesOf(file: string, tree: Tree, grammar: LoadedGrammar, python: boolean, key: string): LocalScopes {
    let cached = this.scopes.get(file);
    if (!cached || cached.key !== key || cached.tree !== tree) {
      cached = { key, tree, s: new LocalScopes(tree, grammar.locals!, python) };
      this.scopes.set(file, cached);
      if (this.scopes.size > 8) this.scopes.delete(this.scopes.keys().next().value!);
    }
    return cached.s;
  }

  /** Languages without a module graph here (Rust, Go, Java; C and C++ go on to includes.ts): a name bound in a function, block, closure or pattern is local, any other stays "candidates". */
  private scopesOnly(file: string, tree: Tree, grammar: LoadedGrammar, node: Node, key: string): Resolution {
    if (isQualifiedMember(node)) return CANDIDATES;
    const b = this.scopesOf(file, tree, grammar, false, key).bindingOf(node);
    return b && b.scope.parent !== null ? LOCAL : CANDIDATES;
  }

  private plan(file: string, tree: Tree, grammar: LoadedGrammar, node: Node, python: boolean, key: string): Plan {
    const scopes = this.scopesOf(file, tree, grammar, python, key);
    const parent = node.parent;
    const imp = importPlan(node, python);
    if (imp) return imp;
    // Member access: `x.name`.
    if (parent && isMemberName(node, parent, python)) return this.memberPlan(file, node, parent.childForFieldName(python ? 'object' : parent.type === 'nested_type_identifier' ? 'module' : 'object')!, python, scopes);
    // A member's declaration (methods, fields, interface properties).
    if (parent && !python && MEMBER_DECL.test(parent.type) && parent.childForFieldName('name')?.id === node.id) {
      const cls = enclosingClass(parent, python);
      const member = cls && classInfo(file, cls, python)?.members.get(node.text);
      return { t: 'done', r: member ? { kind: 'defines', def: member } : { kind: 'defines', def: makeDef(file, node, 'attribute', parent) } };
    }
    if (node.type === 'property_identifier') return { t: 'done', r: CANDIDATES };
    return this.namePlan(file, node, python, scopes);
  }

  /** A bare name: its binding in the file's scopes, else the module. */
  private namePlan(file: string, node: Node, python: boolean, scopes: LocalScopes): Plan {
    const b = scopes.bindingOf(node);
    if (!b) return { t: 'top', name: node.text };
    if (b.kind === 'import') {
      const ref = importRefAt(b.node, python);
      return ref ? { t: 'import', ref } : { t: 'done', r: CANDIDATES };
    }
    if (b.scope.parent === null) return { t: 'top', name: node.text };
    if (!python && b.kind !== 'parameter' && NAMESPACES.has(b.scope.parent.type)) return { t: 'done', r: { kind: 'defines', def: namespaceMember(file, b.node, b.scope, b.kind) } };
    // ECMAScript: a block's binding outside any function (`for (const x of xs)` at top level) is the module's, as the language service reads it.
    if (!python && b.kind === 'var' && !inFunction(b.scope)) return { t: 'done', r: { kind: 'defines', def: makeDef(file, b.node, 'variable', statementOf(b.node)) } };
    if (CLASS_TYPES.has(b.scope.type)) {
      const member = classInfo(file, b.scope, python)?.members.get(node.text);
      return { t: 'done', r: member ? { kind: 'defines', def: member } : LOCAL };
    }
    return { t: 'done', r: LOCAL };
  }

  private memberPlan(file: string, node: Node, receiver: Node, python: boolean, scopes: LocalScopes): Plan {
    const name = node.text;
    const r = receiver.type === 'parenthesized_expression' ? receiver.namedChildren[0] ?? receiver : receiver;
    const isSelf = python ? r.type === 'identifier' && (r.text === 'self' || r.text === 'cls') : r.type === 'this';
    const isSuper = python ? r.type === 'call' && r.childForFieldName('function')?.text === 'super' : r.type === 'super';
    if (isSelf || isSuper) {
      const cls = enclosingClass(node, python);
      const info = cls && classInfo(file, cls, python);
      // `this` of a prototype's or an object literal's function (commonjs.ts).
      const proto = !info && !python && isSelf ? thisMember(file, node, name) : undefined;
      if (proto) return { t: 'done', r: { kind: 'defines', def: proto, via: 'member' } };
      const ctor = !info && !python && isSelf ? thisConstructor(node) : undefined;
      if (ctor) return { t: 'chain', chain: [{ k: 'name', name: ctor }], name };
      if (!info) return { t: 'done', r: CANDIDATES };
      return { t: 'member', of: info, name, basesOnly: isSuper };
    }
    if (!python) {
      // `exports.x` / `module.exports.x`: this file's CommonJS export (a local `exports` aside).
      if ((r.text === 'exports' || r.text === 'module.exports') && !scopes.bindingOf(leftmost(r))) return { t: 'chain', chain: [{ k: 'def', def: moduleDef(file, this.src.textOf(file)) }], name };
      const chain = exprChain(r, (id) => headChain(file, id, scopes, 0));
      return chain ? { t: 'chain', chain, name } : { t: 'done', r: CANDIDATES };
    }
    const path = dottedPath(r);
    if (!path) return { t: 'done', r: CANDIDATES };
    const head = leftmost(r);
    const b = scopes.bindingOf(head);
    if (b && b.kind === 'import') {
      const ref = importRefAt(b.node, python);
      return ref ? { t: 'path', path: [`\0import:${ref.source}\0${ref.imported}`, ...path.slice(1)], name } : { t: 'done', r: CANDIDATES };
    }
    // A variable or parameter whose declaration names its class: that class's member.
    const typed = b && path.length === 1 && (b.kind === 'var' || b.kind === 'parameter') ? declaredType(b.node, python) : undefined;
    if (typed) return { t: 'path', path: typed, name };
    if (b && b.scope.parent !== null) return { t: 'done', r: CANDIDATES }; // a local of a type not declared
    return { t: 'path', path, name };
  }

  private async follow(file: string, plan: Plan): Promise<Resolution> {
    let found: Found;
    let via: ResolvedVia = 'inferred';
    switch (plan.t) {
      case 'done':
        return plan.r.kind === 'defines' && !plan.r.via ? { ...plan.r, via: 'file' } : plan.r;
      case 'top':
        found = await this.top(file, plan.name, 0);
        via = found === undefined ? 'repository' : found !== 'external' && found.file === file ? 'file' : 'import';
        if (found === undefined) found = await this.byRepository(plan.name);
        break;
      case 'import':
        [found, via] = [await this.viaImport(file, plan.ref.source, plan.ref.imported, 0), 'import'];
        break;
      case 'member':
        [found, via] = [await this.member(plan.of, plan.name, 0, plan.basesOnly), 'member'];
        break;
      case 'chain': {
        const owner = await this.evaluate(file, plan.chain, 0);
        if (owner === 'external') return { kind: 'external' };
        found = owner ? await this.memberOf(owner, plan.name, 0) : undefined;
        break;
      }
      case 'path': {
        if (plan.path.length === 1 && plan.path[0].startsWith('\0import:')) via = 'import'; // `mod.f`, `mod` imported; deeper paths go through types
        const owner = await this.path(file, plan.path, 0);
        if (owner === 'external') return plan.path[0].startsWith('\0import:') ? { kind: 'external', via: 'import' } : { kind: 'external' };
        found = owner ? await this.memberOf(owner, plan.name, 0) : undefined;
        if (owner === undefined && !this.src.definitionsOf(plan.path[0]).length && !plan.path[0].startsWith('\0')) found = 'external';
        break;
      }
    }
    if (found === 'external') return via === 'import' ? { kind: 'external', via } : { kind: 'external' };
    return found ? { kind: 'defines', def: found, via } : CANDIDATES;
  }

  /** A name nothing in the file binds: the repository's only definition of it, if it has exactly one and it is global. */
  private async byRepository(name: string): Promise<Found> {
    const defs = this.src.definitionsOf(name);
    if (defs.length === 0) return 'external';
    if (defs.length > 1) return undefined;
    const s = await this.summary(defs[0].file);
    const b = s?.top.get(name);
    if (!s || s.isModule) return 'external';
    return b?.kind === 'def' ? b.def : undefined;
  }

  /** A module-level name of `file`: its definition, or what its import or re-export names. */
  private async top(file: string, name: string, depth: number): Promise<Found> {
    if (depth > MAX_DEPTH) return undefined;
    const s = await this.summary(file);
    if (!s) return undefined;
    const b = s.top.get(name);
    if (b?.kind === 'def') return b.def;
    if (b?.kind === 'import') {
      const f = await this.viaImport(file, b.source, b.imported, depth + 1);
      return f === 'external' && b.decl ? b.decl : f;
    }
    for (const r of s.reexports) {
      if (r.local === name) return r.source ? this.viaImport(file, r.source, r.imported, depth + 1) : this.top(file, r.imported, depth + 1);
    }
    let external = false;
    for (const r of s.reexports) {
      if (r.local !== '*' || name === 'default') continue;
      const f = await this.viaImport(file, r.source, name, depth + 1);
      if (f === 'external') external = true;
      else if (f) return f;
    }
    return external ? 'external' : undefined;
  }

  /** What module `file` exports as `name`: a CommonJS export first (commonjs.ts), else its module-level name. */
  private async exported(file: string, name: string, depth: number): Promise<Found> {
    const cjs = (await this.summary(file))?.commonjs;
    const b = cjs?.exports.get(name);
    if (b?.kind === 'def') return b.def;
    if (cjs && name === 'default') {
      const whole = (await this.summary(file))!.reexports.find((r) => r.local === 'default');
      if (cjs.wholeModule || whole?.imported === '\0module') return moduleDef(file, this.src.textOf(file));
    }
    return this.top(file, name, depth);
  }

  /** What `imported` (a name, `default`, or `*` for the module itself) of module `source` is, seen from `file`. */
  private async viaImport(file: string, source: string, imported: string, depth: number): Promise<Found> {
    const python = /\.pyi?$/.test(file);
    const target = moduleFile(file, source, python, (f) => this.src.hasFile(f), (from, spec) => this.projects.bases(from, spec));
    if (!target) return 'external';
    if (imported === '*') return moduleDef(target, this.src.textOf(target));
    const found = await this.exported(target, imported, depth + 1);
    if (found !== undefined) return found;
    const sub = python ? pythonSubmodule(target, imported, (f) => this.src.hasFile(f)) : undefined;
    return sub ? moduleDef(sub, this.src.textOf(sub)) : undefined;
  }

  /** `a.b.c` as a module, class or other definition; a leading `\0import:` segment is an import already read. */
  private async path(file: string, path: string[], depth: number): Promise<Found> {
    let cur: Found;
    const head = path[0];
    if (head.startsWith('\0import:')) {
      const [source, imported] = head.slice('\0import:'.length).split('\0');
      cur = await this.viaImport(file, source, imported, depth);
    } else cur = await this.top(file, head, depth);
    for (const seg of path.slice(1)) {
      if (!cur || cur === 'external') return cur;
      cur = await this.memberOf(cur, seg, depth + 1);
    }
    return cur;
  }

  /** A member of a module or a class definition. */
  private async memberOf(owner: ResolvedDef | 'external', name: string, depth: number): Promise<Found> {
    if (owner === 'external') return 'external';
    if (owner.role === 'module') {
      const f = await this.exported(owner.file, name, depth + 1);
      if (f !== undefined) return f;
      const sub = /\.pyi?$/.test(owner.file) ? pythonSubmodule(owner.file, name, (x) => this.src.hasFile(x)) : undefined;
      return sub ? moduleDef(sub, this.src.textOf(sub)) : undefined;
    }
    const holder = await this.holderOf(owner, depth + 1);
    if (!holder || holder === 'external' || holder.role === 'module') return holder && this.memberOf(holder, name, depth + 1);
    const info = (await this.summary(holder.file))?.classes.get(holder.declLine);
    return info ? this.member(info, name, depth + 1) : undefined;
  }

  /** The definition holding a value's members: itself (a class, interface, enum, object, module), else its declared type's or initializer's. */
  private async holderOf(d: ResolvedDef, depth: number): Promise<Found> {
    if (d.role === 'module' || depth > MAX_DEPTH) return depth > MAX_DEPTH ? undefined : d;
    const s = await this.summary(d.file);
    if (s?.classes.get(d.declLine)?.def.name === d.name) return d;
    const v = s?.values?.get(valueKey(d));
    const next = v?.type ? await this.path(d.file, v.type, depth + 1) : v?.init ? await this.evaluate(d.file, v.init, depth + 1) : undefined;
    return next && next !== 'external' ? this.holderOf(next, depth + 1) : next;
  }

  /** What a function or method returns, by its declared return type. */
  private async returnsOf(d: ResolvedDef, depth: number): Promise<Found> {
    const v = (await this.summary(d.file))?.values?.get(valueKey(d));
    return v?.returns ? this.path(d.file, v.returns, depth + 1) : undefined;
  }

  /** The definition a chain's value is, read in `file`. */
  private async evaluate(file: string, chain: Chain, depth: number): Promise<Found> {
    let cur: Found;
    for (const st of chain) {
      if (depth > MAX_DEPTH) return undefined;
      if (st.k === 'name') {
        cur = await this.top(file, st.name, depth + 1);
        if (cur === undefined && !this.src.definitionsOf(st.name).length) cur = 'external';
      } else if (st.k === 'import') cur = await this.viaImport(file, st.source, st.imported, depth + 1);
      else if (st.k === 'type') cur = await this.path(file, st.path, depth + 1);
      else if (st.k === 'def') cur = st.def;
      else if (!cur || cur === 'external') return cur;
      else if (st.k === 'get') cur = await this.memberOf(cur, st.name, depth + 1);
      else cur = await this.returnsOf(cur, depth + 1);
      if (!cur || cur === 'external') return cur;
    }
    return cur;
  }

  /** A class's member, else its bases' in order; external when an external base may hold it. */
  private async member(info: ClassInfo, name: string, depth: number, basesOnly = false): Promise<Found> {
    if (depth > MAX_DEPTH) return undefined;
    const own = basesOnly ? undefined : info.members.get(name);
    if (own) return own;
    let external = false;
    for (const base of info.bases) {
      const named = await this.path(info.def.file, base.split('.'), depth + 1);
      const cls = named && named !== 'external' && !info.def.file.endsWith('.py') ? await this.holderOf(named, depth + 1) : named;
      if (cls === 'external') external = true;
      if (!cls || cls === 'external' || (cls.role !== 'class' && cls.role !== 'type' && cls.role !== 'variable')) continue;
      const baseInfo = (await this.summary(cls.file))?.classes.get(cls.declLine);
      const f = baseInfo && (await this.member(baseInfo, name, depth + 1));
      if (f === 'external') external = true;
      else if (f) return f;
    }
    return external ? 'external' : undefined;
  }

  /** A repository file's module summary, kept per text (an open buffer's text when it is being resolved in). */
  summary(file: string): Promise<ModuleSummary | undefined> {
    return this.summaries.of(file);
  }

  /** The base-class member that the method `name` declared on `line` of `file` overrides, when its class's bases resolve to one. */
  async overridden(file: string, line: number, name: string): Promise<ResolvedDef | undefined> {
    const s = await this.summary(file);
    for (const info of s?.classes.values() ?? []) {
      if (info.members.get(name)?.line !== line) continue;
      const f = await this.member(info, name, 0, true);
      return f && f !== 'external' ? f : undefined;
    }
    return undefined;
  }

  /** What the module-level name `name` of `file` is (its definition, or what its import names), if a repository definition. */
  async topLevel(file: string, name: string): Promise<ResolvedDef | undefined> {
    return ((f) => (f === 'external' ? undefined : f))(await this.top(file, name, 0));
  }

  dispose(): void {
    this.summaries.clear();
    this.scopes.clear();
    this.includes.dispose();
  }
}
