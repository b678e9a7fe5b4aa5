// Searches of a throwaway index (merged base, unmerged and deleted documents) at open, so the first
// query after the first edit runs optimised code (docs/investigations/first-edit-query-wait.md).
import { HybridIndex } from './hybrid';
import type { RetrievalQuery } from './query';

const VERBS = ['load', 'parse', 'render', 'resolve', 'update', 'count', 'merge'];
const NOUNS = ['user', 'order', 'cache', 'token', 'route', 'packet', 'budget', 'ledger', 'schema', 'buffer', 'client'];
/** Documents merged into the throwaway index's base, then added after the merge, then removed from the base. */
const BASE_DOCS = 48;
const LATER_DOCS = 8;
const REMOVED_DOCS = 4;
/** Enough calls for V8 to optimise the search with the new feedback (a few ms in all). */
export const WARM_SEARCHES = 300;
const SEARCHES_PER_TURN = 25;

function code(i: number): string {
  const v = (k: number) => VERBS[k % VERBS.length], n = (k: number) => NOUNS[k % NOUNS.length];
  return `export function ${v(i)}${n(i)}(${n(i * 3)}: ${n(i * 7)}) {\n  const ${n(i + 1)} = ${v(i + 2)}${n(i * 5)}(${n(i * 3)});\n  return ${n(i + 1)}.${v(i + 4)}(${i});\n}`;
}

function unitVector(dim: number, seed: number): Float32Array {
  const v = new Float32Array(dim);
  for (let d = 0; d < dim; d++) v[d] = Math.sin(seed * 31 + d * 7);
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

export interface WarmSearchReport {
  searches: number;
  /** Hits the searches returned in all (documents of the unmerged segment among them). */
  hits: number;
  fromUnmerged: number;
  /** What the throwaway index held: documents added after its base was merged, and live documents. */
  unmergedDocs: number;
  liveDocs: number;
}

/**
 * Runs WARM_SEARCHES searches, with every signal `like` has, over a throwaway index holding a
 * merged base, unmerged documents and base documents removed. `query` builds a query from an
 * editor prefix as retrieval does; `breathe` lets requests that arrive meanwhile go first.
 */
export async function warmSearchPaths(like: HybridIndex, query: (prefix: string) => RetrievalQuery, breathe: () => Promise<void>): Promise<WarmSearchReport> {
  const dim = like.vectors?.dim;
  const index = new HybridIndex(dim ? { dim, modelId: 'warm-up' } : undefined, undefined, undefined, like.fields);
  try {
    const add = (i: number) => {
      const text = code(i);
      index.add({ id: i, file: `src/${NOUNS[i % NOUNS.length]}.ts`, startLine: i * 5, endLine: i * 5 + 3, kind: 'function', name: `${VERBS[i % VERBS.length]}${NOUNS[i % NOUNS.length]}`, defines: [], indexText: text, code: text, vector: dim ? unitVector(dim, i) : undefined });
    };
    for (let i = 0; i < BASE_DOCS; i++) add(i);
    const fields = index.lexicalFields;
    for (const field of fields) field.compact();
    for (let i = BASE_DOCS; i < BASE_DOCS + LATER_DOCS; i++) add(i);
    for (let i = 0; i < REMOVED_DOCS; i++) index.remove(i * 3);
    let hits = 0, fromUnmerged = 0;
    const budget = index.lexical.maxQueryPostings;
    for (let s = 0; s < WARM_SEARCHES; s++) {
      if (s % SEARCHES_PER_TURN === 0) await breathe();
      // Every other search over the postings budget, so its cut runs too (a real query's first cut deoptimised the search).
      for (const f of fields) f.maxQueryPostings = s % 2 ? 1 : budget;
      const q = query(`${code(s)}\n${code(s + 1).split('\n').slice(0, 2).join('\n')}`);
      for (const h of index.search(q, dim ? unitVector(dim, s + 1000) : undefined, { k: 10, accept: (id) => index.docs.existsOutside(id, -1, 0, 0) })) {
        hits++;
        if (h.id >= BASE_DOCS) fromUnmerged++;
      }
    }
    return { searches: WARM_SEARCHES, hits, fromUnmerged, unmergedDocs: index.lexical.pendingDocs, liveDocs: index.size };
  } finally {
    index.close();
  }
}
