// Continuations of analogous code (issue 18 part 3): in a retrieved chunk that resembles the code
// at the cursor, the line most like the cursor's last line is where the user is in the copy, and the
// lines after it are what the next line most likely needs. A chunk cut to its query-term window keeps
// the lines that resemble the prefix (names the model already has) and may stop before the copy's
// next line, which often sits past the chunk's end (the next declaration, the next statement).
// Retrieve-then-continue is how RepoCoder and ReACC use retrieved code; here it costs no model.
import { lexicalTerms } from '../lexical/tokenize';
import { addsName, remember } from './excerpt';
import type { RetrievedChunk } from '../types';

export interface ContinuationOptions {
  /** Lines taken after the aligned line. */
  lines: number;
  /** Lines past a chunk's end that may hold the aligned line's continuation. */
  tail: number;
  /** Least similarity (Dice over identifier subwords) of the aligned line to the cursor's last line. */
  minSimilarity: number;
}

export const DEFAULT_CONTINUATION: ContinuationOptions = { lines: 8, tail: 20, minSimilarity: 0.5 };

/** Subword terms of a line, as a set (lexical/tokenize: `getCodeError` → get, code, error, getcodeerror). */
const termsOf = (line: string) => new Set(lexicalTerms(line));

function dice(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (!a.size || !b.size) return 0;
  let inter = 0;
  for (const t of a) if (b.has(t)) inter++;
  return (2 * inter) / (a.size + b.size);
}

/** The last `n` non-blank lines of `prefix` (the line being typed included), nearest last. */
export function lastLines(prefix: string, n = 2): string[] {
  const out: string[] = [];
  const lines = prefix.split('\n');
  for (let i = lines.length - 1; i >= 0 && out.length < n; i--) if (lines[i].trim()) out.unshift(lines[i]);
  return out;
}

export interface Continuation {
  /** First line of the continuation (0-based), the line after the aligned one. */
  startLine: number;
  endLine: number;
  similarity: number;
}

/**
 * Where the cursor's last lines sit in `lines[start..end + tail]`, and the `lines` lines after: the
 * line most like the cursor's last line (ties broken by how alike the lines before both are), when
 * it reaches `minSimilarity`. Lines the cursor's last line has no two terms of are never aligned to.
 */
export function findContinuation(fileLines: readonly string[], start: number, end: number, cursorLines: readonly string[], o: ContinuationOptions): Continuation | undefined {
  if (!cursorLines.length) return undefined;
  const last = termsOf(cursorLines[cursorLines.length - 1]);
  if (last.size < 2) return undefined;
  const before = cursorLines.length > 1 ? termsOf(cursorLines[cursorLines.length - 2]) : undefined;
  const stop = Math.min(fileLines.length - 1, end + o.tail);
  let best = -1, bestScore = 0, bestSim = 0;
  // Each line's terms are made once: as the candidate, then as the line before the next one.
  let prev = before && start > 0 && start < stop ? termsOf(fileLines[start - 1]) : undefined;
  for (let i = start; i <= stop - 1; i++) {
    const terms = termsOf(fileLines[i]);
    const sim = dice(last, terms);
    if (sim >= o.minSimilarity) {
      const score = sim + (before && prev ? 0.5 * dice(before, prev) : 0);
      if (score > bestScore) { best = i; bestScore = score; bestSim = sim; }
    }
    prev = terms;
  }
  if (best < 0) return undefined;
  return { startLine: best + 1, endLine: Math.min(stop, best + o.lines), similarity: bestSim };
}

/** A hit to continue: where it is. */
export interface ContinuedHit {
  file: string;
  startLine: number;
  endLine: number;
  score: number;
}

/**
 * The continuations of the first `count` hits, as context chunks: the aligned line (what the copy
 * and the cursor share, so the model sees where the copy is) and the lines after it. With `seen`
 * (freshNames), lines after the first that add no name beyond it are dropped and the kept lines'
 * names join it, so the hits packed after them do not repeat them. In the current file nothing at
 * or after `windowStart` is taken (the editor shows it).
 */
export function continuationChunks(
  hits: readonly ContinuedHit[], count: number, linesOf: (file: string) => readonly string[],
  cursor: { file: string; prefix: string; windowStart: number }, o: ContinuationOptions, seen?: Set<string>,
): RetrievedChunk[] {
  const cursorLines = lastLines(cursor.prefix);
  const out: RetrievedChunk[] = [];
  for (const h of hits.slice(0, count)) {
    const all = linesOf(h.file);
    const lines = h.file === cursor.file ? all.slice(0, Math.max(0, cursor.windowStart)) : all;
    const c = findContinuation(lines, h.startLine, Math.min(h.endLine, lines.length - 1), cursorLines, o);
    if (!c) continue;
    const from = c.startLine - 1;
    const kept = lines.slice(from, c.endLine + 1).filter((l, i) => i === 0 || (l.trim() !== '' && (!seen || addsName(l, seen))));
    if (kept.length < 2) continue;
    const text = kept.join('\n');
    if (seen) remember(text, seen);
    out.push({ file: h.file, startLine: from, endLine: c.endLine, kind: 'window', name: 'continuation', text, score: h.score, signals: { continuation: c.similarity } });
  }
  return out;
}
