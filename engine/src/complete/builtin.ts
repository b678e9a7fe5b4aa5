// The built-in completion source (no language model). The lines just above the cursor are matched,
// token by token, against whole chunks of the repository and the current file's earlier lines.
// Names the code binds itself (RETROcode's normalisation, lexical/normalize.ts) may differ as long
// as they correspond one to one: the copy's `batchSignals` matching the user's `signal` is adapted
// to `signal` in what is offered; names the user's code does not contradict keep the repository's.
// What follows the match is offered up to the end of its statement or block (at most
// MAX_LINES lines), re-indented relative to the cursor's line, with its brackets closed as in the
// source. Whether to offer anything at all is decided by evidence (the summed IDF of the tokens that
// matched: a bare `);` or `}` weighs nothing; never line length) and by a calibrated confidence that
// the first line is right (rank.ts). Distinct continuations are returned best first (rank.ts).
import type { CompletionAlternative, CompletionResult } from '../api';
import type { EditorState } from '../types';
import { matchSource, userContext, type Match, type UserContext } from './align';
import { defaultIdf, MAX_LINES, type CompletionSource } from './lines';
import { groupMatches, MIN_RESEMBLING_CONFIDENCE, rankGroups, type Group } from './rank';
import { render } from './render';
import { guessCloser } from './closer';
import { guessUsualLine, nextLines } from './shapes';
import { guessRepeatedLine } from './repeated';
import { fitSuffix, repeatsClosingLine, UNCONFIRMED_MIN_CONFIDENCE, untie } from './suffixFit';
import type { Vetted } from './scopeCheck';

export { MAX_LINES, type CompletionSource };

/** Evidence (summed IDF of the matched tokens) that suffices for an offer. */
export const MIN_EVIDENCE = 6;
/** Evidence below which nothing is offered; between it and MIN_EVIDENCE, only with WEAK_EVIDENCE_CONFIDENCE. */
const MIN_EVIDENCE_FLOOR = 2;
/**
 * Confidence weak evidence needs. Protocol E: added line EM on DEV (0.211 -> 0.217) and on the
 * held-out projects (0.107 -> 0.123, precision 0.500 -> 0.532); DEV precision 0.536 -> 0.528.
 */
const WEAK_EVIDENCE_CONFIDENCE = 0.4;
/**
 * Calibrated confidence every copied continuation needs: the highest that keeps the API tasks' ES on the
 * RepoEval-rules held-out split (0.107 before), as precision when offered rises with it (0.15: 0.550,
 * 0.2: 0.577, 0.25: 0.592 at ES 0.099). PARAMS.md, 2026-11-26-heldout-repoeval-builtin-completion.md.
 */
export const MIN_CONFIDENCE = 0.2;
/** Alternatives returned at most (the first is `text`). */
const MAX_ALTERNATIVES = 3;
/** Earlier lines of the current file scanned at most. */
const MAX_INFILE_LINES = 800;

export interface CompleteOptions {
  /** Specificity of a token (the BM25 index's IDF); a default weight without an index. */
  idf?: (token: string) => number;
  minEvidence?: number;
  /** Calibrated probability that the first line is right (rank.ts) that every offer needs; default MIN_CONFIDENCE (weak evidence and matches by resemblance need more anyway). */
  minConfidence?: number;
  /** Receives the ranked candidates (benchmarks and tests look at them). */
  explain?: (ranked: Group[]) => void;
  /** Cuts a suggestion to what may be shown at the cursor ('' withdraws it): scopeCheck.ts's checks. */
  vet?: (text: string) => Vetted;
}

/**
 * Completes at the cursor from `sources` (whole chunks of the repository) and the current file's
 * earlier lines (from `state.prefix`). With `sources` empty this is the no-retrieval baseline.
 */
export function completeFromSources(state: EditorState, sources: CompletionSource[], opts: CompleteOptions = {}): CompletionResult | null {
  const user = userContext(state);
  if (!user) return null;
  const before = state.prefix.split('\n').slice(0, -1);
  const { result: found, declined } = completeMatches(state, sources, opts, user);
  if (found?.text.trim() && !repeatsClosingLine(user.typed, found.text, state.suffix)) return found;
  // Nothing copied fits: a closing line where the file's bracket structure calls for one (closer.ts).
  // Each guess passes the checks of scopeCheck.ts, repeats no closing line the line below already is
  // (suffixFit.ts), and is not the line the copies' ranking has just declined for the line below:
  // the guesses do not read it, and it follows none of the places that continue with that line.
  const vet = (text: string) => {
    const shown = opts.vet ? opts.vet(text).text : text;
    if (repeatsClosingLine(user.typed, shown, state.suffix)) return '';
    return declined !== undefined && (user.typed + shown).split('\n')[0].trim() === declined ? '' : shown;
  };
  const closer = guessCloser(before, user.typed, user.python);
  const closerText = closer && vet(closer.text);
  if (closer && closerText) return { text: closerText, confidence: Math.round(closer.rate * 1000) / 1000, evidence: 0 };
  // …or the line that followed the same two line shapes earlier in the file and in the chunks (shapes.ts).
  const usual = guessUsualLine(before, user.typed, nextLines(before, sources.filter((src) => src.file !== state.file)));
  const usualText = usual && vet(usual.text);
  if (usual && usualText) return { text: usualText, confidence: Math.round(usual.share * 1000) / 1000, evidence: 0 };
  // …or the rest of an earlier line of the file that begins as the cursor's line does (repeated.ts).
  const repeated = guessRepeatedLine(before, user.typed);
  const repeatedText = repeated && vet(repeated.text);
  if (repeated && repeatedText) return { text: repeatedText, confidence: 0, evidence: 0 };
  return found?.text.trim() ? { text: '', confidence: 0, abstained: 'the best continuation closes what the line below already closes' } : found;
}

