// Which repository file an import specifier names, the way the language finds it: TypeScript and
// ES path forms (`./utils.js` naming utils.ts, `./dir` naming dir/index.ts; bare specifiers through
// tsconfig paths and workspace packages, projects.ts) and Python modules
// (packages, `__init__.py`, relative imports with leading dots, absolute imports from the
// repository root or an enclosing directory, as scripts run from their folder import). Other package
// names (`react`, `torch`) name no repository file: the import is external.
import * as path from 'path';

const posix = path.posix;
const ECMA_EXTS = ['.ts', '.tsx', '.d.ts', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const JS_TO_TS: Record<string, string[]> = { '.js': ['.ts', '.tsx'], '.jsx': ['.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'] };

/** The file `source`, imported from `fromFile`, names; undefined when it names none of the repository's. */
export function moduleFile(fromFile: string, source: string, python: boolean, hasFile: (f: string) => boolean, bareBases?: (fromFile: string, source: string) => string[]): string | undefined {
  if (python) return pythonCandidates(fromFile, source).find(hasFile);
  // A bare specifier (`@org/pkg`, `~/lib`) names a repository file only through tsconfig paths or a workspace package.
  const bases = source.startsWith('.') ? [posix.normalize(posix.join(posix.dirname(fromFile), source))] : bareBases?.(fromFile, source) ?? [];
  for (const base of bases) {
    const found = ecmaCandidates(base).find(hasFile);
    if (found) return found;
  }
  return undefined;
}

function ecmaCandidates(base: string): string[] {
  const out: string[] = [];
  const ext = posix.extname(base);
  if (JS_TO_TS[ext]) {
    const stem = base.slice(0, -ext.length);
    for (const e of JS_TO_TS[ext]) out.push(stem + e);
  }
  if (ext) out.push(base);
  for (const e of ECMA_EXTS) out.push(base + e);
  for (const e of ECMA_EXTS) out.push(`${base}/index${e}`);
  return out;
}

function pythonCandidates(fromFile: string, source: string): string[] {
  const dots = /^\.*/.exec(source)![0].length;
  const rest = source.slice(dots).split('.').filter(Boolean).join('/');
  const roots: string[] = [];
  if (dots > 0) {
    let dir = posix.dirname(fromFile);
    for (let i = 1; i < dots; i++) dir = posix.dirname(dir);
    roots.push(dir === '.' ? '' : dir);
  } else {
    // The repository root first, then `src/`, then the directories above the file (scripts).
    roots.push('', 'src');
    for (let dir = posix.dirname(fromFile); dir !== '.' && dir !== '/'; dir = posix.dirname(dir)) roots.push(dir);
  }
  const out: string[] = [];
  for (const r of roots) {
    const p = rest ? (r ? `${r}/${rest}` : rest) : r;
    if (!p) continue;
    out.push(`${p}.py`, `${p}/__init__.py`, `${p}.pyi`, `${p}/__init__.pyi`);
  }
  return out;
}

/** Python: the submodule `name` of the package whose `__init__.py` is `initFile`. */
export function pythonSubmodule(initFile: string, name: string, hasFile: (f: string) => boolean): string | undefined {
  if (!/__init__\.pyi?$/.test(initFile)) return undefined;
  const dir = posix.dirname(initFile);
  const p = dir === '.' ? name : `${dir}/${name}`;
  return [`${p}.py`, `${p}/__init__.py`, `${p}.pyi`].find(hasFile);
}
