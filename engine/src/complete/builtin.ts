// The built-in completion source (no language model). The lines just above the cursor are matched,
// token by token, against whole chunks of the repository and the current file's earlier lines.
// Names the code binds itself (RETROcode's normalisation, lexical/normalize.ts) may differ as long
// as they correspond one to one: the copy's `batchSignals` matching the user's `signal` is adapted
// to `signal` in what is offered; names the user's code does not contradict keep the repository's.
// What follows the match is offered up to the end of its statement or block (at most
// MAX_LINES lines), re-indented relative to the cursor's line, with its brackets closed as in the
// source. Whether to offer anything at all is decided by evidence: the summed IDF of the tokens that
// matched exactly (a bare `);` or `}` weighs nothing), never by line length. Distinct continuations
// are returned best first (more evidence, then more places in the repository that agree).
import type { CompletionAlternative, CompletionResult } from '../api';
import type { EditorState } from '../types';
import { matchSource, userContext, type Match } from './align';
import { defaultIdf, MAX_LINES, type CompletionSource } from './lines';
import { adapt, render } from './render';

export { MAX_LINES, type CompletionSource };

/** Minimal evidence (summed IDF of exactly matched tokens) for an offer. */
export const MIN_EVIDENCE = 6;
/**
 * An offer needs this share of the matching places to agree on its first line, unless… (0: off.
 * On 280 DEV line tasks 0.3 raised precision when offered from ~0.51 to ~0.58 but cost EM and
 * most of the API tasks' ES gain, whose near misses count: off until a better ranking pays for it.)
 */
const MIN_SHARE = 0;
/** …its evidence reaches this. */
const SURE_EVIDENCE = 15;
/** Evidence at which confidence no longer grows with it. */
const CONFIDENT_EVIDENCE = 20;
/** Weight of the number of agreeing places (log2) against evidence when ranking continuations. */
const VOTE_WEIGHT = 2;
/** Alternatives returned at most (the first is `text`). */
const MAX_ALTERNATIVES = 3;
/** Earlier lines of the current file scanned at most. */
const MAX_INFILE_LINES = 800;

export interface CompleteOptions {
  /** Specificity of a token (the BM25 index's IDF); a default weight without an index. */
  idf?: (token: string) => number;
  minEvidence?: number;
}

/**
 * Completes at the cursor from `sources` (whole chunks of the repository) and the current file's
 * earlier lines (from `state.prefix`). With `sources` empty this is the no-retrieval baseline.
 */
export function completeFromSources(state: EditorState, sources: CompletionSource[], opts: CompleteOptions = {}): CompletionResult | null {
  const user = userContext(state);
  if (!user) return null;
  const idf = opts.idf ?? defaultIdf;
  const minEvidence = opts.minEvidence ?? MIN_EVIDENCE;
  const prefixLines = state.prefix.split('\n');
  prefixLines.pop();
  // The current file before the cursor; a continuation there ends before the user's context lines.
  const inFile: CompletionSource = { file: state.file, lines: prefixLines, from: Math.max(0, prefixLines.length - MAX_INFILE_LINES), to: prefixLines.length, limit: prefixLines.length };
  const matches: Match[] = [];
  // Every match is collected (a bare closer's too, with no evidence): they all count as places
  // that continue the same lines, so a continuation few of them agree on is recognised as such.
  for (const src of [...sources, inFile]) matchSource(src, user, idf, 0, matches);
  if (!matches.length) return null;
  // One candidate per distinct (adapted) first line: its best evidence and how many places agree.
  interface Group { first: string; evidence: number; votes: number; members: Match[] }
  const groups = new Map<string, Group>();
  const seen = new Set<string>();
  for (const m of matches) {
    const key = `${m.src.file}:${m.at}`;
    if (seen.has(key)) continue; // a file read both as a chunk and as the current file
    seen.add(key);
    const first = adapt(m.src.lines[m.at], m.map).trim();
    let g = groups.get(first);
    if (!g) groups.set(first, (g = { first, evidence: 0, votes: 0, members: [] }));
    g.evidence = Math.max(g.evidence, m.evidence);
    g.votes++;
    g.members.push(m);
  }
  const score = (g: Group) => g.evidence + VOTE_WEIGHT * Math.log2(g.votes);
  // Best first; ties by text so the answer never depends on the order sources arrived in.
  const ranked = [...groups.values()].sort((a, b) => score(b) - score(a) || (a.first < b.first ? -1 : a.first > b.first ? 1 : 0));
  const total = ranked.reduce((s, g) => s + g.votes, 0);
  const share = (g: Group) => g.votes / total;
  // Evidence decides: enough specific tokens matched, and either most places agree on what follows
  // or the match is so specific that disagreement elsewhere does not matter.
  const offered = (g: Group) => minEvidence <= 0 || (g.evidence >= minEvidence && (share(g) >= MIN_SHARE || g.evidence >= SURE_EVIDENCE));
  if (!offered(ranked[0])) {
    const g = ranked[0];
    const why = g.evidence < minEvidence
      ? `the lines before the cursor share only common tokens with the code that continues them (evidence ${g.evidence.toFixed(1)} < ${minEvidence})`
      : `the ${total} places that continue these lines disagree on what follows`;
    return { text: '', confidence: 0, abstained: why };
  }
  // Alternatives (shown when the user cycles) need the evidence, not the agreement.
  const items: CompletionAlternative[] = ranked.slice(0, MAX_ALTERNATIVES).filter((g, i) => i === 0 || g.evidence >= minEvidence).map((g) => {
    // The most common rendering among the group's strongest members (their statements may end differently).
    const texts = new Map<string, { n: number; evidence: number; m: Match; end: number }>();
    for (const m of [...g.members].sort((a, b) => b.evidence - a.evidence).slice(0, 8)) {
      const r = render(m, user);
      const t = texts.get(r.text) ?? { n: 0, evidence: m.evidence, m, end: r.end };
      t.n++;
      texts.set(r.text, t);
    }
    const [text, t] = [...texts.entries()].sort((a, b) => b[1].n - a[1].n || b[1].evidence - a[1].evidence || (a[0] < b[0] ? -1 : 1))[0];
    return {
      text,
      source: { file: t.m.src.file, startLine: t.m.at, endLine: t.end },
      confidence: Math.round(Math.min(1, g.evidence / CONFIDENT_EVIDENCE) * share(g) * 1000) / 1000,
      evidence: Math.round(g.evidence * 100) / 100,
    };
  }).filter((x) => x.text.trim().length > 0);
  if (!items.length) return null;
  const [best, ...alternatives] = items;
  return { ...best, ...(alternatives.length ? { alternatives } : {}) };
}

/** Kept for callers with packed excerpts: each excerpt is read as its own source. */
export function completeFromContext(state: EditorState, retrieved: { file: string; startLine: number; text: string }[], opts: CompleteOptions = {}): CompletionResult | null {
  return completeFromSources(state, retrieved.map((r) => {
    const lines = r.text.split('\n');
    return { file: r.file, lines, from: 0, to: lines.length };
  }), opts);
}
