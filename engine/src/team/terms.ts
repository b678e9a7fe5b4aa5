// The terms a chunk contributes to each lexical field of the team index: the same functions, on
// the same texts, as HybridIndex.add (retrieve/hybrid.ts) feeds its Bm25Index, so the team index's
// BM25 statistics (term frequencies, document lengths, document frequencies) equal a local index's.
import { normalizedTerms } from '../lexical/normalize';
import { lexicalTerms, termCounts } from '../lexical/tokenize';

/** Bm25Index keeps a term frequency in 16 bits. */
const MAX_TF = 65535;

export interface FieldTerms {
  lexical: Map<string, number>;
  lenLexical: number;
  normalized: Map<string, number>;
  lenNormalized: number;
}

export function fieldTermCounts(doc: { text: string; code: string }): FieldTerms {
  const lex = lexicalTerms(doc.text);
  const norm = normalizedTerms(doc.code);
  return { lexical: capped(termCounts(lex)), lenLexical: lex.length, normalized: capped(termCounts(norm)), lenNormalized: norm.length };
}

function capped(m: Map<string, number>): Map<string, number> {
  for (const [t, n] of m) if (n > MAX_TF) m.set(t, MAX_TF);
  return m;
}
