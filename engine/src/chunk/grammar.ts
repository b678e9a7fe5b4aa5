// Loads the tree-sitter runtime and, lazily, one grammar per language: its Language, a Parser
// (reused for every file of that language) and its compiled query.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Parser, Query } from 'web-tree-sitter';
import type { GrammarName } from './languages';

export interface LoadedGrammar {
  name: GrammarName;
  parser: Parser;
  query: Query;
  /** The grammar's `locals` query (scopes and local definitions, queries/locals/NAME.scm), where one is shipped. */
  locals?: Query;
}

/**
 * Finds `grammars/` (holding wasm/ and queries/) by walking up from this file: it sits at the
 * package root, which is 4 levels above out/engine/src/chunk/ and 1 above a bundled dist/.
 */
export function defaultGrammarDir(): string | undefined {
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'grammars');
    if (existsSync(join(candidate, 'wasm', 'tree-sitter.wasm'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return undefined;
}

type TreeSitter = typeof import('web-tree-sitter');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- reassigned by reloadTreeSitter, so not an import binding
let treeSitter: TreeSitter = require('web-tree-sitter');
let runtimeReady: Promise<void> | undefined;

/**
 * web-tree-sitter keeps its wasm instance in module state; after a trap the only way to a
 * working instance is a fresh copy of the module (works where `require.cache` exists, i.e.
 * unbundled; in a bundle the old, broken instance stays and its files are windowed).
 */
function reloadTreeSitter(): void {
  const id = require.resolve('web-tree-sitter');
  if (require.cache[id]) {
    delete require.cache[id];
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh copy after the cache entry is dropped
    treeSitter = require(id) as TreeSitter;
  }
}

/** The runtime is process-global in web-tree-sitter; it is initialised once, from `wasmDir`. */
function initRuntime(wasmDir: string): Promise<void> {
  runtimeReady ??= treeSitter.Parser.init({
    locateFile: (file: string) => join(wasmDir, file),
  }).catch((err: unknown) => {
    runtimeReady = undefined; // allow a retry with another directory
    throw err;
  });
  return runtimeReady;
}

export class GrammarLoader {
  private readonly loading = new Map<GrammarName, Promise<LoadedGrammar | undefined>>();
  /** Grammars that failed to load, with the reason (their files fall back to line windows). */
  readonly errors = new Map<GrammarName, string>();

  private constructor(readonly grammarDir: string) {}

  static async create(grammarDir: string): Promise<GrammarLoader> {
    const runtime = join(grammarDir, 'wasm', 'tree-sitter.wasm');
    if (!existsSync(runtime)) {
      throw new Error(`tree-sitter runtime not found at ${runtime}; run \`npm run grammars\` to copy the grammar files`);
    }
    await initRuntime(join(grammarDir, 'wasm'));
    return new GrammarLoader(grammarDir);
  }

  /** The loaded grammar, or undefined when it cannot be loaded (reason in `errors`). */
  get(name: GrammarName): Promise<LoadedGrammar | undefined> {
    let pending = this.loading.get(name);
    if (!pending) {
      pending = this.load(name).catch((err: unknown) => {
        this.errors.set(name, err instanceof Error ? err.message : String(err));
        return undefined;
      });
      this.loading.set(name, pending);
    }
    return pending;
  }

  private async load(name: GrammarName): Promise<LoadedGrammar> {
    const { Language, Parser, Query } = treeSitter;
    const language = await Language.load(join(this.grammarDir, 'wasm', `tree-sitter-${name}.wasm`));
    const query = new Query(language, this.querySource(name));
    const localsFile = join(this.grammarDir, 'queries', 'locals', `${name}.scm`);
    const locals = existsSync(localsFile) ? new Query(language, this.querySource(name, new Set(), 'queries/locals')) : undefined;
    const parser = new Parser();
    parser.setLanguage(language);
    return { name, parser, query, ...(locals ? { locals } : {}) };
  }

  /**
   * A grammar's query text. A first line `; inherits: other` puts `other`'s query in front (TSX
   * extends TypeScript with JSX), so shared patterns are written once.
   */
  private querySource(name: string, seen = new Set<string>(), dir = 'queries'): string {
    if (seen.has(name)) throw new Error(`query inheritance loop at ${name}.scm`);
    seen.add(name);
    const source = readFileSync(join(this.grammarDir, dir, `${name}.scm`), 'utf8');
    const parent = /^; inherits: ([\w-]+)/.exec(source)?.[1];
    return parent ? `${this.querySource(parent, seen, dir)}\n${source}` : source;
  }

  /**
   * Re-initialises the runtime after a wasm trap corrupted it. Objects of the old instance are
   * dropped, not deleted (deleting would touch the corrupted heap); grammars reload on next use.
   */
  async restart(): Promise<void> {
    this.loading.clear();
    runtimeReady = undefined;
    reloadTreeSitter();
    await initRuntime(join(this.grammarDir, 'wasm'));
  }

  /** Frees the wasm-side parsers and queries. */
  async dispose(): Promise<void> {
    for (const pending of this.loading.values()) {
      const grammar = await pending;
      grammar?.parser.delete();
      grammar?.query.delete();
      grammar?.locals?.delete();
    }
    this.loading.clear();
  }
}
