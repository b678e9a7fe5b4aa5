// The text after the cursor as evidence for a continuation. Where a copy's line after the
// continuation is the line that follows the cursor, the copy fits both sides of the gap (as a
// fill-in-the-middle model reads the suffix): it is offered even when the places before the cursor
// disagree. Where the following line confirms none of the candidates, the best one needs more
// confidence: a continuation whose own next line is not the one below is wrong more often, unless
// that line is the one below but for names (the next entry of the same table) and it has no literal. Of
// continuations tied on all of that, one the file already writes below is not the one to write here.
// Thresholds fitted on the DEV split (PARAMS.md, results/README.md).
import type { Match } from './align';
import { isBlank, sameShape, tokensOf } from './lines';
import type { Group } from './rank';
import { adapt } from './render';

/**
 * Ranks (0-based) of the candidates a confirming line may promote. DEV sample (301 line tasks):
 * confirmed candidates were right 54 of 59 at rank 0, 7 of 9 at ranks 1-4; 4 and 8 gave the same EM.
 */
export const MAX_CONFIRMED_RANK = 4;
/**
 * Confidence the best continuation needs when the following line confirms no candidate (a confirmed
 * one needs only the evidence floor). DEV sample: such offers were right 8 of 28 at any confidence;
 * 0.35 / 0.5 / 0.6 gave EM 0.259 / 0.249 / 0.239 and precision 0.736 / 0.781 / 0.828 (main 0.213 /
 * 0.667): 0.5 keeps a margin on both. results/2026-11-28-e-suffix-fit-dev300.md.
 */
export const UNCONFIRMED_MIN_CONFIDENCE = 0.5;
/** Lines of a copy read after the continuation's first line to find its next non-blank one. */
const LOOKAHEAD = 5;

/** The first non-blank line after the cursor's line (trimmed), when it can confirm anything: it has a word character. */
export function followingLine(suffix: string | undefined): string | undefined {
  if (!suffix) return undefined;
  const lines = suffix.split('\n');
  for (let i = 1; i < lines.length; i++) {
    const t = lines[i].trim();
    if (t) return /[\w$]/.test(t) ? t : undefined;
  }
  return undefined;
}

/** The copy's next non-blank line after the match's first line (names adapted, trimmed), or '' past its source's end. */
export function nextCopyLine(m: Match): string {
  const end = Math.min(m.src.lines.length, m.src.limit ?? m.src.lines.length);
  for (let i = m.at + 1; i < Math.min(end, m.at + 1 + LOOKAHEAD); i++) if (!isBlank(m.src.lines[i])) return adapt(m.src.lines[i], m.map).trim();
  return '';
}

/** Members of the group whose next line is the line following the cursor. */
export function confirmations(g: Group, following: string): number {
  let n = 0;
  for (const m of g.members) if (nextCopyLine(m) === following) n++;
  return n;
}

/**
 * The candidates reordered by the text after the cursor, and the confidence the first then needs:
 * the best-ranked confirmed candidate (within MAX_CONFIRMED_RANK) first with none beyond the evidence
 * floor, or, none confirmed, the order unchanged with UNCONFIRMED_MIN_CONFIDENCE unless the best one
 * has no literal and its places go on with a line that resembles the line below (resemblesFollowing):
 * then the usual confidence.
 * Undefined: nothing to read.
 */
export function fitSuffix(ranked: Group[], suffix: string | undefined): { ranked: Group[]; confirmed: boolean; needed: number } | undefined {
  const following = followingLine(suffix);
  if (following === undefined) return undefined;
  const i = ranked.slice(0, MAX_CONFIRMED_RANK + 1).findIndex((g) => confirmations(g, following) > 0);
  if (i < 0) {
    // The best continuation's places go on with a line shaped like the one below (the next entry of
    // the same table, the next call with other arguments): the line below does not speak against it.
    // Unless the continuation holds a literal: where the structure repeats with other names and
    // literals, its own literal is the likeliest to differ (DEV: `evaluator("translation")` where
    // the file goes on with `"automatic-speech-recognition"`).
    const alike = !LITERAL.test(ranked[0].first) && ranked[0].members.some((m) => resemblesFollowing(nextCopyLine(m), following));
    return { ranked, confirmed: false, needed: alike ? 0 : UNCONFIRMED_MIN_CONFIDENCE };
  }
  return { ranked: i === 0 ? ranked : [ranked[i], ...ranked.slice(0, i), ...ranked.slice(i + 1)], confirmed: true, needed: 0 };
}

/** A string or number literal's first character. */
const LITERAL = /["'`]|\b\d/;

/** A line's tokens with each string literal one token (`$STR`) and each number `0`. */
function shapeTokens(line: string): string[] {
  const literals = line.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, ' $STR ');
  return tokensOf(literals).map((t) => (/^\d/.test(t) ? '0' : t));
}

/**
 * Whether a copy's next line is the line below the cursor but for its names and literals, token for
 * token (`"summarization": {` and `"automatic-speech-recognition": {`): the same structure goes on.
 */
export function resemblesFollowing(copyLine: string, following: string): boolean {
  if (copyLine === following) return false;
  const a = shapeTokens(copyLine), b = shapeTokens(following);
  if (a.length !== b.length || a.length < 2) return false;
  // A name that contains the other (`mat`, `_mat`) is the copy's name written otherwise: the file
  // renames what the copies name, so their continuation's names are not its own (ripgrep's `Sink`).
  return sameShape(a, b) && a.every((t, k) => t === b[k] || (!t.includes(b[k]) && !b[k].includes(t)));
}

/**
 * Whether a suggestion's first line is a closing line (no word character) that the line below the
 * cursor already is, at the same indentation: the same bracket closed twice (DEV sample: 2 such offers, both wrong).
 */
export function repeatsClosingLine(typed: string, text: string, suffix: string | undefined): boolean {
  const first = (typed + text.split('\n')[0]).trimEnd();
  if (!first.trim() || /[\w$]/.test(first) || !suffix) return false;
  const below = suffix.split('\n').slice(1).find((l) => l.trim());
  return below !== undefined && below.trimEnd() === first;
}

/**
 * The best continuation when others tie with it on everything the ranking and the line below read
 * (the same score, confirmed alike), where the order of their text would choose: the one the file
 * does not already have below the cursor, the sibling still to be written (`resultUsesScheduler()`
 * below, so `responseUsesScheduler()`). `tied` (how many) when none or several remain: nothing tells them apart.
 */
export function untie(ranked: Group[], suffix: string | undefined, confirmed: boolean): { ranked: Group[] } | { tied: number } {
  const top = ranked[0];
  const following = confirmed ? followingLine(suffix) : undefined;
  const tied = ranked.filter((g) => g.score === top.score && (following === undefined || confirmations(g, following) > 0));
  if (tied.length < 2) return { ranked };
  const below = new Set((suffix ?? '').split('\n').slice(1).map((l) => l.trim()));
  const left = tied.filter((g) => !below.has(g.first));
  return left.length === 1 ? { ranked: [left[0], ...ranked.filter((g) => g !== left[0])] } : { tied: tied.length };
}
