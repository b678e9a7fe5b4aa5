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
  private packages: { list: readonly string[]; byName: Map<string, string> } | undefined;

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
    for (const [name, dir] of this.workspacePackages()) {
      if (source === name) out.push(join(dir, 'src/index'), join(dir, 'index'));
      else if (source.startsWith(`${name}/`)) out.push(join(dir, source.slice(name.length + 1)), join(dir, `src/${source.slice(name.length + 1)}`));
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

  /** package.json `name` -> its directory, for every package.json of the repository (read again when the list changes). */
  private workspacePackages(): Map<string, string> {
    const manifests = this.src.packageManifests?.() ?? [];
    if (this.packages && this.packages.list === manifests) return this.packages.byName;
    const byName = new Map<string, string>();
    for (const f of manifests) {
      if (f.includes('node_modules/')) continue;
      const name = (parseJsonc(this.src.textOf(f) ?? '') as { name?: unknown } | undefined)?.name;
      if (typeof name === 'string' && !byName.has(name)) byName.set(name, dirOf(f));
    }
    this.packages = { list: manifests, byName };
    return byName;
  }
}
