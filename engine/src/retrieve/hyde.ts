// Hypothetical-code expansion (HyDE, as DeepCodeSeek applies it to code): a language model's short
// guess at the next lines is a better query for what those lines need than the prefix is, because
// it names the functions the user is about to call. The guess comes from the caller (the
// extension asks a model under a strict per-keystroke budget; the benchmark can supply an oracle);
// here it becomes one more ranked list, `hyde`, fused with the original query's signals.
import { lexicalTerms } from '../lexical/tokenize';
import type { VectorIndex } from '../vector';
import type { Bm25Index } from '../lexical/bm25';
import { pathPrefix, type HypotheticalQuery } from './query';

export type { HypotheticalQuery };

/**
 * The lexical query of the guess: only what it adds to the window. The window's own terms are
 * searched by `bm25` already; repeating them here would only reinforce the documents the prefix
 * finds anyway, while the point of the guess is the names the prefix does not have yet.
 */
export function novelTerms(text: string, window: string): string[] {
  const seen = new Set(lexicalTerms(window));
  const all = lexicalTerms(text);
  const novel = all.filter((t) => !seen.has(t));
  return novel.length ? novel : all;
}

/** Longest hypothetical considered (characters): a few lines; a runaway answer says nothing more. */
export const MAX_HYPOTHETICAL_CHARS = 1000;

/**
 * The hypothetical as the index will search it, or undefined when the stage is off (weight 0) or
 * there is nothing to search. Embedded like the dense query: path prefix, then the code.
 */
export async function prepareHypothetical(
  text: string | undefined,
  weight: number,
  q: { file: string; window: string },
  embed: (text: string) => Promise<Float32Array | undefined>,
): Promise<HypotheticalQuery | undefined> {
  const code = text?.slice(0, MAX_HYPOTHETICAL_CHARS);
  if (!(weight > 0) || !code?.trim()) return undefined;
  return { text: code, terms: novelTerms(code, q.window), vector: await embed(`${pathPrefix(q.file)}\n${code}`) };
}

/**
 * The `hyde` signal's ranked ids: the hypothetical searched lexically and, when it has a vector,
 * densely; the two lists merged by plain RRF so either can bring a document up. `scores` holds the
 * lexical list's BM25 scores, for the fusion's score term (hybrid.ts).
 */
export function hydeList(
  index: { lexical: Bm25Index; vectors?: VectorIndex },
  h: HypotheticalQuery,
  depth: number,
  accept?: (id: number) => boolean,
): { ids: number[]; scores: Map<number, number> } {
  const lexical = index.lexical.search(h.terms, depth, accept);
  const scores = new Map(lexical.map((r) => [r.id, r.score]));
  const lists: number[][] = [lexical.map((r) => r.id)];
  if (h.vector && index.vectors && index.vectors.size > 0) {
    const found = index.vectors.search(h.vector, accept ? depth * 2 : depth);
    lists.push(found.map((r) => r.id).filter((id) => !accept || accept(id)).slice(0, depth));
  }
  if (lists.length === 1) return { ids: lists[0], scores };
  const fused = new Map<number, number>();
  for (const l of lists) l.forEach((id, i) => fused.set(id, (fused.get(id) ?? 0) + 1 / (60 + i)));
  return { ids: [...fused.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([id]) => id).slice(0, depth), scores };
}
