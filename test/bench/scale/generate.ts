// A deterministic synthetic repository for scale benchmarks: N source files in TypeScript, Python,
// Go, Java, Rust and JavaScript, shaped like real code (classes with methods, free functions with
// doc comments, imports of other files of the same language whose exported names are then called),
// plus READMEs, JSON configs, a .gitignore, and directories the scanner must skip.
//
// Every file's path, language and exported names are a pure function of (seed, file index), so a
// file can import from any other without the generator keeping the whole repository in memory, and
// the same seed always gives byte-identical trees.
//
// `node out/test/bench/scale/generate.js --files N --dir DIR [--seed S]`
import * as fs from 'fs';
import * as path from 'path';
import { mulberry32 } from '../../../engine/src/util/prng';

export interface GenerateOptions {
  /** Source files to write (default 100,000). Docs, configs and ignored files come on top. */
  files?: number;
  /** PRNG seed (default 1). */
  seed?: number;
  /** Files per directory (default 25). */
  filesPerDir?: number;
  /** Extra .gitignore lines that match nothing in the tree, shaped like a large real one (default 0). */
  gitignoreLines?: number;
  /** Add lines that made a backtracking matcher hang (repeated `**` + `/`, many stars in one name). */
  hostileGitignore?: boolean;
}

export interface GeneratedRepo {
  root: string;
  /** Files the scanner should index (workspace-relative), with their byte sizes. */
  indexable: Array<{ relPath: string; bytes: number }>;
  /** Files written that must be skipped (ignored / default-excluded directories, *.log). */
  ignored: string[];
  sourceBytes: number;
}

/** mulberry32: small, fast, good enough to shape test data; seeded, so output is reproducible. */
export const prng = mulberry32;

function mix(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const p of parts) {
    h = Math.imul(h ^ (p & 0xffff), 0x01000193);
    h = Math.imul(h ^ (p >>> 16), 0x01000193);
  }
  return h >>> 0;
}

const VERBS = [
  'compute', 'load', 'parse', 'render', 'validate', 'build', 'fetch', 'store', 'resolve', 'merge', 'split',
  'format', 'encode', 'decode', 'normalize', 'apply', 'collect', 'filter', 'sort', 'index', 'update',
  'create', 'remove', 'find', 'schedule', 'retry', 'flush', 'compress', 'sanitize', 'register', 'dispatch',
  'estimate', 'reconcile', 'serialize', 'hydrate', 'prune', 'rank', 'score', 'emit', 'track',
];
const NOUNS = [
  'order', 'user', 'invoice', 'cache', 'token', 'session', 'payment', 'account', 'report', 'event', 'queue',
  'message', 'record', 'config', 'route', 'request', 'response', 'product', 'cart', 'discount', 'shipment',
  'warehouse', 'stock', 'price', 'tax', 'customer', 'ledger', 'budget', 'metric', 'sample', 'batch', 'job',
  'worker', 'channel', 'graph', 'node', 'edge', 'buffer', 'frame', 'packet', 'schema', 'field', 'column',
  'query', 'filter', 'policy', 'rule', 'permission', 'role', 'tenant', 'region', 'snapshot', 'checkpoint',
  'model', 'feature', 'vector', 'embedding', 'document', 'chunk', 'segment',
];
const ADJECTIVES = ['pending', 'active', 'stale', 'cached', 'local', 'remote', 'total', 'partial', 'next', 'last', 'max', 'min', 'raw', 'valid'];
const DOC_PHRASES = [
  'Returns the {n} for the given {m}, or a default when none exists.',
  'Applies the {n} rules to every {m} in the batch.',
  'Keeps at most {k} {n} entries; the oldest are evicted first.',
  'Called by the scheduler once per {m}; must not block.',
  'Converts a raw {n} into the canonical {m} representation.',
  'Merges two {n} sets, preferring the newer {m}.',
  'Throws when the {n} is malformed or the {m} is missing.',
  'Counts how many {n} records belong to each {m}.',
];

