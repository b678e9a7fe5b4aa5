// Reads the import graph of a TypeScript source tree from the files' text (every `import`,
// `export … from`, `import(…)` and `require(…)` with a relative specifier, type-only imports
// included: a type cycle is still two modules that cannot be read one without the other).
// Used by imports.test.ts; plain Node, so a fixture tree can prove that it finds what it should.
import * as fs from 'fs';
import * as path from 'path';

const SPECIFIER = /(?:\bimport\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?|\bexport\s+(?:type\s+)?(?:\*|\{[^}]*\})\s*(?:as\s+\w+\s+)?from\s+|\bimport\s*\(\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;

/** Every `.ts` file under `dir`, absolute. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out.sort();
}

/** The module specifiers a source text imports (comments removed first). */
export function specifiers(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
  return [...code.matchAll(SPECIFIER)].map((m) => m[1]);
}

/** A relative specifier resolved to a file of the tree (`x.ts` or `x/index.ts`), else undefined. */
function resolve(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), spec);
  for (const c of [`${base}.ts`, path.join(base, 'index.ts'), base]) if (fs.existsSync(c) && fs.statSync(c).isFile()) return c;
  return undefined;
}

export interface ImportGraph {
  /** file -> the tree's files it imports */
  edges: Map<string, string[]>;
  /** file -> every specifier it imports (bare ones too, e.g. `vscode`) */
  specs: Map<string, string[]>;
}

export function importGraph(files: string[]): ImportGraph {
  const edges = new Map<string, string[]>();
  const specs = new Map<string, string[]>();
  for (const f of files) {
    const s = specifiers(fs.readFileSync(f, 'utf8'));
    specs.set(f, s);
    edges.set(f, [...new Set(s.map((x) => resolve(f, x)).filter((x): x is string => x !== undefined))]);
  }
  return { edges, specs };
}

/**
 * The cycles of a graph, one per strongly connected component of more than one node (or a node
 * importing itself), each as the path around it: [a, b, ..., a]. Tarjan's algorithm.
 */
export function cycles(edges: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (edges.get(v) ?? []).includes(v)) components.push(comp);
    }
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return components.map((comp) => pathAround(comp, edges));
}

/** A closed path through the component, from its first file in sort order back to it. */
function pathAround(comp: string[], edges: Map<string, string[]>): string[] {
  const inComp = new Set(comp);
  const start = [...comp].sort()[0];
  // Breadth-first from start's successors back to start: the shortest cycle through start.
  const prev = new Map<string, string>();
  const queue = (edges.get(start) ?? []).filter((w) => inComp.has(w));
  for (const w of queue) prev.set(w, start);
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i];
    if (v === start) break;
    for (const w of edges.get(v) ?? []) {
      if (!inComp.has(w) || prev.has(w)) continue;
      prev.set(w, v);
      queue.push(w);
    }
  }
  const out = [start];
  for (let v = prev.get(start)!; v !== start; v = prev.get(v)!) out.unshift(v);
  out.unshift(start);
  return out;
}

/**
 * The graph between the top-level folders under `root` (a subfolder counts as its top-level
 * folder): `a -> b` when a file in a imports one in b. Files directly in `root` are left out
 * unless `rootFiles`, when each is a node of its own, named by its file name: there the engine
 * keeps both its shared vocabulary (types.ts, api.ts) and its facade (engine.ts, cli.ts).
 */
export function folderGraph(edges: Map<string, string[]>, root: string, rootFiles = false): Map<string, string[]> {
  const folder = (f: string) => {
    const rel = path.relative(root, f);
    if (rel.startsWith('..')) return undefined;
    if (!rel.includes(path.sep)) return rootFiles ? rel : undefined;
    return rel.split(path.sep)[0];
  };
  const out = new Map<string, Set<string>>();
  for (const [f, ws] of edges) {
    const a = folder(f);
    if (a === undefined) continue;
    if (!out.has(a)) out.set(a, new Set());
    for (const w of ws) {
      const b = folder(w);
      if (b !== undefined && b !== a) out.get(a)!.add(b);
    }
  }
  return new Map([...out].map(([k, v]) => [k, [...v].sort()]));
}

/**
 * The edges of a folder graph that do not go down a declared layering (layers listed bottom
 * first; a node may import only nodes of lower layers), as `a -> b`, and the nodes in no layer.
 */
export function layerViolations(graph: Map<string, string[]>, layers: readonly (readonly string[])[]): string[] {
  const layerOf = new Map(layers.flatMap((nodes, i) => nodes.map((n) => [n, i] as const)));
  const out: string[] = [];
  for (const node of [...new Set([...graph.keys(), ...[...graph.values()].flat()])].sort()) if (!layerOf.has(node)) out.push(`${node}: in no layer`);
  for (const [a, bs] of [...graph].sort(([x], [y]) => x.localeCompare(y))) {
    for (const b of bs) if (layerOf.has(a) && layerOf.has(b) && layerOf.get(b)! >= layerOf.get(a)!) out.push(`${a} -> ${b}`);
  }
  return out;
}
