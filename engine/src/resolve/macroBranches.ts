// Which of a macro's definitions in `#if` branches a compiler reads (`#ifdef FMT_DOC … #else …`), from
// the conditions they are defined under, evaluated over the include graph's macros as a
// preprocessor would: `defined(X)` and `X` see this file's definitions above the condition and the
// other headers', each under its own conditions in turn; a name the graph never defines is 0;
// `__cplusplus` is C++17's 201703L; the platform's macros are cpreproc.ts's. Any other reserved name
// (`__clang__`, `__cpp_if_constexpr`), a macro call (`__has_include(…)`) or a value that is not a
// number leaves the condition unknown, and the macro candidates.
import type { CDef } from './cdecls';
import type { Cond } from './cpreproc';

const MAX_DEPTH = 8;
/** `__cplusplus` as C++17 defines it. */
const CPLUSPLUS = 201703;
/** Names reserved to the implementation: the compiler's own macros. */
const RESERVED = /^(__|_[A-Z])/;
const NUMBER = /^\(?\s*(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\s*\)?$/;
const COMPARE: Record<string, (x: number, y: number) => number> = {
  '==': (x, y) => +(x === y), '!=': (x, y) => +(x !== y), '<': (x, y) => +(x < y), '>': (x, y) => +(x > y), '<=': (x, y) => +(x <= y), '>=': (x, y) => +(x >= y),
  '+': (x, y) => x + y, '-': (x, y) => x - y, '*': (x, y) => x * y,
};

/** Every macro definition of a name the include graph holds, and whether every header of it was read. */
export type MacroDefs = (name: string) => Promise<{ defs: CDef[]; complete: boolean }>;

export class MacroBranches {
  private readonly found = new Map<string, Promise<{ defs: CDef[]; complete: boolean }>>();

  constructor(private readonly defsOf: MacroDefs, private readonly platform: Map<string, number | undefined>) {}

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

  private async value(c: Cond, file: string, line: number, depth: number): Promise<number | undefined> {
    switch (c.k) {
      case 'num': return c.v;
      case 'not': {
        const v = await this.value(c.a, file, line, depth);
        return v === undefined ? undefined : +(v === 0);
      }
      case 'bin': {
        const a = await this.value(c.a, file, line, depth);
        if (c.op === '&&' && a === 0) return 0;
        if (c.op === '||' && a !== undefined && a !== 0) return 1;
        const b = await this.value(c.b, file, line, depth);
        if (c.op === '&&') return b === 0 ? 0 : a !== undefined && b !== undefined ? 1 : undefined;
        if (c.op === '||') return b !== undefined && b !== 0 ? 1 : a === 0 && b === 0 ? 0 : undefined;
        return a === undefined || b === undefined || !COMPARE[c.op] ? undefined : COMPARE[c.op](a, b);
      }
      case 'defined': return this.defined(c.name, file, line, depth);
      case 'id': return this.macroValue(c.name, file, line, depth);
      default: return undefined;
    }
  }

  /** `defined(name)` on `line` of `file`. */
  private async defined(name: string, file: string, line: number, depth: number): Promise<number | undefined> {
    if (this.platform.has(name)) return this.platform.get(name) === undefined ? 0 : 1;
    if (name === '__cplusplus') return 1;
    if (RESERVED.test(name) || depth > MAX_DEPTH) return undefined;
    const { defs, complete } = await this.before(name, file, line);
    let unknown = !complete;
    for (const d of defs) {
      const h = await this.holds(d, depth + 1);
      if (h === true) return 1;
      if (h === undefined) unknown = true;
    }
    return unknown ? undefined : 0;
  }

  /** The value `name` has in a condition on `line` of `file`: a number its one live definition spells (through other macros), 0 when none is. */
  private async macroValue(name: string, file: string, line: number, depth: number): Promise<number | undefined> {
    if (this.platform.has(name)) return this.platform.get(name) ?? 0;
    if (name === '__cplusplus') return CPLUSPLUS;
    if (RESERVED.test(name) || depth > MAX_DEPTH) return undefined;
    const { defs, complete } = await this.before(name, file, line);
    const live: CDef[] = [];
    for (const d of defs) {
      const h = await this.holds(d, depth + 1);
      if (h === undefined) return undefined;
      if (h) live.push(d);
    }
    if (live.length !== 1) return live.length || !complete ? undefined : 0;
    const text = live[0].macro!.text.replace(/\/\*.*?\*\/|\/\/.*$/g, '').trim();
    const n = NUMBER.exec(text);
    if (n) return Number.parseInt(n[1], n[1].startsWith('0x') || n[1].startsWith('0X') ? 16 : 10);
    return /^\w+$/.test(text) ? this.macroValue(text, live[0].def.file, live[0].def.line, depth + 1) : undefined;
  }

  /** The definitions of `name` a condition on `line` of `file` sees: this file's above it, every other header's. */
  private async before(name: string, file: string, line: number): Promise<{ defs: CDef[]; complete: boolean }> {
    let found = this.found.get(name);
    if (!found) this.found.set(name, (found = this.defsOf(name)));
    const { defs, complete } = await found;
    return { defs: defs.filter((d) => d.def.file !== file || d.def.line < line), complete };
  }
}