type Lang = 'ts' | 'py' | 'go' | 'java' | 'rs' | 'js';
const LANG_WEIGHTS: Array<[Lang, number]> = [['ts', 0.3], ['py', 0.25], ['go', 0.15], ['java', 0.15], ['rs', 0.08], ['js', 0.07]];
const EXT: Record<Lang, string> = { ts: '.ts', py: '.py', go: '.go', java: '.java', rs: '.rs', js: '.js' };

const cap = (s: string) => s[0].toUpperCase() + s.slice(1);
const camel = (words: string[]) => words[0] + words.slice(1).map(cap).join('');
const pascal = (words: string[]) => words.map(cap).join('');
const snake = (words: string[]) => words.join('_');

interface FileMeta {
  index: number;
  dir: string;
  lang: Lang;
  /** Module base name without extension (words). */
  baseWords: string[];
  relPath: string;
  /** Exported free functions (as word lists) and classes (as word lists, with method word lists). */
  functions: string[][];
  classes: Array<{ words: string[]; methods: string[][] }>;
}

export class RepoShape {
  readonly dirs: number;
  private readonly cache = new Map<number, FileMeta>();

  constructor(readonly files: number, readonly seed = 1, readonly filesPerDir = 25) {
    this.dirs = Math.ceil(files / filesPerDir);
  }

  langOfDir(d: number): Lang {
    const r = prng(mix(this.seed, d, 7))();
    let acc = 0;
    for (const [lang, w] of LANG_WEIGHTS) if (r < (acc += w)) return lang;
    return 'ts';
  }

  dirPath(d: number): string {
    const r = prng(mix(this.seed, d, 11));
    const area = NOUNS[Math.floor(r() * NOUNS.length)];
    const lang = this.langOfDir(d);
    const top = lang === 'java' ? `java/com/example/${area}` : lang === 'go' ? `go/${area}` : lang === 'py' ? `python/${area}` : `src/${area}`;
    return `${top}/${lang === 'py' || lang === 'rs' ? snake([NOUNS[d % NOUNS.length], 'pkg', String(d)]) : `${NOUNS[d % NOUNS.length]}${d}`}`;
  }

  meta(i: number): FileMeta {
    let m = this.cache.get(i);
    if (m) return m;
    const d = Math.floor(i / this.filesPerDir);
    const pos = i % this.filesPerDir;
    const lang = this.langOfDir(d);
    // Distinct word pairs within a directory: a stride coprime with NOUNS.length² walks the pairs.
    const pairs = NOUNS.length * NOUNS.length;
    const pair = (mix(this.seed, d, 3) + pos * 7919) % pairs;
    const baseWords = [NOUNS[Math.floor(pair / NOUNS.length)], NOUNS[pair % NOUNS.length]];
    const r = prng(mix(this.seed, i, 13));
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
    const functions: string[][] = [];
    const classes: FileMeta['classes'] = [];
    const units = 2 + Math.floor(r() * 4);
    for (let u = 0; u < units; u++) {
      if (lang === 'java' || r() < 0.4) {
        const methods: string[][] = [];
        const n = 1 + Math.floor(r() * 4);
        for (let k = 0; k < n; k++) methods.push([pick(VERBS), pick(ADJECTIVES), pick(NOUNS)].filter((_, j) => j !== 1 || r() < 0.3));
        classes.push({ words: [pick(NOUNS), pick(['service', 'store', 'builder', 'manager', 'handler', 'index', 'client', 'registry'])], methods });
      } else functions.push([pick(VERBS), ...(r() < 0.3 ? [pick(ADJECTIVES)] : []), pick(NOUNS)]);
    }
    if (lang === 'java' && classes.length > 1) {
      // one public class per file, named after the file
      classes.splice(1);
    }
    if (lang === 'java') classes[0].words = baseWords;
    const file = lang === 'java' || lang === 'go' ? pascal(baseWords) : lang === 'py' || lang === 'rs' ? snake(baseWords) : camel(baseWords);
    const relPath = `${this.dirPath(d)}/${lang === 'go' ? snake(baseWords) : file}${EXT[lang]}`;
    m = { index: i, dir: this.dirPath(d), lang, baseWords, relPath, functions, classes };
    if (this.cache.size > 4096) this.cache.clear();
    this.cache.set(i, m);
    return m;
  }

