// Ranking the candidate continuations and deciding whether to offer the best one. Matches are
// grouped by their (adapted) first line; each group is scored on what makes a continuation likely:
// how specific the matched context is (evidence), how many lines of it matched (depth), how many
// places agree (votes, share), whether the line before it matched exactly or only resembles the
// user's, and whether the names it uses exist in the user's file (a continuation calling names the
// file has never mentioned is rarely what comes next). Each group also gets a calibrated probability
// that its first line is right (a logistic model over its features and its share of the ranking);
// a continuation found only by resemblance is offered when that reaches MIN_RESEMBLING_CONFIDENCE.
// RANK was fitted on the validation split of held-out projects (training/README.md, "Validation split");
// CONF was refitted with RANK kept (fit-rank.py --conf-only) on the same projects' tasks chosen with the
// benchmark's own rules (make-repoeval-split.cjs), whose precision matches DEV's. Never on the benchmark.
import type { Match, UserContext } from './align';
import { isName, tokensOf } from './lines';
import { adapt } from './render';

/**
 * Confidence a continuation found only by resemblance needs (exact matches need evidence only).
 * Protocol E: at 0.3 resembling matches add line EM and API ES without lowering precision when
 * offered on DEV or on the held-out projects; at 0 precision fell by 0.09 (DEV) and 0.12 (held-out).
 */
export const MIN_RESEMBLING_CONFIDENCE = 0.3;
/** A name's IDF counts at most this much when it is missing from the user's file. */
const MAX_NAME_IDF = 8;

/** Ranking weights (conditional logit over a task's groups). */
const RANK = { evidence: 0.26, votes: 0.43, depth: 0.81, share: 1.81, missing: -2.57, resembling: -0.44 };
/** Confidence weights (logistic regression on the best group's features). */
const CONF = { bias: -1.27, evidence: 0.59, votes: 0.31, share: -0.48, p: 0.23, depth: 0.32, resembling: -1.37, groups: -0.42, missing: -0.39 };

export interface Group {
  first: string;
  /** Best evidence among the members. */
  evidence: number;
  /** Places that continue the user's lines with this first line. */
  votes: number;
  /** Most context lines any member matched. */
  depth: number;
  /** Every member matched the line before it only by resemblance. */
  resembling: boolean;
  /** Summed IDF (each capped) of the first line's names that the user's file never mentions. */
  missing: number;
  members: Match[];
  /** Ranking score, probability among the groups, and the confidence of offering it. */
  score: number;
  p: number;
  confidence: number;
}

/** Groups the matches by adapted first line (a place read twice counts once). */
export function groupMatches(matches: Match[], user: UserContext, idf: (t: string) => number, userText: string): Group[] {
  const groups = new Map<string, Group>();
  const seen = new Set<string>();
  const known = new Set(tokensOf(userText).filter(isName));
  for (const m of matches) {
    const key = `${m.src.file}:${m.at}`;
    if (seen.has(key)) continue; // a file read both as a chunk and as the current file
    seen.add(key);
    const first = adapt(m.src.lines[m.at], m.map).trim();
    let g = groups.get(first);
    if (!g) {
      let missing = 0;
      for (const t of new Set(tokensOf(first).slice(m.typedTokens))) if (isName(t) && !known.has(t)) missing += Math.min(idf(t), MAX_NAME_IDF);
      groups.set(first, (g = { first, evidence: 0, votes: 0, depth: 0, resembling: true, missing, members: [], score: 0, p: 0, confidence: 0 }));
    }
    g.evidence = Math.max(g.evidence, m.evidence);
    g.depth = Math.max(g.depth, m.depth);
    if (m.similar === undefined) g.resembling = false;
    g.votes++;
    g.members.push(m);
  }
  return [...groups.values()];
}

/** Scores, orders (best first; ties by text, so the answer never depends on the order sources came in) and calibrates. */
export function rankGroups(groups: Group[]): Group[] {
  const total = groups.reduce((s, g) => s + g.votes, 0);
  for (const g of groups) {
    g.score = RANK.evidence * g.evidence + RANK.votes * Math.log2(g.votes) + RANK.depth * g.depth + RANK.share * (g.votes / total) +
      (RANK.missing * g.missing) / 10 + (g.resembling ? RANK.resembling : 0);
  }
  const ranked = groups.sort((a, b) => b.score - a.score || (a.first < b.first ? -1 : a.first > b.first ? 1 : 0));
  const top = ranked[0]?.score ?? 0;
  const z = ranked.reduce((s, g) => s + Math.exp(g.score - top), 0);
  for (const g of ranked) {
    g.p = Math.exp(g.score - top) / z;
    const x = CONF.bias + CONF.evidence * Math.min(g.evidence, 30) / 10 + CONF.votes * Math.log2(g.votes) + CONF.share * (g.votes / total) +
      CONF.p * g.p + CONF.depth * g.depth + (g.resembling ? CONF.resembling : 0) + CONF.groups * Math.log2(ranked.length) + (CONF.missing * g.missing) / 10;
    // Never above its probability among the groups: of k continuations the places tie on, each is at most 1/k likely
    // (RepoEval-rules held-out split: precision when offered 0.577 -> 0.588, line EM 0.135 -> 0.134).
    g.confidence = Math.min(1 / (1 + Math.exp(-x)), g.p);
  }
  return ranked;
}

/** Features of a group as the weights see them (for fitting them offline). */
export function groupFeatures(g: Group, groups: Group[]): Record<string, number> {
  const total = groups.reduce((s, x) => s + x.votes, 0);
  return {
    evidence: g.evidence, votes: g.votes, depth: g.depth, share: g.votes / total, missing: g.missing, resembling: g.resembling ? 1 : 0,
    p: g.p, groups: groups.length, score: g.score, confidence: g.confidence,
  };
}
