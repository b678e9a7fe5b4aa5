// Non-relative ECMAScript imports that still name repository files: tsconfig.json (or
// jsconfig.json) `paths` and `baseUrl`, read JSONC-tolerant (comments, trailing commas) with one
// relative `extends` followed, and workspace packages by their package.json `name` (monorepos whose
// packages import each other by name). modules.ts expands each base path with the language's
// extensions and index files.
import * as path from 'path';

const posix = path.posix;
const CONFIGS = ['tsconfig.json', 'jsconfig.json'];

export interface ProjectSource {
  textOf(file: string): string | undefined;
  hasFile(file: string): boolean;
  /** The repository's package.json files (relative paths); without it workspace packages are not known. */
  packageManifests?(): readonly string[];
}

interface PathsConfig {
  /** Directory `paths` targets and `baseUrl` are relative to ('' for the root). */
  baseDir: string;
  hasBaseUrl: boolean;
  paths: Array<{ prefix: string; suffix: string; wildcard: boolean; targets: string[] }>;
}

/** JSON with comments and trailing commas, as tsconfig.json is written; undefined when still not JSON. */
export function parseJsonc(text: string): unknown {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end - 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else out += c;
  }
  try {
    return JSON.parse(out.replace(/,(\s*[}\]])/g, '$1'));
  } catch {
    return undefined;
  }
}

function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}

const dirOf = (file: string): string => (posix.dirname(file) === '.' ? '' : posix.dirname(file));
const join = (dir: string, rel: string): string => posix.normalize(dir ? posix.join(dir, rel) : rel).replace(/^\.\/?/, '').replace(/\/$/, '');

export class ProjectPaths {
  private readonly configs = new Map<string, { text: string; config: PathsConfig | undefined }>();
  private packages: { list: readonly string[]; byName: Map<string, { dir: string; manifest: Manifest }> } | undefined;

  constructor(private readonly src: ProjectSource) {}

  /** Repository paths (without extension) a bare specifier may name, most specific first. */
  bases(fromFile: string, source: string): string[] {
    const out: string[] = [];
    const config = this.nearestConfig(dirOf(fromFile));
    if (config) {
      for (const p of config.paths) {
        const matches = p.wildcard ? source.startsWith(p.prefix) && source.endsWith(p.suffix) && source.length >= p.prefix.length + p.suffix.length : source === p.prefix;
        if (!matches) continue;
        const star = p.wildcard ? source.slice(p.prefix.length, source.length - p.suffix.length) : '';
        for (const t of p.targets) out.push(join(config.baseDir, t.replace('*', star)));
      }
      if (config.hasBaseUrl) out.push(join(config.baseDir, source));
    }
    for (const [name, pkg] of this.workspacePackages()) {
      const sub = source === name ? '.' : source.startsWith(`${name}/`) ? `./${source.slice(name.length + 1)}` : undefined;
      if (!sub) continue;
      for (const entry of entryPaths(pkg.manifest, sub)) out.push(...sourcesOf(entry).map((e) => join(pkg.dir, e)));
      if (sub === '.') out.push(join(pkg.dir, 'src/index'), join(pkg.dir, 'index'));
      else out.push(join(pkg.dir, sub.slice(2)), join(pkg.dir, `src/${sub.slice(2)}`));
    }
    return out;
  }

  private nearestConfig(dir: string): PathsConfig | undefined {
    for (let d = dir; ; d = dirOf(d)) {
      for (const name of CONFIGS) {
        const file = d ? `${d}/${name}` : name;
        if (this.src.hasFile(file)) return this.config(file);
      }
      if (!d) return undefined;
    }
  }

