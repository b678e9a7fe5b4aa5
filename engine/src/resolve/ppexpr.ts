// Preprocessor expressions (`#if`, `#elif`, a macro's replacement text) as data, and the one
// evaluator every `#if` decision in the engine goes through: cpreproc.ts (which branches a file's
// declarations are read from) and macroBranches.ts (which definition of a macro the include graph
// selects). What a name is worth is the caller's: a leaf answers a number, undefined (not known:
// the condition is left undecided) or PENDING (not looked up yet: the caller looks it up and asks
// again), so the evaluator stays synchronous and the lookups lazy, in the order a preprocessor reads.

/** A condition as data, kept past its tree's life (a guard of a macro defined under `#if`). */
export type Cond =
  | { k: 'num'; v: number }
  | { k: 'id'; name: string }
  | { k: 'defined'; name: string }
  | { k: 'call'; name: string; args: string[] }
  | { k: 'un'; op: string; a: Cond }
  | { k: 'bin'; op: string; a: Cond; b: Cond }
  | { k: 'if'; c: Cond; a: Cond; b: Cond }
  | { k: 'unknown' };
export type Leaf = Extract<Cond, { k: 'id' | 'defined' | 'call' }>;
/** What a branch needs: each condition (its directive on `line`) evaluating to `want` (true: non-zero). */
export type Guard = Array<{ cond: Cond; want: boolean; line: number }>;

export const PENDING = Symbol('pending');
export type Value = number | undefined | typeof PENDING;

const TOKEN = /\s*(0[xX][0-9a-fA-F]+|\d+|[A-Za-z_]\w*|&&|\|\||<<|>>|<=|>=|==|!=|[-+*/%<>&^|!~?:(),]|\S)/y;
/** Binary operators by precedence, loosest first (C's table; `?:` is below them all). */
const LEVELS = [['||'], ['&&'], ['|'], ['^'], ['&'], ['==', '!='], ['<', '>', '<=', '>='], ['<<', '>>'], ['+', '-'], ['*', '/', '%']];
const BINARY: Record<string, (x: number, y: number) => number | undefined> = {
  '|': (x, y) => x | y, '^': (x, y) => x ^ y, '&': (x, y) => x & y,
  '==': (x, y) => +(x === y), '!=': (x, y) => +(x !== y), '<': (x, y) => +(x < y), '>': (x, y) => +(x > y), '<=': (x, y) => +(x <= y), '>=': (x, y) => +(x >= y),
  '<<': (x, y) => x * 2 ** y, '>>': (x, y) => Math.floor(x / 2 ** y), '+': (x, y) => x + y, '-': (x, y) => x - y, '*': (x, y) => x * y,
  '/': (x, y) => (y ? Math.trunc(x / y) : undefined), '%': (x, y) => (y ? x % y : undefined),
};
const UNKNOWN: Cond = { k: 'unknown' };

/** The text of a directive's condition or a replacement list, without comments and line continuations. */
const clean = (text: string): string => text.replace(/\\\r?\n/g, ' ').replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/.*$/gm, '');