/** Why the checks withdrew the best continuation, in words. */
const WITHDRAWN: Record<NonNullable<Vetted['cut']>['reason'], (name?: string) => string> = {
  unbound: (name) => `uses \`${name}\`, which nothing binds here`,
  suffix: () => 'is already below the cursor',
  closer: () => 'is already below the cursor',
  block: () => 'ends a statement where the line below is indented inside a block',
};

/** The copies' answer, and the first line of the best continuation when the line below made it too unlikely to offer. */
interface MatchesAnswer {
  result: CompletionResult | null;
  declined?: string;
}

function completeMatches(state: EditorState, sources: CompletionSource[], opts: CompleteOptions, user: UserContext): MatchesAnswer {
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
  if (!matches.length) return { result: null };
  let ranked = rankGroups(groupMatches(matches, user, idf, state.prefix));
  opts.explain?.(ranked);
  // The line after the cursor confirms a candidate (promoted, offered on less confidence) or none (more needed): suffixFit.ts.
  const fit = fitSuffix(ranked, state.suffix);
  if (fit) ranked = fit.ranked;
  // Evidence first (a bare closer never reaches it), then the calibrated confidence that the first
  // line is right, asked of weak evidence and of a match by resemblance only.
  const top = ranked[0];
  const floor = Math.min(MIN_EVIDENCE_FLOOR, minEvidence);
  const weak = top.evidence < minEvidence;
  const usual = Math.max(opts.minConfidence ?? MIN_CONFIDENCE, top.resembling ? MIN_RESEMBLING_CONFIDENCE : 0, weak ? WEAK_EVIDENCE_CONFIDENCE : 0);
  const needed = !fit ? usual : fit.confirmed ? Math.min(usual, fit.needed) : Math.max(usual, fit.needed);
  if (top.evidence < floor || top.confidence < needed) {
    const why = weak
      ? `the lines before the cursor share only common tokens with the code that continues them (evidence ${top.evidence.toFixed(1)} < ${minEvidence}${top.evidence < floor ? '' : `, and confidence ${top.confidence.toFixed(2)} < ${needed}`})`
      : `the ${ranked.reduce((s, g) => s + g.votes, 0)} places that continue ${top.resembling ? 'lines resembling these' : 'these lines'} do not make one continuation likely enough (confidence ${top.confidence.toFixed(2)} < ${needed})`;
    // The line below confirms none of the places that continue with it: it speaks against this line.
    const contradicted = fit && !fit.confirmed && top.confidence < needed;
    return { result: { text: '', confidence: 0, abstained: why }, ...(contradicted ? { declined: top.first } : {}) };
  }
  // Continuations tied with the best on everything read so far: the one not yet below the cursor, or none.
  const untied = untie(ranked, state.suffix, fit?.confirmed === true);
  if ('tied' in untied) return { result: { text: '', confidence: 0, abstained: `${untied.tied} continuations tie and nothing before or after the cursor tells them apart` } };
  ranked = untied.ranked;
  // Alternatives (shown when the user cycles) need the evidence, not the agreement.
  let items: CompletionAlternative[] = ranked.slice(0, MAX_ALTERNATIVES).filter((g, i) => i === 0 || g.evidence >= minEvidence).map((g) => {
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
      confidence: Math.round(g.confidence * 1000) / 1000,
      evidence: Math.round(g.evidence * 100) / 100,
    };
  }).filter((x) => x.text.trim().length > 0);
  const checks = items.map((x) => (opts.vet ? opts.vet(x.text) : { text: x.text }));
  const vetted = items.map((x, i) => ({ ...x, text: checks[i].text }));
  const withdrawn = checks[0]?.cut;
  if (!vetted[0]?.text.trim()) {
    // The best continuation withdrawn by the checks (its first line uses a name unbound here, or is
    // already below): the next one that passes them, when it is likely enough on its own.
    // The line below confirmed only the withdrawn one: the next needs what an unconfirmed best needs.
    const nextNeeded = fit?.confirmed ? Math.max(usual, UNCONFIRMED_MIN_CONFIDENCE) : needed;
    const next = vetted.findIndex((x, i) => i > 0 && x.text.trim() && x.confidence >= nextNeeded);
    if (next < 0) {
      return { result: withdrawn ? { text: '', confidence: 0, abstained: `the best continuation ${WITHDRAWN[withdrawn.reason](withdrawn.name)}` } : null };
    }
    vetted.splice(0, next);
  }
  items = vetted.filter((x, i) => x.text.trim().length > 0 && vetted.findIndex((y) => y.text === x.text) === i);
  const [best, ...alternatives] = items;
  return { result: { ...best, ...(alternatives.length ? { alternatives } : {}) } };
}

/** Kept for callers with packed excerpts: each excerpt is read as its own source. */
export function completeFromContext(state: EditorState, retrieved: { file: string; startLine: number; text: string }[], opts: CompleteOptions = {}): CompletionResult | null {
  return completeFromSources(state, retrieved.map((r) => {
    const lines = r.text.split('\n');
    return { file: r.file, lines, from: 0, to: lines.length };
  }), opts);
}
