// The fusion's weights: one per signal (declared by the signal, registry.ts), the rerank's, the
// RRF constant and the score terms.
import { SIGNALS, type SignalName } from './registry';
import { RERANK_ABLATION_WEIGHT, RERANK_WEIGHT } from './rerank';
import type { OptionalField } from './signal';

/** Relative weight of each signal in the fusion; 0 turns a stage off. */
export type FusionWeights = Record<SignalName, number> & {
  /** Strength of the structural rerank (imports, same directory, recent files); rerank.ts. */
  rerank: number;
  /** RRF damping constant: smaller values favour the top of each list. */
  rrfK: number;
  /**
   * Score terms: ranks say only which candidate is ahead, not by how much, so a dense list that
   * agrees with BM25 gives all of BM25's top candidates nearly the same vote. Each of these adds
   * weight × the candidate's score relative to the list's best: BM25 score / the best BM25 score
   * (0 when the list did not retrieve it); for dense, cosine − the best cosine (the list's worst
   * cosine when it did not retrieve it). 0 turns a term off. Fitted with training/fit-fusion.py.
   */
  bm25Score: number;
  recentScore: number;
  denseScore: number;
};

/** Every stage an ablation can switch: the signals, then the rerank. */
export const STAGES = [...SIGNALS.map((s) => s.name), 'rerank'] as const;

/**
 * Stages that did not raise protocol A MRR@10 or protocol C new-identifier recall in the DEV
 * ablation stay off; bm25, recent, dense and the score terms are fitted for the shipped model by
 * training/fit-fusion.py on data that is neither training nor evaluation. Every value and the run
 * that chose it: PARAMS.md. A user-supplied model may prefer other weights: npm run fit-fusion.
 */
export const DEFAULT_WEIGHTS: FusionWeights = {
  ...(Object.fromEntries(SIGNALS.map((s) => [s.name, s.weight])) as Record<SignalName, number>),
  rerank: RERANK_WEIGHT, rrfK: 30,
  bm25Score: 0.067, recentScore: 0.024, denseScore: 0.095,
};

/** The default without the query stages: the core signals only (the baseline for stage ablations). */
export const CORE_WEIGHTS: FusionWeights = {
  ...DEFAULT_WEIGHTS,
  ...Object.fromEntries(SIGNALS.filter((s) => !s.core).map((s) => [s.name, 0])),
  rerank: 0,
};

/** The weight each non-core stage gets when an ablation turns it on alone (signals, then rerank). */
export const ABLATION_WEIGHTS: Partial<FusionWeights> = {
  ...Object.fromEntries(SIGNALS.flatMap((s) => (s.ablationWeight === undefined ? [] : [[s.name, s.ablationWeight]]))),
  rerank: RERANK_ABLATION_WEIGHT,
};

/** The core signals, in fusion order (ablations remove each in turn). */
export const CORE_SIGNALS: readonly SignalName[] = SIGNALS.filter((s) => s.core).map((s) => s.name);

/** The optional fields a weight set reads (a field is read by every signal that declares it). */
export function fieldsFor(w: Partial<FusionWeights>): Set<OptionalField> {
  const x: Record<string, number> = { ...DEFAULT_WEIGHTS, ...w };
  const out = new Set<OptionalField>();
  for (const s of SIGNALS) if (s.field && x[s.name] > 0) out.add(s.field);
  return out;
}
