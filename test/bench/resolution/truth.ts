// Protocol R's ground truth, as the language services give it (truthTs.ts, truthPython.ts), and the
// class each occurrence falls in: `repo` (a definition in the repository the hover should show),
// `local` (bound in a function: the language's own hover has it), `external` (a library name, a
// builtin, an import the service could not follow), or `self` (the occurrence is itself the
// definition: not a reference, left out).
import type { Node } from 'web-tree-sitter';
import type { Chunker } from '../../../engine/src/chunk';
import type { Repo } from '../split';
import type { Occurrence } from './sample';

export interface TruthDef {
  file: string;
  /** The definition's name (0-based line and column). */
  line: number;
  column: number;
  /** `import`: the service stopped at an import it could not follow. */
  scope: 'module' | 'member' | 'local' | 'import';
}

export interface Truth {
  occurrence: Occurrence;
  /** The service's definitions inside the repository. */
  defs: TruthDef[];
  /** The service found no definition, or one outside the repository. */
  external: boolean;
  /** clangd gave no location at all (no definition, no declaration): the sample has no ground truth. */
  unanswered?: boolean;
  /** clangd: error diagnostics in the occurrence's file under the bench's flags (-1: none published). */
  compileErrors?: number;
  /** C++: every location clangd gave names another name (truthClang.ts spelledTruth): no ground truth. */
  respelled?: boolean;
}

export type TruthClass = 'repo' | 'local' | 'external' | 'self' | 'no-truth';

export function classify(t: Truth): TruthClass {
  const o = t.occurrence;
  if (t.unanswered) return 'no-truth';
  if (t.defs.some((d) => d.file === o.file && d.line === o.line && d.column === o.column)) return o.syntax === 'import' ? 'external' : 'self';
  const real = t.defs.filter((d) => d.scope !== 'import');
  if (real.some((d) => d.scope === 'module' || d.scope === 'member')) return 'repo';
  if (real.length) return 'local';
  return 'external';
}

/** Where the name at a definition position sits, read from its file's syntax tree by the language's own rule. */
export async function scopeAt(repo: Repo, chunker: Chunker, file: string, line: number, column: number, scopeOfName: (name: Node) => TruthDef['scope']): Promise<TruthDef['scope']> {
  const content = repo.byPath.get(file)!.content;
  const grammar = await chunker.grammarFor(file, content);
  const tree = grammar?.parser.parse(content);
  if (!tree) return 'module';
  try {
    const name = tree.rootNode.descendantForPosition({ row: line, column });
    return name ? scopeOfName(name) : 'module';
  } finally {
    tree.delete();
  }
}