  /** Up to 3 earlier files of the same language (nearby directories first), to import from. */
  importsOf(i: number): FileMeta[] {
    const me = this.meta(i);
    const r = prng(mix(this.seed, i, 17));
    const out: FileMeta[] = [];
    const want = Math.floor(r() * 4);
    for (let tries = 0; tries < 20 && out.length < want && i > 0; tries++) {
      const j = Math.max(0, i - 1 - Math.floor(r() * Math.min(i, r() < 0.7 ? 60 : 3000)));
      const other = this.meta(j);
      if (other.lang === me.lang && !out.includes(other) && other.relPath !== me.relPath) out.push(other);
    }
    return out;
  }
}

/** Relative import specifier from one file to another (no extension), ES style. */
function relSpecifier(from: string, to: string): string {
  let rel = path.posix.relative(path.posix.dirname(from), to).replace(/\.[jt]s$/, '');
  if (!rel.startsWith('.')) rel = './' + rel;
  return rel;
}

class Writer {
  private lines: string[] = [];
  line(s = '', indent = 0): void {
    this.lines.push(' '.repeat(indent) + s);
  }
  text(): string {
    return this.lines.join('\n') + '\n';
  }
}

interface Callable {
  /** Expression prefix to call it from the importing file, e.g. `pricing.computeTax` or `computeTax`. */
  call: string;
}

function bodyStatements(lang: Lang, r: () => number, callees: Callable[], params: string[], indent: number, w: Writer): void {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const n = 3 + Math.floor(r() * 10);
  const locals: string[] = [...params];
  const decl = (name: string, expr: string) => {
    if (lang === 'ts' || lang === 'js') w.line(`const ${name} = ${expr};`, indent);
    else if (lang === 'py') w.line(`${name} = ${expr}`, indent);
    else if (lang === 'go') w.line(`${name} := ${expr}`, indent);
    else if (lang === 'java') w.line(`var ${name} = ${expr};`, indent);
    else w.line(`let ${name} = ${expr};`, indent);
  };
  for (let s = 0; s < n; s++) {
    const kind = r();
    const v = lang === 'py' || lang === 'rs' ? snake([pick(ADJECTIVES), pick(NOUNS)]) : camel([pick(ADJECTIVES), pick(NOUNS)]);
    const arg = locals.length ? pick(locals) : '0';
    if (kind < 0.35 && callees.length) {
      decl(v + s, `${pick(callees).call}(${arg})`);
      locals.push(v + s);
    } else if (kind < 0.55) {
      const cond = `${arg} ${pick(['>', '<', '==', '!='])} ${Math.floor(r() * 100)}`;
      if (lang === 'py') {
        w.line(`if ${cond}:`, indent);
        w.line(`return ${arg}`, indent + 4);
      } else {
        w.line(`if ${lang === 'go' || lang === 'rs' ? cond : `(${cond})`} {`, indent);
        w.line(`return ${arg}${lang === 'go' || lang === 'rs' ? '' : ';'}`, indent + 4);
        w.line('}', indent);
      }
    } else if (kind < 0.7) {
      const c = lang === 'py' ? '#' : '//';
      w.line(`${c} ${pick(DOC_PHRASES).replace('{n}', pick(NOUNS)).replace('{m}', pick(NOUNS)).replace('{k}', String(1 + Math.floor(r() * 64)))}`, indent);
    } else if (kind < 0.85) {
      const loopVar = lang === 'py' || lang === 'rs' ? `${pick(NOUNS)}_item` : `${pick(NOUNS)}Item`;
      if (lang === 'py') {
        w.line(`for ${loopVar} in ${arg}:`, indent);
        w.line(`${v}${s} = ${loopVar}`, indent + 4);
      } else if (lang === 'go') {
        w.line(`for _, ${loopVar} := range ${arg} {`, indent);
        w.line(`_ = ${loopVar}`, indent + 4);
        w.line('}', indent);
      } else if (lang === 'java') {
        w.line(`for (var ${loopVar} : ${arg}) {`, indent);
        w.line(`count += ${loopVar}.hashCode();`, indent + 4);
        w.line('}', indent);
      } else if (lang === 'rs') {
        w.line(`for ${loopVar} in ${arg}.iter() {`, indent);
        w.line(`let _ = ${loopVar};`, indent + 4);
        w.line('}', indent);
      } else {
        w.line(`for (const ${loopVar} of ${arg}) {`, indent);
        w.line(`total += ${loopVar}.${pick(NOUNS)}Count;`, indent + 4);
        w.line('}', indent);
      }
    } else {
      decl(v + s, `${arg}${lang === 'py' || lang === 'go' ? '' : ''} ${pick(['+', '*', '-'])} ${Math.floor(r() * 1000)}`);
      locals.push(v + s);
    }
  }
  const ret = locals.length ? locals[locals.length - 1] : '0';
  w.line(lang === 'py' ? `return ${ret}` : lang === 'go' || lang === 'rs' ? `return ${ret}` : `return ${ret};`, indent);
}