/** Parses a preprocessor expression; what it cannot read (a string, a cast, a trailing token) is `unknown`. */
export function parseCond(text: string): Cond {
  const src = clean(text);
  const toks: string[] = [];
  TOKEN.lastIndex = 0;
  for (let m; (m = TOKEN.exec(src));) toks.push(m[1]);
  let i = 0;
  const peek = () => toks[i];
  const eat = (t: string) => (toks[i] === t ? (i++, true) : false);
  /** A call's arguments as text, split at top-level commas (`__has_include(<a.h>)`, `F(x, y)`). */
  const args = (): string[] | undefined => {
    const out: string[] = [];
    let depth = 0, cur = '';
    for (; i < toks.length; i++) {
      const t = toks[i];
      if (t === ')' && depth === 0) {
        i++;
        return cur || out.length ? [...out, cur] : [];
      }
      if (t === ',' && depth === 0) { out.push(cur); cur = ''; continue; }
      if (t === '(') depth++;
      if (t === ')') depth--;
      cur += (/\w$/.test(cur) && /^\w/.test(t) ? ' ' : '') + t;
    }
    return undefined;
  };
  const primary = (): Cond => {
    const t = toks[i++];
    if (t === undefined) return UNKNOWN;
    if (t === '(') { const c = ternary(); return eat(')') ? c : UNKNOWN; }
    if (/^\d/.test(t)) {
      while (/^[uUlL]+$/.test(peek() ?? '')) i++; // the tokenizer splits `201703L` into `201703` `L`
      return { k: 'num', v: Number.parseInt(t, /^0[xX]/.test(t) ? 16 : /^0\d/.test(t) ? 8 : 10) };
    }
    if (t === 'defined') {
      const paren = eat('(');
      const name = toks[i++];
      if (!name || !/^[A-Za-z_]/.test(name) || (paren && !eat(')'))) return UNKNOWN;
      return { k: 'defined', name };
    }
    if (/^[A-Za-z_]/.test(t)) {
      if (!eat('(')) return { k: 'id', name: t };
      const a = args();
      return a ? { k: 'call', name: t, args: a } : UNKNOWN;
    }
    if (t === '!' || t === '-' || t === '+' || t === '~') return { k: 'un', op: t, a: primary() };
    return UNKNOWN;
  };
  const binary = (level: number): Cond => {
    if (level === LEVELS.length) return primary();
    let a = binary(level + 1);
    while (LEVELS[level].includes(peek())) {
      const op = toks[i++];
      a = { k: 'bin', op, a, b: binary(level + 1) };
    }
    return a;
  };
  const ternary = (): Cond => {
    const c = binary(0);
    if (!eat('?')) return c;
    const a = ternary();
    return eat(':') ? { k: 'if', c, a, b: ternary() } : UNKNOWN;
  };
  const c = ternary();
  return i === toks.length ? c : UNKNOWN;
}

/**
 * The value of `c` with each name's value from `leaf`, as a preprocessor computes it: `&&`, `||` and
 * `?:` decided by the side that is known when the other is not (no expression here has effects).
 */
export function evaluate(c: Cond, leaf: (l: Leaf) => Value): Value {
  switch (c.k) {
    case 'num': return c.v;
    case 'id': case 'defined': case 'call': return leaf(c);
    case 'un': {
      const v = evaluate(c.a, leaf);
      if (typeof v !== 'number') return v;
      return c.op === '!' ? +(v === 0) : c.op === '-' ? -v : c.op === '~' ? ~v : v;
    }
    case 'if': {
      const v = evaluate(c.c, leaf);
      return typeof v === 'number' ? evaluate(v ? c.a : c.b, leaf) : v;
    }
    case 'bin': {
      const a = evaluate(c.a, leaf);
      if (c.op === '&&' && a === 0) return 0;
      if (c.op === '||' && typeof a === 'number' && a !== 0) return 1;
      const b = evaluate(c.b, leaf);
      if (c.op === '&&') return b === 0 ? 0 : a === PENDING || b === PENDING ? PENDING : a === undefined || b === undefined ? undefined : 1;
      if (c.op === '||') return typeof b === 'number' && b !== 0 ? 1 : a === 0 && b === 0 ? 0 : a === PENDING || b === PENDING ? PENDING : undefined;
      if (typeof a !== 'number' || typeof b !== 'number') return a === PENDING || b === PENDING ? PENDING : undefined;
      return BINARY[c.op]?.(a, b);
    }
    default: return undefined;
  }
}

/** `evaluate` where every leaf is known at once (nothing PENDING). */
export const evaluateNow = (c: Cond, leaf: (l: Leaf) => number | undefined): number | undefined => {
  const v = evaluate(c, leaf);
  return v === PENDING ? undefined : v;
};

/** A function-like macro's replacement text with its parameters replaced by `args` (no `#`/`##`: those are not expressions). */
export function substitute(text: string, params: readonly string[], args: readonly string[]): string | undefined {
  if (params.length !== args.length && !(params.length === 0 && args.length === 1 && !args[0])) return undefined;
  if (/#/.test(text)) return undefined;
  const by = new Map(params.map((p, k) => [p, args[k]]));
  return text.replace(/[A-Za-z_]\w*/g, (w) => by.get(w) ?? w);
}
