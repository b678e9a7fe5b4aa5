// Which of a macro's definitions in `#if` branches a compiler reads (`#ifdef FMT_DOC … #else …`), from
// the conditions they are defined under, evaluated (ppexpr.ts) over the include graph's macros as a
// preprocessor would: `defined(X)`, `X` and `F(x)` see this file's definitions above the condition
// and the other headers', each under its own conditions in turn, a replacement list read as an
// expression (`(__clang_major__ * 100 + __clang_minor__)`, `__has_feature(x)` with its argument); a
// name the graph never defines is 0; `__cplusplus` is C++17's 201703L and the language's feature
// macros C++17's; the compilers' and the platform's are compilers.ts'. One answer per compiler
// profile, kept where they all agree. Anything else (`__has_include(…)`, a string) leaves the
// condition unknown, and the macro candidates.
import type { CDef } from './cdecls';
import { agreed, CPP17_FEATURES, type CompilerProfile } from './compilers';
import { profileLeaf } from './cpreproc';
import { evaluate, parseCond, PENDING, substitute, type Cond, type Leaf, type Value } from './ppexpr';

const MAX_DEPTH = 8;
/** `__cplusplus` as C++17 defines it. */
const CPLUSPLUS = 201703;
/** Names reserved to the implementation: the compiler's own macros. */
const RESERVED = /^(__|_[A-Z])/;

/** Every macro definition of a name the include graph holds, and whether every header of it was read. */
export type MacroDefs = (name: string) => Promise<{ defs: CDef[]; complete: boolean }>;

/** The one definition among `defs` whose conditions hold under every profile alike, when each decides it. */
export async function liveDefinition(defs: CDef[], defsOf: MacroDefs, profiles: readonly CompilerProfile[]): Promise<CDef | undefined> {
  const found = new Map<string, Promise<{ defs: CDef[]; complete: boolean }>>();
  const shared: MacroDefs = (name) => {
    let f = found.get(name);
    if (!f) found.set(name, (f = defsOf(name)));
    return f;
  };
  const each: Array<CDef | undefined> = [];
  for (const p of profiles) each.push(await new MacroBranches(shared, p).live(defs));
  return agreed(profiles, (_, k) => each[k]);
}

/** One compiler profile's reading of the include graph's macros. */
export class MacroBranches {
  private readonly leaf: (l: Leaf) => number | undefined;

  constructor(private readonly defsOf: MacroDefs, private readonly profile: CompilerProfile) {
    this.leaf = profileLeaf(profile);
  }

  /** The one definition among `defs` whose conditions hold, when every one's conditions are decided. */
  async live(defs: CDef[]): Promise<CDef | undefined> {
    const holds: Array<boolean | undefined> = [];
    for (const d of defs) holds.push(await this.holds(d, 0));
    const yes = defs.filter((_, i) => holds[i] === true);
    return yes.length === 1 && holds.every((h) => h !== undefined) ? yes[0] : undefined;
  }

  /** Whether the conditions a definition is under hold (undefined: not decided). */
  private async holds(d: CDef, depth: number): Promise<boolean | undefined> {
    let unknown = false;
    for (const g of d.macro?.guard ?? []) {
      const v = await this.value(g.cond, d.def.file, g.line, depth);
      if (v === undefined) unknown = true;
      else if ((v !== 0) !== g.want) return false;
    }
    return unknown ? undefined : true;
  }

  /** `c`'s value on `line` of `file`: evaluated, each name it asks for looked up (in turn, as the evaluator reaches it) and asked again. */
  private async value(c: Cond, file: string, line: number, depth: number): Promise<number | undefined> {
    const known = new Map<string, number | undefined>();
    const key = (l: Leaf) => `${l.k} ${l.name}${l.k === 'call' ? `(${l.args.join(',')})` : ''}`;
    for (;;) {
      const asked: Leaf[] = [];
      const v: Value = evaluate(c, (l) => {
        const k = key(l);
        if (known.has(k)) return known.get(k);
        asked.push(l);
        return PENDING;
      });
      if (v !== PENDING) return v;
      for (const l of asked) known.set(key(l), await this.leafValue(l, file, line, depth));
    }
  }

  private async leafValue(l: Leaf, file: string, line: number, depth: number): Promise<number | undefined> {
    const own = this.leaf(l);
    if (own !== undefined || this.profile.macros.has(l.name)) return own;
    if (l.name === '__cplusplus') return l.k === 'defined' ? 1 : l.k === 'id' ? CPLUSPLUS : undefined;
    if (CPP17_FEATURES.has(l.name)) return l.k === 'defined' ? 1 : l.k === 'id' ? CPP17_FEATURES.get(l.name) : undefined;
    if (RESERVED.test(l.name) || depth > MAX_DEPTH) return undefined;
    return l.k === 'defined' ? this.defined(l.name, file, line, depth) : this.expansion(l, file, line, depth);
  }

  /** `defined(name)` on `line` of `file`. */
  private async defined(name: string, file: string, line: number, depth: number): Promise<number | undefined> {
    const { defs, complete } = await this.before(name, file, line);
    let unknown = !complete;
    for (const d of defs) {
      const h = await this.holds(d, depth + 1);
      if (h === true) return 1;
      if (h === undefined) unknown = true;
    }
    return unknown ? undefined : 0;
  }

  /** The value `name` (or `name(args)`) has on `line` of `file`: its one live definition's replacement list, evaluated; 0 when none is live. */
  private async expansion(l: Exclude<Leaf, { k: 'defined' }>, file: string, line: number, depth: number): Promise<number | undefined> {
    const { defs, complete } = await this.before(l.name, file, line);
    const live: CDef[] = [];
    for (const d of defs) {
      const h = await this.holds(d, depth + 1);
      if (h === undefined) return undefined;
      if (h) live.push(d);
    }
    if (live.length !== 1) return live.length || !complete ? undefined : l.k === 'id' ? 0 : undefined;
    const m = live[0].macro!;
    // An object-like macro named with arguments, or a function-like one without: not an expression here.
    if ((l.k === 'call') !== !!m.params) return undefined;
    const text = l.k === 'call' ? substitute(m.text, m.params!, l.args) : m.text;
    // An empty replacement list (`#define F(x)`) is no expression: a compiler would reject the `#if`.
    return text?.trim() ? this.value(parseCond(text), live[0].def.file, live[0].def.line, depth + 1) : undefined;
  }

  /** The definitions of `name` a condition on `line` of `file` sees: this file's above it, every other header's. */
  private async before(name: string, file: string, line: number): Promise<{ defs: CDef[]; complete: boolean }> {
    const { defs, complete } = await this.defsOf(name);
    return { defs: defs.filter((d) => d.def.file !== file || d.def.line < line), complete };
  }
}
