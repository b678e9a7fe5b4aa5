// The context stage: ranked hits become what a request gets back, in the order a prompt reads it —
// the definitions of the names in play (definitionContext.ts), the lines after the analogous code
// (continuation.ts), the hits cut to the budget left (pack.ts), and with `declarationTokens` the
// declarations of the names in play before all of them (declarations.ts). Defaults: pack.ts.
import type { RetrieveOptions } from '../api';
import type { RankedHits } from '../retrieve/rankHits';
import type { RetrievedChunk } from '../types';
import { continuationChunks, DEFAULT_CONTINUATION } from './continuation';
import { declarationsFor, type DeclarationSource } from './declarations';
import { DEFINITION_SHARE } from './definitionContext';
import { namesOnScreen } from './excerpt';
import { packHits, packingFor, type PackingDefaults } from './pack';

/** What the stage reads of the index. */
export interface ContextSources {
  linesOf(file: string): string[];
  /** The resolved definitions of the names used near the cursor, within `budgetChars` (lookup/nameLookups.ts). */
  definitionsInPlay(budgetChars: number, seen: Set<string>): Promise<RetrievedChunk[]>;
  declarations(): DeclarationSource;
}

export async function assembleContext(ranked: RankedHits, opts: RetrieveOptions, tuned: PackingDefaults | undefined, sources: ContextSources): Promise<RetrievedChunk[]> {
  const { state, windowStart, hits } = ranked;
  const packing = packingFor(opts, tuned);
  // Context for a completion (asked with a budget): lines adding no name beyond the last lines and earlier chunks dropped (excerpt.ts).
  const seen = packing.freshNames ? namesOnScreen(state.prefix) : undefined;
  // The definitions of the names in play come first, out of their share of the budget (definitionContext.ts).
  const definitionTokens = opts.definitionTokens ?? (opts.budgetTokens === undefined ? 0 : Math.round(DEFINITION_SHARE * opts.budgetTokens));
  const defined = definitionTokens > 0 && !ranked.freeText ? await sources.definitionsInPlay(definitionTokens * 4, seen ?? namesOnScreen(state.prefix)) : [];
  // The lines after where the best hits resemble the cursor's last line, before the hits themselves (continuation.ts).
  const continued = packing.continuations > 0 && !ranked.freeText
    ? continuationChunks(hits, packing.continuations, sources.linesOf, { file: state.file, prefix: state.prefix, windowStart }, DEFAULT_CONTINUATION, seen)
    : [];
  const packed = packHits(hits, sources.linesOf, {
    k: opts.k ?? 10,
    // The continuations come out of the same budget (4 characters a token).
    budgetTokens: opts.budgetTokens === undefined ? undefined : Math.max(0, opts.budgetTokens - Math.ceil([...defined, ...continued].reduce((n, c) => n + c.text.length, 0) / 4)),
    packing: { maxLines: packing.maxLinesPerHit, compact: packing.compact, mode: opts.excerpt, seen },
    maxPerFile: packing.maxPerFile,
    novelty: packing.novelty,
    queryTerms: ranked.queryTerms,
    window: ranked.window,
  });
  const out = [...defined, ...continued, ...packed];
  // Declarations of the names in play, before the analogous code (declarations.ts).
  if (opts.declarationTokens) return [...declarationsFor(sources.declarations(), state, { budgetChars: opts.declarationTokens * 4 }), ...out];
  return out;
}