function docLines(r: () => number, style: 'jsdoc' | 'py' | 'line'): string[] {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const n = 1 + Math.floor(r() * 2);
  const phrases = Array.from({ length: n }, () => pick(DOC_PHRASES).replace('{n}', pick(NOUNS)).replace('{m}', pick(NOUNS)).replace('{k}', String(2 + Math.floor(r() * 100))));
  if (style === 'py') return ['"""' + phrases.join(' ') + '"""'];
  if (style === 'line') return phrases.map((p) => `// ${p}`);
  return ['/**', ...phrases.map((p) => ` * ${p}`), ' */'];
}

/** The text of source file `i`. */
export function renderFile(shape: RepoShape, i: number): string {
  const me = shape.meta(i);
  const r = prng(mix(shape.seed, i, 19));
  const w = new Writer();
  const callees: Callable[] = [];
  const lang = me.lang;
  const local = (ws: string[]) => (lang === 'py' || lang === 'rs' ? snake(ws) : lang === 'go' ? pascal(ws) : camel(ws));
  // Own functions are callable too (intra-file calls).
  for (const f of me.functions) callees.push({ call: local(f) });
  renderImports(me, shape.importsOf(i), w, callees);
  w.line();
  const params = paramNamesOf(r, lang);
  renderFunctions(me, r, params, callees, w);
  renderClasses(me, r, params, callees, w);
  return w.text();
}

/** 1 to 3 parameter names (list-like), deduplicated. */
function paramNamesOf(r: () => number, lang: Lang): () => string[] {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  return () => [...new Set(Array.from({ length: 1 + Math.floor(r() * 3) }, () => pick(NOUNS) + (lang === 'py' || lang === 'rs' ? '_list' : 'List')))];
}