  private config(file: string, depth = 0): PathsConfig | undefined {
    const text = this.src.textOf(file);
    if (text === undefined) return undefined;
    const hit = this.configs.get(file);
    if (hit && hit.text === text) return hit.config;
    const json = parseJsonc(text) as { extends?: unknown; compilerOptions?: { baseUrl?: unknown; paths?: unknown } } | undefined;
    const opts = json?.compilerOptions ?? {};
    const parent = typeof json?.extends === 'string' && json.extends.startsWith('.') && depth < 4 ? this.config(join(dirOf(file), json.extends.endsWith('.json') ? json.extends : `${json.extends}.json`), depth + 1) : undefined;
    const hasBaseUrl = typeof opts.baseUrl === 'string';
    const baseDir = hasBaseUrl ? join(dirOf(file), opts.baseUrl as string) : parent?.baseDir ?? dirOf(file);
    const paths: PathsConfig['paths'] = [];
    if (opts.paths && typeof opts.paths === 'object') {
      for (const [key, targets] of Object.entries(opts.paths as Record<string, unknown>)) {
        if (!Array.isArray(targets)) continue;
        const star = key.indexOf('*');
        paths.push({ prefix: star < 0 ? key : key.slice(0, star), suffix: star < 0 ? '' : key.slice(star + 1), wildcard: star >= 0, targets: targets.filter((t): t is string => typeof t === 'string') });
      }
    }
    const config = paths.length || hasBaseUrl ? { baseDir, hasBaseUrl, paths } : parent;
    this.configs.set(file, { text, config });
    return config;
  }

  /** package.json `name` -> its directory and manifest, for every package.json of the repository (read again when the list changes). */
  private workspacePackages(): Map<string, { dir: string; manifest: Manifest }> {
    const manifests = this.src.packageManifests?.() ?? [];
    if (this.packages && this.packages.list === manifests) return this.packages.byName;
    const byName = new Map<string, { dir: string; manifest: Manifest }>();
    for (const f of manifests) {
      if (f.includes('node_modules/')) continue;
      const manifest = parseJsonc(this.src.textOf(f) ?? '') as Manifest | undefined;
      if (typeof manifest?.name === 'string' && !byName.has(manifest.name)) byName.set(manifest.name, { dir: dirOf(f), manifest });
    }
    this.packages = { list: manifests, byName };
    return byName;
  }
}

interface Manifest {
  name?: unknown;
  exports?: unknown;
  types?: unknown;
  typings?: unknown;
  module?: unknown;
  main?: unknown;
}

/** Condition keys of `exports`, the ones naming source or types first (TypeScript's order: types, then import/default). */
const CONDITIONS = ['types', 'typings', 'source', 'import', 'module', 'default', 'require', 'node'];

/**
 * The files (relative to the package) a package's subpath (`.` or `./x`) names: its `exports` entry
 * (a string, conditions, nested conditions or a `./*` pattern), then for `.` its `types`, `typings`,
 * `module` and `main` fields, as Node and TypeScript read them.
 */
export function entryPaths(manifest: Manifest, sub: string): string[] {
  const out: string[] = [];
  const add = (v: unknown, star = '') => {
    if (typeof v === 'string') out.push(v.replace('*', star));
    else if (Array.isArray(v)) v.forEach((x) => add(x, star));
    else if (v && typeof v === 'object') for (const c of CONDITIONS) add((v as Record<string, unknown>)[c], star);
  };
  const exp = manifest.exports;
  if (typeof exp === 'string' || Array.isArray(exp)) {
    if (sub === '.') add(exp);
  } else if (exp && typeof exp === 'object') {
    const map = exp as Record<string, unknown>;
    // Keys are subpaths (`.`, `./x`, `./*`), or the object is the `.` entry's conditions.
    if (!Object.keys(map).some((k) => k.startsWith('.'))) {
      if (sub === '.') add(map);
    } else if (map[sub] !== undefined) add(map[sub]);
    else {
      for (const [k, v] of Object.entries(map)) {
        const star = k.indexOf('*');
        if (star >= 0 && sub.startsWith(k.slice(0, star)) && sub.endsWith(k.slice(star + 1))) add(v, sub.slice(star, sub.length - (k.length - star - 1)));
      }
    }
  }
  if (sub === '.') for (const f of [manifest.types, manifest.typings, manifest.module, manifest.main]) add(f);
  return out;
}

/** An entry as written, then, for a build output (`dist/`, `lib/`, `build/`, `out/`, `esm/`, `cjs/`) the repository may lack, the same path under `src/`; `.d.ts` dropped. */
export function sourcesOf(entry: string): string[] {
  const written = posix.normalize(entry).replace(/^\.\//, '').replace(/\.d\.[mc]?ts$/, '');
  const built = /^(?:(?:dist|lib|build|out)(?:\/(?:esm|cjs|es|types|src))?|esm|cjs)\/(.+)$/.exec(written);
  return built ? [written, `src/${built[1]}`] : [written];
}
