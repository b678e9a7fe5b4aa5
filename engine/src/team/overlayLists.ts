// The overlay's lists (team/overlay.ts): each signal's list from the local index, restricted to the
// files the user changed, merged with the team's list of the same signal (which left those files
// out), then fused by the engine's fusion in registry order. Scored lists merge by score (BM25 over
// statistics of nearly the same corpus; the same cosines), ties to the local side; the symbol list
// has no scores and lists the changed files' definers first. With no changed file the local lists
// are empty and the ranking is exactly teamRetrieve's (team.overlay.test.ts).
import type { HybridIndex, Hit } from '../retrieve/hybrid';
import { symbol } from '../retrieve/signals/symbol';
import { dense } from '../retrieve/signals/dense';
import { scoredList, type SignalContext } from '../retrieve/signal';
import { fuse, type FusionInput } from '../retrieve/fusion';
import type { RetrievalQuery } from '../retrieve/query';
import { SIGNALS } from '../retrieve/registry';
import type { FusionWeights } from '../retrieve/weights';
import type { TeamListRequest, TeamLists } from './reader';

/** Team chunk ids are shifted by this in the fused lists, so they never meet a local id. */
export const TEAM_ID_BASE = 2 ** 40;
const DEPTH = 100;

interface Scored {
  ids: number[];
  scores?: Map<number, number>;
}

/** The local index's lists for the overlay's documents (`accept`), as the signals build them. */
export function localLists(index: HybridIndex, q: RetrievalQuery, vec: Float32Array | undefined, lexical: TeamListRequest[], w: FusionWeights, accept: (id: number) => boolean): Map<string, Scored> {
  const out = new Map<string, Scored>();
  // Lexical lists keep their scores for every field (merged with the team's by score) and use the
  // terms sent to the team, so both sides search the same terms.
  for (const l of lexical) {
    if (l.field === 'normalized' && !index.fields.has('normalized')) continue;
    out.set(l.name, scoredList((l.field === 'lexical' ? index.lexical : index.normalized).search(l.terms, DEPTH, accept)));
  }
  // The dense and symbol lists are the signals' own, over the overlay's documents.
  const ctx: SignalContext = {
    index, q, qVec: vec, weights: w, depth: DEPTH, accept,
    chainable: () => false,
    values: new Map(),
    shared: (_key, make) => make(),
  };
  for (const sig of [dense, symbol]) {
    if (!(w[sig.name] > 0)) continue;
    const list = sig.rank(ctx);
    if (list) out.set(sig.name, list);
  }
  return out;
}

/** Two lists best first, by score (ties: the local side, then the lower id), cut to the depth. */
function mergeScored(local: Scored | undefined, team: Scored): Scored {
  const scores = new Map(team.scores);
  for (const [id, x] of local?.scores ?? []) scores.set(id, x);
  if (!local?.ids.length) return { ids: team.ids.slice(0, DEPTH), scores };
  const ids: number[] = [];
  let i = 0;
  let j = 0;
  while (ids.length < DEPTH && (i < local.ids.length || j < team.ids.length)) {
    const a = local.ids[i];
    const b = team.ids[j];
    if (b === undefined || (a !== undefined && scores.get(a)! >= scores.get(b)!)) ids.push(local.ids[i++]);
    else ids.push(team.ids[j++]);
  }
  return { ids, scores };
}

/** The fused top k, local ids as they are and team ids shifted by TEAM_ID_BASE; team hits carry no place yet. */
export function mergeAndFuse(local: Map<string, Scored>, team: TeamLists, w: FusionWeights, k: number, index: HybridIndex): Hit[] {
  const lists: FusionInput[] = [];
  const weights: Record<string, number> = w as unknown as Record<string, number>;
  const values = new Map<string, Map<number, number>>();
  for (const sig of SIGNALS) {
    const weight = weights[sig.name];
    if (!(weight > 0)) continue;
    const t = team.lists.get(sig.name);
    const l = local.get(sig.name);
    if (!t && !l?.ids.length) continue;
    const shift = (ids: number[]) => ids.map((id) => id + TEAM_ID_BASE);
    const tScores = team.values.get(sig.name);
    const teamList: Scored = { ids: shift(t ?? []), scores: tScores && new Map([...tScores].map(([id, x]) => [id + TEAM_ID_BASE, x])) };
    let merged: Scored;
    if (teamList.scores || l?.scores) merged = mergeScored(l, teamList);
    else merged = { ids: [...new Set([...(l?.ids ?? []), ...teamList.ids])].slice(0, DEPTH) };
    if (merged.scores && (sig.name === 'bm25' || sig.name === 'recent' || sig.name === 'dense')) values.set(sig.name, merged.scores);
    lists.push({ ids: merged.ids, scores: merged.scores, name: sig.name, weight, scoreTerm: sig.scoreTerm && { weight: sig.scoreTerm.weight(w), relative: sig.scoreTerm.relative } });
  }
  const fused = fuse(lists, w.rrfK);
  const scored = [...fused].map(([id, e]) => ({ id, score: e.score, signals: e.signals }));
  scored.sort((a, b) => b.score - a.score || a.id - b.id);
  return scored.slice(0, k).flatMap((h) => {
    const v: Record<string, number> = {};
    for (const [name, m] of values) {
      const x = m.get(h.id);
      if (x !== undefined) v[name] = x;
    }
    if (h.id < TEAM_ID_BASE) {
      const d = index.docs.get(h.id);
      return d ? [{ ...d, score: h.score, signals: h.signals, values: v }] : [];
    }
    return [{ id: h.id, file: '', startLine: 0, endLine: 0, kind: 'function', defines: [], score: h.score, signals: h.signals, values: v }];
  });
}