/** The file's imports of `deps` in its language; what they make callable joins `callees`. */
function renderImports(me: FileMeta, deps: FileMeta[], w: Writer, callees: Callable[]): void {
  const lang = me.lang;
  if (lang === 'ts' || lang === 'js') {
    for (const d of deps) {
      const names = d.functions.map(camel);
      const cls = d.classes.map((c) => pascal(c.words));
      if (!names.length && !cls.length) continue;
      w.line(`import { ${[...new Set([...names, ...cls])].join(', ')} } from '${relSpecifier(me.relPath, d.relPath)}';`);
      callees.push(...names.map((n) => ({ call: n })));
      for (const c of d.classes) callees.push(...c.methods.map((m) => ({ call: `${pascal(c.words)}.${camel(m)}` })));
    }
  } else if (lang === 'py') {
    for (const d of deps) {
      const mod = d.relPath.replace(/\.py$/, '').replace(/\//g, '.');
      const names = [...new Set([...d.functions.map(snake), ...d.classes.map((c) => pascal(c.words))])];
      w.line(`from ${mod} import ${names.join(', ')}`);
      callees.push(...d.functions.map((f) => ({ call: snake(f) })));
    }
  } else if (lang === 'go') {
    w.line(`package ${path.posix.basename(me.dir).replace(/[^a-z0-9]/g, '')}`);
    w.line();
    const imports = [...new Set(deps.filter((d) => d.dir !== me.dir).map((d) => d.dir))];
    if (imports.length) {
      w.line('import (');
      for (const imp of imports) w.line(`"example.com/scale/${imp}"`, 4);
      w.line(')');
    }
    for (const d of deps) {
      const qual = d.dir === me.dir ? '' : path.posix.basename(d.dir).replace(/[^a-z0-9]/g, '') + '.';
      callees.push(...d.functions.map((f) => ({ call: qual + pascal(f) })));
    }
  } else if (lang === 'java') {
    w.line(`package ${me.dir.replace(/^java\//, '').replace(/\//g, '.')};`);
    w.line();
    for (const d of deps) {
      w.line(`import ${d.relPath.replace(/^java\//, '').replace(/\.java$/, '').replace(/\//g, '.')};`);
      for (const c of d.classes) callees.push(...c.methods.map((m) => ({ call: `${pascal(c.words)}.${camel(m)}` })));
    }
  } else {
    for (const d of deps) {
      const mod = d.relPath.replace(/^src\//, '').replace(/\.rs$/, '').replace(/\//g, '::');
      const names = d.functions.map(snake);
      if (names.length) w.line(`use crate::${mod}::{${names.join(', ')}};`);
      callees.push(...names.map((n) => ({ call: n })));
    }
  }
}

/** The file's free functions (Java has none: its functions are static methods of its classes). */
function renderFunctions(me: FileMeta, r: () => number, paramNames: () => string[], callees: Callable[], w: Writer): void {
  const lang = me.lang;
  for (const f of me.functions) {
    const ps = paramNames();
    if (lang === 'py') {
      w.line(`def ${snake(f)}(${ps.join(', ')}):`);
      for (const l of docLines(r, 'py')) w.line(l, 4);
      bodyStatements(lang, r, callees, ps, 4, w);
    } else if (lang === 'go') {
      for (const l of docLines(r, 'line')) w.line(l);
      w.line(`func ${pascal(f)}(${ps.map((p) => `${p} []int`).join(', ')}) int {`);
      bodyStatements(lang, r, callees, ps, 4, w);
      w.line('}');
    } else if (lang === 'rs') {
      for (const l of docLines(r, 'line')) w.line('/' + l);
      w.line(`pub fn ${snake(f)}(${ps.map((p) => `${p}: &[i64]`).join(', ')}) -> i64 {`);
      bodyStatements(lang, r, callees, ps, 4, w);
      w.line('}');
    } else if (lang === 'java') {
      // Java has no free functions: handled as static methods below.
    } else {
      for (const l of docLines(r, 'jsdoc')) w.line(l);
      const typed = lang === 'ts' ? ps.map((p) => `${p}: number[]`) : ps;
      w.line(`export function ${camel(f)}(${typed.join(', ')})${lang === 'ts' ? ': number' : ''} {`);
      w.line('let total = 0;', 2);
      bodyStatements(lang, r, callees, ps, 2, w);
      w.line('}');
    }
    w.line();
  }
}

/** The file's classes with their methods. */
function renderClasses(me: FileMeta, r: () => number, paramNames: () => string[], callees: Callable[], w: Writer): void {
  const lang = me.lang;
  for (const c of me.classes) {
    const cname = pascal(c.words);
    if (lang === 'py') {
      w.line(`class ${cname}:`);
      for (const l of docLines(r, 'py')) w.line(l, 4);
      w.line(`def __init__(self, capacity=${16 + Math.floor(r() * 256)}):`, 4);
      w.line('self.capacity = capacity', 8);
      w.line('self.entries = {}', 8);
      for (const m of c.methods) {
        const ps = paramNames();
        w.line();
        w.line(`def ${snake(m)}(self, ${ps.join(', ')}):`, 4);
        for (const l of docLines(r, 'py')) w.line(l, 8);
        bodyStatements(lang, r, callees, ps, 8, w);
      }
    } else if (lang === 'go') {
      for (const l of docLines(r, 'line')) w.line(l);
      w.line(`type ${cname} struct {`);
      w.line('Capacity int', 4);
      w.line('Entries  map[string]int', 4);
      w.line('}');
      for (const m of c.methods) {
        const ps = paramNames();
        w.line();
        for (const l of docLines(r, 'line')) w.line(l);
        w.line(`func (s *${cname}) ${pascal(m)}(${ps.map((p) => `${p} []int`).join(', ')}) int {`);
        bodyStatements(lang, r, callees, ps, 4, w);
        w.line('}');
      }
    } else if (lang === 'rs') {
      for (const l of docLines(r, 'line')) w.line('/' + l);
      w.line(`pub struct ${cname} {`);
      w.line('pub capacity: usize,', 4);
      w.line('}');
      w.line();
      w.line(`impl ${cname} {`);
      for (const m of c.methods) {
        const ps = paramNames();
        for (const l of docLines(r, 'line')) w.line('/' + l, 4);
        w.line(`pub fn ${snake(m)}(&self, ${ps.map((p) => `${p}: &[i64]`).join(', ')}) -> i64 {`, 4);
        bodyStatements(lang, r, callees, ps, 8, w);
        w.line('}', 4);
      }
      w.line('}');
    } else {
      const isJava = lang === 'java';
      for (const l of docLines(r, 'jsdoc')) w.line(l);
      w.line(`${isJava ? 'public ' : 'export '}class ${cname} {`);
      w.line(isJava ? `private final int capacity = ${16 + Math.floor(r() * 256)};` : `private readonly capacity = ${16 + Math.floor(r() * 256)};`.replace('private readonly ', lang === 'js' ? '' : 'private readonly '), 2);
      const methods = isJava ? [...c.methods, ...me.functions] : c.methods;
      for (const m of methods) {
        const ps = paramNames();
        w.line();
        for (const l of docLines(r, 'jsdoc')) w.line(l, 2);
        if (isJava) w.line(`public static int ${camel(m)}(${ps.map((p) => `java.util.List<Integer> ${p}`).join(', ')}) {`, 2);
        else w.line(`${lang === 'js' ? 'static ' : 'static '}${camel(m)}(${lang === 'ts' ? ps.map((p) => `${p}: number[]`).join(', ') : ps.join(', ')})${lang === 'ts' ? ': number' : ''} {`, 2);
        w.line(isJava ? 'int count = 0;' : 'let total = 0;', 4);
        bodyStatements(lang, r, callees, ps, 4, w);
        w.line('}', 2);
      }
      w.line('}');
    }
    w.line();
  }
}

/** `--gitignore-lines N` lines in the shapes of a big monorepo's .gitignore, none matching a generated file. */
function extraGitignore(opts: GenerateOptions): string {
  const shapes = [
    (i: number) => `/vendor/pkg${i}/dist/`, (i: number) => `*.cache${i}`, (i: number) => `**/tmp-out${i}/**`,
    (i: number) => `docs/build${i}/*.html`, (i: number) => `!keep-me${i}.txt`, (i: number) => `artifact-${i}-*.tar.gz`,
    (i: number) => `services/*/local${i}.json`,
  ];
  const lines = Array.from({ length: opts.gitignoreLines ?? 0 }, (_, i) => shapes[i % shapes.length](i));
  if (opts.hostileGitignore) lines.push('**/'.repeat(14) + 'zz', 'src/' + '**/'.repeat(12) + 'zz', '*a'.repeat(8) + '*b', '**/*e*e*e*e*e*e*x');
  return lines.map((l) => l + '\n').join('');
}

/** Writes the repository under `root` (created; must be empty or missing). */
export function generateRepo(root: string, opts: GenerateOptions = {}): GeneratedRepo {
  const files = opts.files ?? 100_000;
  const shape = new RepoShape(files, opts.seed ?? 1, opts.filesPerDir ?? 25);
  fs.mkdirSync(root, { recursive: true });
  const indexable: GeneratedRepo['indexable'] = [];
  const ignored: string[] = [];
  const madeDirs = new Set<string>();
  const write = (rel: string, text: string, index: boolean) => {
    const abs = path.join(root, rel);
    const dir = path.dirname(abs);
    if (!madeDirs.has(dir)) {
      fs.mkdirSync(dir, { recursive: true });
      madeDirs.add(dir);
    }
    fs.writeFileSync(abs, text);
    if (index) indexable.push({ relPath: rel, bytes: Buffer.byteLength(text) });
    else ignored.push(rel);
  };
  write('.gitignore', `# build output and local state\n*.log\ngenerated/\ntmp/\n${extraGitignore(opts)}`, true);
  write('README.md', `# scale-repo\n\nSynthetic repository of ${files} source files (seed ${shape.seed}) for RepoRecall's scale benchmark.\n`, true);
  for (let i = 0; i < files; i++) write(shape.meta(i).relPath, renderFile(shape, i), true);
  const r = prng(mix(shape.seed, 999));
  for (let d = 0; d < shape.dirs; d += 40) {
    const dir = shape.dirPath(d);
    write(`${dir}/README.md`, `# ${path.posix.basename(dir)}\n\n${DOC_PHRASES[d % DOC_PHRASES.length].replace('{n}', 'module').replace('{m}', 'caller').replace('{k}', '8')}\n`, true);
    write(`${dir}/settings.json`, JSON.stringify({ name: path.posix.basename(dir), retries: 1 + (d % 5), regions: ['eu', 'us'] }, null, 2) + '\n', true);
  }
  // What the scanner must skip: default-excluded dirs, .gitignore'd dirs and patterns.
  const ignoredCount = Math.max(10, Math.floor(files / 100));
  for (let k = 0; k < ignoredCount; k++) {
    const src = renderFile(shape, Math.floor(r() * files));
    const where = k % 4;
    if (where === 0) write(`node_modules/dep${k % 50}/index${k}.js`, src, false);
    else if (where === 1) write(`generated/gen${k}.ts`, src, false);
    else if (where === 2) write(`tmp/scratch${k}.py`, src, false);
    else write(`logs/run${k}.log`, `[info] run ${k} finished\n`, false);
  }
  const sourceBytes = indexable.reduce((s, f) => s + f.bytes, 0);
  return { root, indexable, ignored, sourceBytes };
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  const get = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const dir = get('dir');
  if (!dir) {
    console.error('usage: generate.js --dir DIR [--files N] [--seed S] [--gitignore-lines N] [--hostile-gitignore]');
    process.exit(2);
  }
  const t0 = Date.now();
  const repo = generateRepo(path.resolve(dir), { files: Number(get('files') ?? 100_000), seed: Number(get('seed') ?? 1), gitignoreLines: Number(get('gitignore-lines') ?? 0), hostileGitignore: argv.includes('--hostile-gitignore') });
  console.error(`${repo.indexable.length} indexable files (${(repo.sourceBytes / 1e6).toFixed(1)} MB), ${repo.ignored.length} to be skipped, in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  // The repository's description for the scale bench, which generates in a child process.
  if (argv.includes('--json')) console.log(JSON.stringify(repo));
}
